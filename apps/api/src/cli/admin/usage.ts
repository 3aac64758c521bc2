// The usage texts: of every command, and of one.
import { COMMANDS } from './commands.js';

export function usage(): string {
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

/** The usage of the command named `name` (two words), or of every command when there is none such. */
export function commandUsage(name: string): string {
  const command = COMMANDS[name];
  return command ? `usage: npm run admin -- ${name} ${command.help}` : usage();
}
