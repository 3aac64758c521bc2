// The TypeORM data source of both services: explicit migrations, never synchronize (docs/decisions.md,
// "Testing: a real database and real HTTP").
import 'reflect-metadata';

import { DataSource } from 'typeorm';

import { ENTITIES } from './entities/index.js';
import { MIGRATIONS } from './migrations/index.js';

export interface DataSourceOptions {
  readonly url: string;
  /** Connections in the pool. Default 10. */
  readonly poolSize?: number;
  /** Application name shown in pg_stat_activity. */
  readonly applicationName?: string;
  /**
   * Errors of idle pooled connections (a server restart): the pool drops the connection and the next
   * query opens another. Default: TypeORM's warning on the console.
   */
  readonly onPoolError?: (error: Error) => void;
}

export function createDataSource(options: DataSourceOptions): DataSource {
  return new DataSource({
    type: 'postgres',
    url: options.url,
    entities: ENTITIES,
    migrations: MIGRATIONS,
    migrationsTransactionMode: 'each',
    synchronize: false,
    // gen_random_uuid() is built into PostgreSQL >= 13; uuid-ossp would need an extension.
    uuidExtension: 'pgcrypto',
    logging: false,
    poolSize: options.poolSize ?? 10,
    applicationName: options.applicationName ?? 'svc',
    ...(options.onPoolError ? { poolErrorHandler: options.onPoolError } : {}),
    // Generous: a loaded 2-core machine can take seconds to hand out a connection; a dead server is
    // still reported (503) well before a client gives up.
    extra: { connectionTimeoutMillis: 15_000 },
  });
}

/** Key of the advisory lock held while migrating. */
const MIGRATION_LOCK = 1795_000_001;

/** Opens the data source and brings the schema up to date. */
export async function openDatabase(options: DataSourceOptions): Promise<DataSource> {
  const dataSource = createDataSource(options);
  await dataSource.initialize();
  // The api and the worker may start together: one migrates while the other waits, then finds nothing to do.
  const lock = dataSource.createQueryRunner();
  try {
    await lock.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await dataSource.runMigrations({ transaction: 'each' });
  } finally {
    await lock.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
    await lock.release();
  }
  return dataSource;
}
