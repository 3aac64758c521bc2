#!/usr/bin/env node
// The operator CLI (`npm run admin -- <command>`): a thin client of a running api's admin surface
// (/api/v1/admin/...). With --json, stdout holds exactly the answer's data as one line of JSON, so a
// script can create an organisation and read its credentials; errors go to stderr with a non-zero exit.
// Only Node built-ins and @svc/protocol: it runs on any Node the repository supports.
import { existsSync, readFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

import { type Envelope, isEnvelope, parseScopes, ScopeError } from '@svc/protocol';

/** The decimals of amounts, prices and rates (numeric(38,8) in the api). */
const AMOUNT_DECIMALS = 8;

/** Where `npm start` writes the demo organisation's credentials, with the api's address and admin token. */
const DEMO_CREDENTIALS = join(__dirname, '..', '..', '..', '..', '.data', 'demo-credentials.json');

const OPTIONS = {
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  url: { type: 'string' },
  token: { type: 'string' },
  actor: { type: 'string' },
  name: { type: 'string' },
  'kyc-domain': { type: 'string' },
  plan: { type: 'string' },
  'support-email': { type: 'string', multiple: true },
  'no-support-emails': { type: 'boolean' },
  label: { type: 'string' },
  scopes: { type: 'string' },
  org: { type: 'string' },
  action: { type: 'string' },
  limit: { type: 'string' },
  cursor: { type: 'string' },
  'enabled-assets': { type: 'string' },
  'quote-limit': { type: 'string' },
  'total-limit': { type: 'string' },
  'total-exposure': { type: 'string' },
  'asset-exposure': { type: 'string' },
  'commission-rate': { type: 'string' },
  'vat-rate': { type: 'string' },
  event: { type: 'string' },
  entity: { type: 'string' },
  message: { type: 'string' },
  start: { type: 'string' },
  end: { type: 'string' },
} as const;

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>['values'];
type Flag = keyof typeof OPTIONS;
type Data = Record<string, unknown>;

const COMMON_FLAGS: readonly Flag[] = ['json', 'help', 'url', 'token', 'actor'];

/** Bad usage: exit 2, with the usage of `command` (or of every command). */
class UsageError extends Error {
  constructor(
    message: string,
    readonly command?: string,
  ) {
    super(message);
  }
}
/** The api refused, or could not be reached: exit 1. */
class CommandError extends Error {}

class AdminClient {
  constructor(
    readonly baseUrl: string,
    private readonly token: string,
    private readonly actor: string,
  ) {}

  async call(method: string, path: string, body?: object): Promise<Data> {
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.token}`,
      'x-admin-actor': this.actor,
    };
    if (body) headers['content-type'] = 'application/json';
    let response: Response;
    try {
      response = await fetch(this.baseUrl + path, {
        method,
        headers,
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      throw new CommandError(
        `cannot reach the api at ${this.baseUrl} (${cause?.code ?? cause?.message ?? String(error)}): ` +
          'is it running (npm start)? Pass --url or set SVC_URL.',
      );
    }
    const text = await response.text();
    let envelope: unknown;
    try {
      envelope = JSON.parse(text);
    } catch {
      envelope = undefined;
    }
    if (!isEnvelope(envelope)) {
      throw new CommandError(
        `${method} ${this.baseUrl}${path} answered HTTP ${response.status} without the envelope: ${text.slice(0, 200)}`,
      );
    }
    const { data, error } = envelope as Envelope<Data>;
    if (!response.ok || error || !data) throw new CommandError(error ?? `HTTP ${response.status}`);
    return data;
  }
}

interface Command {
  /** Positional arguments after the two command words. */
  readonly args: readonly string[];
  /** Flags beyond the common ones. */
  readonly flags: readonly Flag[];
  readonly help: string;
  run(client: AdminClient, args: string[], values: Values): Promise<Data>;
  text(data: Data): string;
}

const orgPath = (orgId: string, rest = '') => `/api/v1/admin/orgs/${encodeURIComponent(orgId)}/${rest}`;

function query(values: Values, names: Partial<Record<Flag, string>>): string {
  const params = new URLSearchParams();
  for (const [flag, name] of Object.entries(names)) {
    const value = values[flag as Flag];
    if (typeof value === 'string' && name) params.set(name, value);
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** The organisation fields given as flags, as the api names them. */
function orgFields(values: Values): Data {
  const fields: Data = {};
  if (values.name !== undefined) fields.name = values.name;
  if (values['kyc-domain'] !== undefined) fields.kycDomain = values['kyc-domain'];
  if (values.plan !== undefined) fields.plan = values.plan;
  if (values['support-email'] !== undefined) fields.supportEmails = values['support-email'];
  if (values['no-support-emails']) fields.supportEmails = [];
  return fields;
}

function requireFlags(values: Values, flags: readonly Flag[]): void {
  const missing = flags.filter((flag) => values[flag] === undefined);
  if (missing.length > 0) throw new UsageError(`missing ${missing.map((flag) => `--${flag}`).join(', ')}`);
}

/** Checked here as well as by the api, so `orgs bootstrap` fails before it creates anything. */
function scopesFlag(values: Values): string {
  requireFlags(values, ['scopes']);
  const text = values.scopes ?? '';
  try {
    if (parseScopes(text).length === 0)
      throw new UsageError('--scopes must name at least one MODULE:PERMISSION');
  } catch (error) {
    if (error instanceof ScopeError) throw new UsageError(`--scopes: ${error.message}`);
    throw error;
  }
  return text;
}

/** `1e-8` as `0.00000001`: String(number) writes exponents for very small and very large values. */
function plainDecimal(value: number): string {
  const text = String(value);
  const match = /^(\d+)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (!match) return text;
  const digits = (match[1] ?? '') + (match[2] ?? '');
  const point = (match[1] ?? '').length + Number(match[3]);
  if (point <= 0) return `0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return digits + '0'.repeat(point - digits.length);
  return `${digits.slice(0, point)}.${digits.slice(point)}`;
}

/**
 * A decimal argument as the JSON number the api reads, refused unless that number stands for exactly the
 * digits given (a double carries 15 to 17 of them) and has at most 8 decimals.
 */
function amountArg(name: string, text: string): number {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) throw new UsageError(`${name} must be a decimal number such as 1000 or 0.0015 (got "${text}")`);
  if ((match[2] ?? '').length > AMOUNT_DECIMALS)
    throw new UsageError(`${name} must have at most ${AMOUNT_DECIMALS} decimals (got "${text}")`);
  const value = Number(text);
  const canonical = `${(match[1] ?? '').replace(/^0+(?=\d)/, '')}.${match[2] ?? ''}`.replace(/\.?0*$/, '');
  if (!Number.isFinite(value) || plainDecimal(value) !== (canonical || '0'))
    throw new UsageError(`${name}: ${text} has more digits than a JSON number carries exactly`);
  return value;
}

