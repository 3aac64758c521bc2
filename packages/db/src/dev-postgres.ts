// `npm start`'s PostgreSQL as a process of its own: the embedded server in <DATA_DIR>/postgres (default
// .data/postgres), on a free port, shared by the api and the worker and stopped after both. It hands its
// URL to the parent over IPC (scripts/bootstrap.mjs forks it), or prints `DATABASE_URL=...` when run by
// hand. It stops on SIGTERM or SIGINT, and when its parent goes away (the IPC channel closes); it exits 1
// with one line when PostgreSQL dies under it.
import { join } from 'node:path';

import { startEmbeddedPostgres } from './dev.js';

/** Where the repository root is when run as packages/db/dist/dev-postgres.js. */
const REPO_ROOT = join(__dirname, '..', '..', '..');

async function main(): Promise<void> {
  const dir = join(process.env.DATA_DIR ?? join(REPO_ROOT, '.data'), 'postgres');
  const server = await startEmbeddedPostgres({
    dir,
    // The runner (scripts/dev-runner.mjs) sees this process end and says so.
    onUnexpectedExit: (how) => {
      console.error(`dev-postgres: PostgreSQL exited by itself (${how}); stopping`);
      process.exit(1);
    },
  });
  const url = server.url();

  let stopping = false;
  const stop = (reason: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`dev-postgres: stopping PostgreSQL (${reason})`);
    server.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error('dev-postgres: stopping PostgreSQL failed:', error);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));

  console.log(`dev-postgres: PostgreSQL on 127.0.0.1:${server.port}, data in ${dir}`);
  if (process.send) {
    process.send({ url });
    process.on('disconnect', () => stop('parent gone'));
  } else {
    console.log(`DATABASE_URL=${url}`);
  }
}

main().catch((error: unknown) => {
  console.error('dev-postgres: PostgreSQL did not start:', error);
  process.exit(1);
});
