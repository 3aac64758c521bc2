// The CLI as a function: arguments and an environment in, text on two streams and an exit code out.
// Nothing here touches `process`, so it runs in tests with a fake fetch; admin.ts wires it to the process.
import { COMMON_FLAGS, type Flag, parseCommandLine } from './args.js';
import { ADMIN_ROUTES, AdminClient } from './client.js';
import { COMMANDS } from './commands.js';
import { type DemoCredentials, readDemoCredentials, resolveConnection } from './connection.js';
import { CommandError, UsageError } from './errors.js';
import { commandHelp, groupUsage, usage, usageFor } from './usage.js';

export interface Io {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The file `npm start` writes the api's address and the demo operator's personal token to. */
  readonly demoCredentials: string;
  readonly fetch?: typeof fetch;
}

/** Runs one command line; answers the exit code (0 done, 1 refused or unreachable, 2 bad usage). */
export async function main(argv: readonly string[], io: Io): Promise<number> {
  try {
    return await run(argv, io);
  } catch (error) {
    const failure = describeFailure(error);
    io.stderr(jsonRequested(argv) ? `${JSON.stringify({ error: failure.json })}\n` : `${failure.text}\n`);
    return failure.exitCode;
  }
}

async function run(argv: readonly string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommandLine(argv);
  const [group, verb] = positionals;
  if (group === undefined) {
    (values.help ? io.stdout : io.stderr)(`${usage()}\n`);
    return values.help ? 0 : 2;
  }
  const name = positionals.slice(0, 2).join(' ');
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!command) {
    // A group alone asks what it holds, as gh and docker answer it.
    const commands = verb === undefined ? groupUsage(group) : undefined;
    if (commands === undefined) throw new UsageError(`unknown command "${name}"`, name);
    io.stdout(`${commands}\n`);
    return 0;
  }
  if (values.help) {
    io.stdout(`${commandHelp(name, command)}\n`);
    return 0;
  }
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

  try {
    const demo = (): DemoCredentials => readDemoCredentials(io.demoCredentials);
    const { baseUrl, token, warnings } = resolveConnection(values, io.env, demo);
    for (const warning of warnings) io.stderr(`${warning}\n`);
    const client = new AdminClient(baseUrl, token, io.fetch);
    // A TOTP code steps the token up first: the sensitive command that follows needs it.
    if (values.otp !== undefined) await client.call(ADMIN_ROUTES.stepUp, {}, { code: values.otp });
    const data = await command.run(client, args, values);
    io.stdout(values.json ? `${JSON.stringify(data)}\n` : `${command.text(data)}\n`);
    return 0;
  } catch (error) {
    if (error instanceof UsageError && !error.command) throw new UsageError(error.message, name);
    throw error;
  }
}

/** Whether `argv` asks for --json (before any `--`), known even when the rest does not parse. */
export function jsonRequested(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).includes('--json');
}

/**
 * The JSON form of an error on stderr with --json (docs/decisions.md, "Admin CLI: output, errors and
 * arguments").
 */
export interface JsonError {
  /** usage: bad command line (exit 2); api: the api refused (exit 1); network: no answer (exit 1). */
  readonly kind: 'usage' | 'api' | 'network' | 'internal';
  /** The api's HTTP status when it answered, else null. */
  readonly status: number | null;
  readonly message: string;
}

/** How a failure reads as text and as JSON, and its exit code. */
export function describeFailure(error: unknown): { text: string; json: JsonError; exitCode: number } {
  if (error instanceof UsageError) {
    return {
      text: `admin: ${error.message}\n${usageFor(error.command)}`,
      json: { kind: 'usage', status: null, message: error.message },
      exitCode: 2,
    };
  }
  if (error instanceof CommandError) {
    const json: JsonError = {
      kind: error.status === undefined ? 'network' : 'api',
      status: error.status ?? null,
      message: error.message,
    };
    return { text: error.message, json, exitCode: 1 };
  }
  const message = error instanceof Error ? error.message : String(error);
  const text = `admin: ${error instanceof Error ? (error.stack ?? message) : message}`;
  return { text, json: { kind: 'internal', status: null, message }, exitCode: 1 };
}
