// `npm start`: the api on the embedded PostgreSQL in .data/ (or DATABASE_URL), migrations applied, the
// demo organisation created on first start; graceful shutdown on SIGTERM/SIGINT (@svc/runtime).
import 'reflect-metadata';

import { join } from 'node:path';

import { startBoss } from '@svc/db';
import { runService, StartupError } from '@svc/runtime';

import { createApp } from './app.js';
import { loadConfig } from './config/config.js';
import { demoDashboardLink, demoInstructions, ensureDemoCredentials } from './demo.js';

/** Where the repository root is when run as apps/api/dist/main.js. */
const REPO_ROOT = join(__dirname, '..', '..', '..');

runService({
  name: 'api',
  loadConfig: () => loadConfig(process.env, REPO_ROOT),
  withoutDatabaseUrl: { embedded: true },
  database: () => ({ applicationName: 'svc-api' }),
  async start({ config, logger, dataSource, databaseUrl }) {
    // The api only sends jobs: no maintenance, and no LISTEN connection woken by every job sent.
    const boss = await startBoss({ url: databaseUrl, supervise: false, listen: false }, (error) =>
      logger.warn({ err: error }, 'queue error'),
    );
    const app = await createApp({ config, logger, dataSource, boss });
    try {
      await app.listen({ port: config.port, host: config.host });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
      throw new StartupError(
        `the api cannot listen on ${config.host}:${config.port}: the port is in use (set PORT to a free one)`,
      );
    }

    if (config.env !== 'production') {
      const host = config.host === '0.0.0.0' ? '127.0.0.1' : config.host;
      const address = app.getHttpServer().address();
      const port = typeof address === 'object' && address ? address.port : config.port;
      const file = join(config.dataDir, 'demo-credentials.json');
      const { credentials } = await ensureDemoCredentials(file, `http://${host}:${port}`, app);
      console.log(demoInstructions(file, credentials, await demoDashboardLink(credentials, app)));
    }

    // In order: stop taking requests and finish the ones in flight, then the queue (then the pool and
    // Postgres, by runService).
    return {
      stopping: 'shutting down: finishing in-flight requests',
      stop: [() => app.close(), () => boss.stop({ graceful: true, timeout: 10_000 })],
    };
  },
});
