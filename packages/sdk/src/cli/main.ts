// The `svc` command as a function: arguments, an environment and a stop signal in, text on two streams and
// an exit status out. Nothing here touches `process`; bin/svc.ts wires it to the process.
import { SDK_VERSION, SvcClient } from '../client.js';
import type { FetchLike } from '../transport.js';
import { listen } from './listen.js';
import { LISTEN_USAGE, UsageError, listenOptions, parseListenFlags } from './listen-options.js';
import { TRIGGER_USAGE, trigger, triggerOptions } from './trigger.js';

export interface Io {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Aborted on Ctrl-C (SIGINT) or SIGTERM. */
  readonly signal: AbortSignal;
  /** For the api and the forwards (tests). Default the global fetch. */
  readonly fetch?: FetchLike;
}

export const USAGE = `Usage: svc <command> [options]

Commands:
  listen    forward your organisation's events to a local receiver, signed as webhooks are
  trigger   record a real event in your sandbox organisation (delivered like any other)

svc <command> --help describes a command.`;

/** Exit status: 0 done or stopped, 1 refused by the api or failed, 2 a mistake on the command line. */
export async function main(argv: readonly string[], io: Io): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    (command === undefined ? io.stderr : io.stdout)(`${USAGE}\n`);
    return command === undefined ? 2 : 0;
  }
  if (command === 'trigger') return runTrigger(rest, io);
  if (command !== 'listen') {
    io.stderr(
      `svc: unknown command ${JSON.stringify(command)}; the commands are: listen, trigger (svc --help)\n`,
    );
    return 2;
  }
  try {
    const { values } = parseListenFlags(rest);
    if (values.help) {
      io.stdout(`${LISTEN_USAGE}\n`);
      return 0;
    }
    const options = listenOptions(values, io.env);
    const client = newClient(options.client, io.fetch);
    return await listen(client, options, io, `svc-listen/${SDK_VERSION}`);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`svc listen: ${error.message} (svc listen --help)\n`);
      return 2;
    }
    io.stderr(`svc listen: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}

async function runTrigger(argv: readonly string[], io: Io): Promise<number> {
  try {
    const options = triggerOptions(argv, io.env);
    if (options.help) {
      io.stdout(`${TRIGGER_USAGE}\n`);
      return 0;
    }
    return await trigger(newClient(options.client, io.fetch, 'svc-trigger'), options.event, io.stdout);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`svc trigger: ${error.message} (svc trigger --help)\n`);
      return 2;
    }
    io.stderr(`svc trigger: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}

function newClient(
  options: ConstructorParameters<typeof SvcClient>[0],
  fetchImpl: FetchLike | undefined,
  appInfo = 'svc-listen',
) {
  try {
    return new SvcClient({ ...options, appInfo, ...(fetchImpl ? { fetch: fetchImpl } : {}) });
  } catch (error) {
    // The client's own checks of its options are mistakes on the command line too.
    if (error instanceof TypeError) throw new UsageError(error.message);
    throw error;
  }
}
