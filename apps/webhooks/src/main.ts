// The webhooks worker process: `node apps/webhooks/dist/main.js` (npm start runs it beside the api on
// the same PostgreSQL). It survives PostgreSQL going away: pg-boss and the pool report errors and
// reconnect; nothing here exits on them. SIGTERM/SIGINT: attempts in flight finish and are recorded.
import 'reflect-metadata';

import { join } from 'node:path';

import { openDatabase, startBoss, stopGracefullyOnSignals } from '@svc/db';
import { pino } from 'pino';

import { ConfigError, loadConfig, type WorkerConfig } from './config.js';
import { startWorker } from './worker.js';

/** Where the repository root is when run as apps/webhooks/dist/main.js. */
const REPO_ROOT = join(__dirname, '..', '..', '..');

async function main(): Promise<void> {
  let config: WorkerConfig;
  try {
    config = loadConfig(process.env, REPO_ROOT);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const logger = pino({ level: config.logLevel, base: { service: 'webhooks' } });
  if (!config.databaseUrl) {
    console.error('DATABASE_URL: required (npm start passes the embedded PostgreSQL of the api)');
    process.exit(1);
  }
  const dataSource = await openDatabase({
    url: config.databaseUrl,
    applicationName: 'svc-webhooks',
    poolSize: config.fetchers * 2 + 4,
    // A dropped connection is reported here rather than crashing the process; queries fail and retry.
    onPoolError: (error) => logger.warn({ err: error }, 'database connection lost'),
  });
  const boss = await startBoss(
    { url: config.databaseUrl, max: config.fetchers + 4, listen: false },
    (error) => logger.warn({ err: error }, 'queue error'),
  );
  const worker = await startWorker({ config, dataSource, boss, logger });

  stopGracefullyOnSignals(logger, 'shutting down: finishing attempts in flight', [
    () => worker.stop(),
    () => boss.stop({ graceful: true, timeout: 10_000 }),
    () => dataSource.destroy(),
  ]);
}

main().catch((error: unknown) => {
  console.error('the webhooks worker failed to start:', error);
  process.exit(1);
});
