// The webhooks worker process: `node apps/webhooks/dist/main.js` (npm start runs it beside the api on
// the same PostgreSQL). It survives PostgreSQL going away: pg-boss and the pool report errors and
// reconnect; nothing here exits on them. SIGTERM/SIGINT: attempts in flight finish and are recorded.
// Operators reach it on WORKER_PORT: /healthz, /readyz, /metrics (docs/operations.md).
import 'reflect-metadata';

import { join } from 'node:path';

import { startBoss } from '@svc/db';
import { runService } from '@svc/runtime';

import { loadConfig } from './config.js';
import { WorkerMetrics, withTimeout } from './metrics.js';
import { startOpsServer } from './ops-server.js';
import { startWorker } from './worker.js';

/** Where the repository root is when run as apps/webhooks/dist/main.js. */
const REPO_ROOT = join(__dirname, '..', '..', '..');
/** /readyz waits this long for PostgreSQL to answer. */
const READY_PING_TIMEOUT_MS = 2000;

runService({
  name: 'webhooks',
  loadConfig: () => loadConfig(process.env, REPO_ROOT),
  withoutDatabaseUrl: { embedded: false, reason: 'npm start passes the URL of its development PostgreSQL' },
  database: (config) => ({ applicationName: 'svc-webhooks', poolSize: config.fetchers * 2 + 4 }),
  async start({ config, logger, dataSource, databaseUrl }) {
    const metrics = new WorkerMetrics();
    metrics.observeDatabase(dataSource, logger);
    // Ready once pg-boss and the fetchers have started, until the stop begins (or pg-boss stops by itself).
    let state: 'starting' | 'running' | 'stopping' = 'starting';
    const ops = await startOpsServer({
      host: config.host,
      port: config.port,
      metricsToken: config.metricsToken,
      registry: metrics.registry,
      async notReady() {
        if (state === 'stopping') return 'the worker is shutting down';
        if (state === 'starting') return 'the queue is starting';
        try {
          await withTimeout(dataSource.query('SELECT 1'), READY_PING_TIMEOUT_MS);
        } catch {
          return 'the database cannot be reached';
        }
        return undefined;
      },
    });
    logger.info({ url: ops.url }, 'operations server listening');
    if (config.env !== 'production') {
      console.log(`Webhooks worker listening on ${ops.url} (/healthz, /readyz, /metrics)`);
    }

    const boss = await startBoss({ url: databaseUrl, max: config.fetchers + 4, listen: false }, (error) =>
      logger.warn({ err: error }, 'queue error'),
    );
    boss.on('stopped', () => (state = 'stopping'));
    const worker = await startWorker({ config, dataSource, boss, logger, metrics });
    state = 'running';
    return {
      stopping: 'shutting down: finishing attempts in flight',
      stop: [
        () => (state = 'stopping'),
        () => worker.stop(),
        () => boss.stop({ graceful: true, timeout: 10_000 }),
        () => ops.close(),
      ],
    };
  },
});