/** `EUR=1000,USD=900.5` as {EUR: 1000, USD: 900.5}; an empty value is the empty map (no limits). */
function limitMapArg(flag: Flag, text: string): Record<string, number> {
  const map: Record<string, number> = {};
  for (const entry of text === '' ? [] : text.split(',')) {
    const [code = '', amount, extra] = entry.trim().split('=');
    if (amount === undefined || extra !== undefined || code === '')
      throw new UsageError(`--${flag} takes CODE=amount pairs separated by commas (got "${entry}")`);
    if (Object.hasOwn(map, code)) throw new UsageError(`--${flag} names ${code} twice`);
    map[code] = amountArg(`--${flag} ${code}`, amount);
  }
  return map;
}

const LIMIT_FLAGS = {
  'quote-limit': 'quoteLimit',
  'total-limit': 'totalLimit',
  'total-exposure': 'totalExposure',
  'asset-exposure': 'assetExposure',
} as const;

/** The body of PATCH .../policy/ from the flags given; each one replaces that field whole. */
function policyFields(values: Values): Data {
  const fields: Data = {};
  const assets = values['enabled-assets'];
  if (assets !== undefined)
    fields.enabledAssets = assets === '' ? [] : assets.split(',').map((code) => code.trim());
  for (const [flag, field] of Object.entries(LIMIT_FLAGS) as [keyof typeof LIMIT_FLAGS, string][]) {
    const text = values[flag];
    if (text !== undefined) fields[field] = limitMapArg(flag, text);
  }
  if (values['commission-rate'] !== undefined)
    fields.commissionRate = amountArg('--commission-rate', values['commission-rate']);
  if (values['vat-rate'] !== undefined) fields.vatRate = amountArg('--vat-rate', values['vat-rate']);
  if (Object.keys(fields).length === 0)
    throw new UsageError(
      'policy set needs at least one of --enabled-assets, --quote-limit, --total-limit, ' +
        '--total-exposure, --asset-exposure, --commission-rate, --vat-rate',
    );
  return fields;
}

