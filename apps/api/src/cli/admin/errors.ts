// The two ways a command fails, told apart by exit code (docs/decisions.md, "Admin CLI: output, errors and
// arguments").

/** Bad usage: exit 2, with the usage of `command` (or of every command). */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly command?: string,
  ) {
    super(message);
  }
}

/** The api refused (with its HTTP status), or could not be reached (no status): exit 1. */
export class CommandError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}
