// The webhooks worker process: `node apps/webhooks/dist/main.js` (npm start runs it beside the api on
// the same PostgreSQL). It survives PostgreSQL going away: pg-boss and the pool report errors and
// reconnect; nothing here exits on them. SIGTERM/SIGINT: attempts in flight finish and are recorded.
import 'reflect-metadata';

import { join } from 'node:path';

import { startBoss } from '@svc/db';
import { runService } from '@svc/runtime';

import { loadConfig } from './config.js';
import { startWorker } from './worker.js';

/** Where the repository root is when run as apps/webhooks/dist/main.js. */
const REPO_ROOT = join(__dirname, '..', '..', '..');

runService({
  name: 'webhooks',
  loadConfig: () => loadConfig(process.env, REPO_ROOT),
  withoutDatabaseUrl: { embedded: false, reason: 'npm start passes the URL of its development PostgreSQL' },
  database: (config) => ({ applicationName: 'svc-webhooks', poolSize: config.fetchers * 2 + 4 }),
  async start({ config, logger, dataSource, databaseUrl }) {
    const boss = await startBoss({ url: databaseUrl, max: config.fetchers + 4, listen: false }, (error) =>
      logger.warn({ err: error }, 'queue error'),
    );
    const worker = await startWorker({ config, dataSource, boss, logger });
    return {
      stopping: 'shutting down: finishing attempts in flight',
      stop: [() => worker.stop(), () => boss.stop({ graceful: true, timeout: 10_000 })],
    };
  },
});