function noticeFields(values: Values): Data {
  requireFlags(values, ['event', 'entity', 'message']);
  return {
    event: values.event,
    entity: values.entity,
    message: values.message,
    ...(values.start === undefined ? {} : { startTime: values.start }),
    ...(values.end === undefined ? {} : { endTime: values.end }),
  };
}

const pricePath = (symbol: string) => `/api/v1/admin/prices/${encodeURIComponent(symbol)}/`;

const labelBody = (values: Values): Data => (values.label === undefined ? {} : { label: values.label });

const SECRET_NOTE = '\nThe secret above is shown once: store it now.';
const SECRETS_NOTE = '\nThe secrets above are shown once: store them now.';

const COMMANDS: Record<string, Command> = {
  'orgs create': {
    args: [],
    flags: ['name', 'kyc-domain', 'plan', 'support-email'],
    help: '--name <name> --kyc-domain <host> --plan STANDARD|ENTERPRISE [--support-email <address>]...',
    run: (client, _args, values) => client.call('POST', '/api/v1/admin/orgs/', orgFields(values)),
    text: record,
  },
  'orgs list': {
    args: [],
    flags: ['limit', 'cursor'],
    help: '[--limit <n>] [--cursor <nextCursor>]',
    run: (client, _args, values) =>
      client.call('GET', `/api/v1/admin/orgs/${query(values, { limit: 'limit', cursor: 'cursor' })}`),
    text: (data) => page(data, ['orgId', 'plan', 'kycDomain', 'name']),
  },
  'orgs get': {
    args: ['orgId'],
    flags: [],
    help: '<orgId>',
    run: (client, [orgId = '']) => client.call('GET', orgPath(orgId)),
    text: record,
  },
  'orgs update': {
    args: ['orgId'],
    flags: ['name', 'kyc-domain', 'plan', 'support-email', 'no-support-emails'],
    help:
      '<orgId> [--name <name>] [--kyc-domain <host>] [--plan <plan>] ' +
      '[--support-email <address>]... (replaces the list) [--no-support-emails]',
    run: (client, [orgId = ''], values) => client.call('PATCH', orgPath(orgId), orgFields(values)),
    text: record,
  },
  'orgs bootstrap': {
    args: [],
    flags: ['name', 'kyc-domain', 'plan', 'support-email', 'scopes', 'label'],
    help:
      '--name <name> --kyc-domain <host> --plan <plan> [--support-email <address>]... ' +
      '--scopes "<MODULE:PERMISSION> ..." [--label <label>]: an organisation, an API key and an OAuth client',
    run: bootstrap,
    text: (data) => record(data) + SECRETS_NOTE,
  },
  'api-keys issue': {
    args: ['orgId'],
    flags: ['label'],
    help: '<orgId> [--label <label>]',
    run: (client, [orgId = ''], values) =>
      client.call('POST', orgPath(orgId, 'api-keys/'), labelBody(values)),
    text: (data) => record(data) + SECRET_NOTE,
  },
  'api-keys list': {
    args: ['orgId'],
    flags: [],
    help: '<orgId>',
    run: (client, [orgId = '']) => client.call('GET', orgPath(orgId, 'api-keys/')),
    text: (data) => page(data, ['id', 'apiKey', 'label', 'createdAt', 'revokedAt']),
  },
  'api-keys revoke': {
    args: ['orgId', 'id'],
    flags: [],
    help: '<orgId> <id or pk_… key>',
    run: (client, [orgId = '', id = '']) =>
      client.call('POST', orgPath(orgId, `api-keys/${encodeURIComponent(id)}/revoke`)),
    text: record,
  },
  'clients issue': {
    args: ['orgId'],
    flags: ['scopes', 'label'],
    help: '<orgId> --scopes "<MODULE:PERMISSION> ..." [--label <label>]',
    run: (client, [orgId = ''], values) =>
      client.call('POST', orgPath(orgId, 'oauth-clients/'), {
        scopes: scopesFlag(values),
        ...labelBody(values),
      }),
    text: (data) => record(data) + SECRET_NOTE,
  },
  'clients list': {
    args: ['orgId'],
    flags: [],
    help: '<orgId>',
    run: (client, [orgId = '']) => client.call('GET', orgPath(orgId, 'oauth-clients/')),
    text: (data) => page(data, ['id', 'clientId', 'scopes', 'label', 'createdAt', 'revokedAt']),
  },
  'clients revoke': {
    args: ['orgId', 'id'],
    flags: [],
    help: '<orgId> <id or cl_… client id>: revokes its access tokens too',
    run: (client, [orgId = '', id = '']) =>
      client.call('POST', orgPath(orgId, `oauth-clients/${encodeURIComponent(id)}/revoke`)),
    text: record,
  },
  'tokens revoke': {
    args: ['orgId'],
    flags: [],
    help: '<orgId>: every live access token of the organisation (its clients may get new ones)',
    run: (client, [orgId = '']) => client.call('POST', orgPath(orgId, 'tokens/revoke')),
    text: record,
  },
  'audit list': {
    args: [],
    flags: ['org', 'action', 'limit', 'cursor'],
    help: '[--org <orgId>] [--action <e.g. api-key.revoke>] [--limit <n>] [--cursor <nextCursor>]',
    run: (client, _args, values) =>
      client.call(
        'GET',
        `/api/v1/admin/audit/${query(values, { org: 'orgId', action: 'action', limit: 'limit', cursor: 'cursor' })}`,
      ),
    text: (data) => page(data, ['createdAt', 'actor', 'action', 'orgId', 'details']),
  },
  'prices set': {
    args: ['symbol', 'price'],
    flags: [],
    help: '<BASE_QUOTE> <price>: the price the default venue fills market orders at',
    run: (client, [symbol = '', price = '']) =>
      client.call('PUT', pricePath(symbol), { price: amountArg('price', price) }),
    text: record,
  },
  'prices list': {
    args: [],
    flags: ['limit', 'cursor'],
    help: '[--limit <n>] [--cursor <nextCursor>]',
    run: (client, _args, values) =>
      client.call('GET', `/api/v1/admin/prices/${query(values, { limit: 'limit', cursor: 'cursor' })}`),
    text: (data) => page(data, ['symbol', 'price', 'updatedAt']),
  },
  'prices get': {
    args: ['symbol'],
    flags: [],
    help: '<BASE_QUOTE>',
    run: (client, [symbol = '']) => client.call('GET', pricePath(symbol)),
    text: record,
  },
  'prices delete': {
    args: ['symbol'],
    flags: [],
    help: '<BASE_QUOTE>: the pair has no market until a price is set again',
    run: (client, [symbol = '']) => client.call('DELETE', pricePath(symbol)),
    text: record,
  },
  'policy set': {
    args: ['orgId'],
    flags: [
      'enabled-assets',
      'quote-limit',
      'total-limit',
      'total-exposure',
      'asset-exposure',
      'commission-rate',
      'vat-rate',
    ],
    help:
      '<orgId> [--enabled-assets BTC,ETH] [--quote-limit EUR=1000,USD=900] [--total-limit ...] ' +
      '[--total-exposure ...] [--asset-exposure BTC=2] [--commission-rate 0.0015] [--vat-rate 0.21]: ' +
      'each flag replaces that field ("" clears a list or map); changed limits emit Actions events',
    run: (client, [orgId = ''], values) =>
      client.call('PATCH', orgPath(orgId, 'policy/'), policyFields(values)),
    text: record,
  },
  'notices publish': {
    args: [],
    flags: ['event', 'entity', 'message', 'start', 'end'],
    help:
      '--event MAINTENANCE_ALERTS|ASSET_ENABLE|ASSET_DISABLE --entity <component or BASE_QUOTE> ' +
      '--message <text> [--start <ISO 8601>] [--end <ISO 8601>]: a SystemInformation event to every ' +
      'organisation with an active webhook; ASSET_DISABLE halts the pair until ASSET_ENABLE',
    run: (client, _args, values) => client.call('POST', '/api/v1/admin/notices/', noticeFields(values)),
    text: record,
  },
  'notices list': {
    args: [],
    flags: ['limit', 'cursor'],
    help: '[--limit <n>] [--cursor <nextCursor>]',
    run: (client, _args, values) =>
      client.call('GET', `/api/v1/admin/notices/${query(values, { limit: 'limit', cursor: 'cursor' })}`),
    text: (data) => page(data, ['id', 'createdAt', 'event', 'entity', 'startTime', 'endTime', 'message']),
  },
  'notices get': {
    args: ['id'],
    flags: [],
    help: '<id>',
    run: (client, [id = '']) => client.call('GET', `/api/v1/admin/notices/${encodeURIComponent(id)}/`),
    text: record,
  },
};

