// What a command is: its arguments and flags, its help, the call it makes and how its answer reads.
import type { Flag, Values } from './args.js';
import type { AdminClient } from './client.js';
import type { Data } from './format.js';

export interface Command {
  /** Positional arguments after the two command words. */
  readonly args: readonly string[];
  /** Flags beyond the common ones. */
  readonly flags: readonly Flag[];
  readonly help: string;
  run(client: AdminClient, args: readonly string[], values: Values): Promise<Data>;
  text(data: Data): string;
}

/** A command group's commands by their second word, e.g. `create` in `orgs create`. */
export type CommandGroup = Readonly<Record<string, Command>>;
