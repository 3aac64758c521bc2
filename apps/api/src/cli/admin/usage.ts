// The usage texts: of every command, of a group's commands, and of one command with only its flags.
import { COMMON_FLAGS, type Flag } from './args.js';
import type { Command } from './command.js';
import { COMMANDS, GROUPS } from './commands.js';

const RUN = 'npm run admin --';

/** What each flag takes and does, for a command's own --help. */
const FLAG_HELP: Readonly<Record<Flag, string>> = {
  json: 'print the answer as one line of JSON; errors as one line of JSON on stderr',
  help: 'show this help',
  url: '<base url>  the api (else SVC_URL, else .data/demo-credentials.json)',
  token: '<personal token>  (else SVC_OPERATOR_TOKEN, else .data/demo-credentials.json)',
  otp: '<code>  a TOTP code from your authenticator: steps up your token first (sensitive commands)',
  actor: 'ignored: the audit log names the operator of the token',
  email: "<address>  the operator's e-mail, with which they sign in",
  role: 'ADMIN|KYC_REVIEWER|TRADING_OPS|SUPPORT',
  days: '<n>  days until the token expires (default 30)',
  name: '<name>  the organisation name',
  'kyc-domain': "<host>  the organisation's KYC domain",
  plan: 'STANDARD|ENTERPRISE',
  environment: 'LIVE|SANDBOX  fixed at creation (default LIVE; docs/testing.md)',
  'support-email': '<address>  repeat for several; replaces the whole list',
  'no-support-emails': 'clear the list of support addresses',
  label: '<label>  a note stored with the credential',
  scopes: '"<MODULE:PERMISSION> ..."  space-separated',
  org: '<orgId>  only this organisation',
  action: '<action>  only this action, e.g. api-key.revoke',
  operator: '<operator id>  only what this operator did',
  from: '<ISO 8601>  only entries at or after this time',
  to: '<ISO 8601>  only entries before this time',
  limit: '<n>  items per page',
  cursor: '<nextCursor>  the page after the one that printed it',
  'enabled-assets': 'BTC,ETH  replaces enabledAssets ("" clears it)',
  'quote-limit': 'CODE=amount,...  replaces quoteLimit ("" clears it)',
  'total-limit': 'CODE=amount,...  replaces totalLimit ("" clears it)',
  'total-exposure': 'CODE=amount,...  replaces totalExposure ("" clears it)',
  'asset-exposure': 'CODE=amount,...  replaces assetExposure ("" clears it)',
  'commission-rate': '<rate>  replaces commissionRate, e.g. 0.0015',
  'vat-rate': '<rate>  replaces vatRate, e.g. 0.21',
  event: 'MAINTENANCE_ALERTS|ASSET_ENABLE|ASSET_DISABLE',
  entity: '<component or BASE_QUOTE>',
  message: '<text>  (a text starting with "-": --message=-text)',
  start: '<ISO 8601>  when it starts',
  end: '<ISO 8601>  when it ends',
};

const NOTES = [
  'A value starting with "-" goes after "=" (--message=-text); arguments after "--" are taken as they',
  'are (prices set BTC_EUR -- -5), so put flags such as --json before "--".',
];

const commandLine = (name: string, command: Command) => `  ${name} ${command.help}`;

export function usage(): string {
  return [
    `usage: ${RUN} <command> [--json] [--url <base url>] [--token <personal token>] [--otp <code>]`,
    `       ${RUN} <group> lists a group's commands; ${RUN} <command> --help shows its flags`,
    '',
    'commands:',
    ...Object.entries(COMMANDS).map(([name, command]) => commandLine(name, command)),
    '',
    '--json prints exactly the answer as one line of JSON. The api address and your personal token come from',
    '--url/SVC_URL and --token/SVC_OPERATOR_TOKEN, else from .data/demo-credentials.json (written by npm start).',
    'The audit log names the operator of the token (docs/operators.md); --actor is ignored. Sensitive commands',
    '(issuing credentials, managing operators, personal-tokens create) need --otp <code> from your authenticator.',
    ...NOTES,
  ].join('\n');
}

/** The commands of `group` (e.g. `orgs`), or undefined when there is no such group. */
export function groupUsage(group: string): string | undefined {
  const commands = Object.hasOwn(GROUPS, group) ? GROUPS[group] : undefined;
  if (!commands) return undefined;
  return [
    `usage: ${RUN} ${group} <command> [flags]  (${RUN} ${group} <command> --help for its flags)`,
    '',
    'commands:',
    ...Object.entries(commands).map(([name, command]) => commandLine(`${group} ${name}`, command)),
  ].join('\n');
}

/** `name`'s usage line and each of its flags, the common ones last. */
export function commandHelp(name: string, command: Command): string {
  const flags = (list: readonly Flag[]) => list.map((flag) => `  --${flag.padEnd(18)} ${FLAG_HELP[flag]}`);
  return [
    `usage: ${RUN} ${name} ${command.help}`,
    ...(command.flags.length > 0 ? ['', 'flags:', ...flags(command.flags)] : []),
    '',
    'common flags:',
    ...flags(COMMON_FLAGS),
  ].join('\n');
}

/**
 * The usage to show after a mistake in `name` (one or two words): that command's usage line, else its
 * group's commands, else every command.
 */
export function usageFor(name: string | undefined): string {
  const command = name !== undefined && Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (name !== undefined && command) return `usage: ${RUN} ${name} ${command.help}`;
  return groupUsage(name?.split(' ')[0] ?? '') ?? usage();
}