/** An organisation with an API key and an OAuth client, all credentials in one flat object. */
async function bootstrap(client: AdminClient, _args: string[], values: Values): Promise<Data> {
  requireFlags(values, ['name', 'kyc-domain', 'plan']);
  const scopes = scopesFlag(values);
  const org = await client.call('POST', '/api/v1/admin/orgs/', orgFields(values));
  const orgId = String(org.orgId);
  try {
    const key = await client.call('POST', orgPath(orgId, 'api-keys/'), labelBody(values));
    const oauth = await client.call('POST', orgPath(orgId, 'oauth-clients/'), {
      scopes,
      ...labelBody(values),
    });
    return {
      baseUrl: client.baseUrl,
      orgId: org.orgId,
      name: org.name,
      kycDomain: org.kycDomain,
      plan: org.plan,
      supportEmails: org.supportEmails,
      apiKey: key.apiKey,
      apiSecret: key.apiSecret,
      clientId: oauth.clientId,
      clientSecret: oauth.clientSecret,
      scopes: oauth.scopes,
    };
  } catch (error) {
    if (!(error instanceof CommandError)) throw error;
    throw new CommandError(
      `${error.message}\n(organisation ${orgId} was created; finish with \`api-keys issue ${orgId}\` and \`clients issue ${orgId}\`)`,
    );
  }
}

