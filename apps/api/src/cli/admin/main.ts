// The CLI as a function: arguments and an environment in, text on two streams and an exit code out.
// Nothing here touches `process`, so it runs in tests with a fake fetch; admin.ts wires it to the process.
import { COMMON_FLAGS, type Flag, parseCommandLine } from './args.js';
import { AdminClient } from './client.js';
import { COMMANDS } from './commands.js';
import { type DemoCredentials, readDemoCredentials, resolveConnection } from './connection.js';
import { CommandError, UsageError } from './errors.js';
import { commandHelp, groupUsage, usage, usageFor } from './usage.js';

export interface Io {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The file `npm start` writes the api's address and admin token to. */
  readonly demoCredentials: string;
  readonly fetch?: typeof fetch;
}

/** Runs one command line; answers the exit code (0 done, 1 refused or unreachable, 2 bad usage). */
export async function main(argv: readonly string[], io: Io): Promise<number> {
  try {
    return await run(argv, io);
  } catch (error) {
    return fail(error, io);
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
    const { baseUrl, token, actor } = resolveConnection(values, io.env, demo);
    const data = await command.run(new AdminClient(baseUrl, token, actor, io.fetch), args, values);
    io.stdout(values.json ? `${JSON.stringify(data)}\n` : `${command.text(data)}\n`);
    return 0;
  } catch (error) {
    if (error instanceof UsageError && !error.command) throw new UsageError(error.message, name);
    throw error;
  }
}

function fail(error: unknown, io: Io): number {
  if (error instanceof UsageError) {
    io.stderr(`admin: ${error.message}\n${usageFor(error.command)}\n`);
    return 2;
  }
  if (error instanceof CommandError) {
    io.stderr(`${error.message}\n`);
    return 1;
  }
  io.stderr(`admin: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  return 1;
}