function show(value: unknown): string {
  if (value === null || value === undefined) return '-';
  if (Array.isArray(value)) return value.length === 0 ? '-' : value.map(show).join(' ');
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** `key  value` lines, keys aligned. */
function record(data: Data): string {
  const width = Math.max(...Object.keys(data).map((key) => key.length));
  return Object.entries(data)
    .map(([key, value]) => `${key.padEnd(width)}  ${show(value)}`)
    .join('\n');
}

/** A table of `items` with a header, and how to get the next page. */
function page(data: Data, columns: readonly string[]): string {
  const items = (data.items ?? []) as Data[];
  if (items.length === 0) return '(none)';
  const rows = [columns, ...items.map((item) => columns.map((column) => show(item[column])))];
  const widths = columns.map((_, index) => Math.max(...rows.map((row) => (row[index] ?? '').length)));
  const lines = rows.map((row) =>
    row.map((cell, index) => (index === row.length - 1 ? cell : cell.padEnd(widths[index] ?? 0))).join('  '),
  );
  if (typeof data.nextCursor === 'string') lines.push(`(more: --cursor ${data.nextCursor})`);
  return lines.join('\n');
}

function usage(): string {
  const lines = Object.entries(COMMANDS).map(([name, command]) => `  ${name} ${command.help}`);
  return [
    'usage: npm run admin -- <command> [--json] [--url <base url>] [--token <admin token>] [--actor <label>]',
    '',
    'commands:',
    ...lines,
    '',
    '--json prints exactly the answer as one line of JSON. The api address and admin token come from',
    '--url/SVC_URL and --token/SVC_ADMIN_TOKEN, else from .data/demo-credentials.json (written by npm start).',
    '--actor (or SVC_ADMIN_ACTOR) labels the audit entries; default cli:<user name>.',
  ].join('\n');
}

function readDemoCredentials(): { baseUrl?: string; adminToken?: string } {
  if (!existsSync(DEMO_CREDENTIALS)) return {};
  try {
    return JSON.parse(readFileSync(DEMO_CREDENTIALS, 'utf8')) as { baseUrl?: string; adminToken?: string };
  } catch {
    return {};
  }
}

function defaultActor(): string {
  try {
    const name = `cli:${userInfo().username}`;
    return /^[A-Za-z0-9 ._:@+/-]{1,64}$/.test(name) ? name : 'cli';
  } catch {
    return 'cli';
  }
}

function connect(values: Values): AdminClient {
  const demo = readDemoCredentials();
  const baseUrl = values.url || process.env.SVC_URL || demo.baseUrl;
  const token = values.token || process.env.SVC_ADMIN_TOKEN || demo.adminToken;
  if (!baseUrl || !token) {
    throw new UsageError(
      `no ${baseUrl ? 'admin token' : 'api address'}: pass --url and --token, set SVC_URL and ` +
        'SVC_ADMIN_TOKEN, or run `npm start` once (it writes .data/demo-credentials.json)',
    );
  }
  const actor = values.actor || process.env.SVC_ADMIN_ACTOR || defaultActor();
  return new AdminClient(baseUrl.replace(/\/+$/, ''), token, actor);
}

async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help || positionals.length === 0) {
    const stream = values.help ? process.stdout : process.stderr;
    stream.write(`${usage()}\n`);
    return values.help ? 0 : 2;
  }
  const name = positionals.slice(0, 2).join(' ');
  const command = COMMANDS[name];
  if (!command) throw new UsageError(`unknown command "${name}"`);
  const args = positionals.slice(2);
  if (args.length !== command.args.length) {
    throw new UsageError(
      `${name} takes ${command.args.map((arg) => `<${arg}>`).join(' ') || 'no arguments'}`,
      name,
    );
  }
  const allowed = new Set([...COMMON_FLAGS, ...command.flags]);
  const stray = (Object.keys(values) as Flag[]).filter((flag) => !allowed.has(flag));
  if (stray.length > 0)
    throw new UsageError(`${name} does not take ${stray.map((flag) => `--${flag}`).join(', ')}`, name);

  let data: Data;
  try {
    data = await command.run(connect(values), args, values);
  } catch (error) {
    if (error instanceof UsageError && !error.command) throw new UsageError(error.message, name);
    throw error;
  }
  process.stdout.write(values.json ? `${JSON.stringify(data)}\n` : `${command.text(data)}\n`);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof UsageError) {
      const command = error.command ? COMMANDS[error.command] : undefined;
      const help = command ? `usage: npm run admin -- ${error.command ?? ''} ${command.help}` : usage();
      process.stderr.write(`admin: ${error.message}\n${help}\n`);
      process.exitCode = 2;
    } else if (error instanceof CommandError) {
      process.stderr.write(`${error.message}\n`);
      process.exitCode = 1;
    } else {
      process.stderr.write(
        `admin: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
      );
      process.exitCode = 1;
    }
  },
);
