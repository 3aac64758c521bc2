// Test support: a fresh, migrated database per test file on the run's server (see global-setup), cloned
// from the template database the run migrated once (docs/decisions.md, "Testing: tests in tiers").
import { randomBytes } from 'node:crypto';

import pg from 'pg';
import type { DataSource } from 'typeorm';

import { openDatabase } from '../data-source.js';
import { startBoss } from '../queue.js';

export { TcpProxy } from './tcp-proxy.js';

export interface TestDatabase {
  readonly url: string;
  readonly dataSource: DataSource;
  /** Closes the data source and drops the database. */
  close(): Promise<void>;
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const serverUrl = process.env.SVC_TEST_PG_URL;
  const template = process.env.SVC_TEST_PG_TEMPLATE;
  if (!serverUrl || !template)
    throw new Error(
      'SVC_TEST_PG_URL or SVC_TEST_PG_TEMPLATE is not set: is the jest globalSetup of @svc/db/testing configured?',
    );
  const name = `test_${randomBytes(6).toString('hex')}`;
  // FILE_COPY copies the files after a checkpoint: with fsync off a checkpoint costs nothing, and the copy
  // takes a third of WAL_LOG's block-by-block logging. On a server of DATABASE_URL, whose checkpoints are
  // real, PostgreSQL's default.
  const strategy = process.env.SVC_TEST_PG_NO_FSYNC ? ' STRATEGY FILE_COPY' : '';
  await adminQuery(
    serverUrl,
    `CREATE DATABASE ${pg.escapeIdentifier(name)} TEMPLATE ${pg.escapeIdentifier(template)}${strategy}`,
  );
  const url = withDatabase(serverUrl, name);
  // The clone is migrated already: openDatabase checks and finds nothing to do (a few milliseconds).
  const dataSource = await openDatabase({ url, poolSize: 5 });
  return {
    url,
    dataSource,
    async close() {
      await dataSource.destroy();
      await adminQuery(serverUrl, `DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`);
    },
  };
}

/**
 * A new database on `serverUrl` with every migration applied and pg-boss's schema and queues made, closed
 * to connections: PostgreSQL copies a template only while no one is connected to it. Returns its name.
 */
export async function createTemplateDatabase(serverUrl: string): Promise<string> {
  const name = `test_template_${randomBytes(6).toString('hex')}`;
  await adminQuery(serverUrl, `CREATE DATABASE ${pg.escapeIdentifier(name)}`);
  const url = withDatabase(serverUrl, name);
  const dataSource = await openDatabase({ url, poolSize: 2 });
  await dataSource.destroy();
  const boss = await startBoss({ url, supervise: false, listen: false }, (error) => {
    throw error;
  });
  await boss.stop({ graceful: false });
  await adminQuery(
    serverUrl,
    `ALTER DATABASE ${pg.escapeIdentifier(name)} WITH IS_TEMPLATE true ALLOW_CONNECTIONS false`,
  );
  return name;
}

export async function dropTemplateDatabase(serverUrl: string, name: string): Promise<void> {
  await adminQuery(serverUrl, `ALTER DATABASE ${pg.escapeIdentifier(name)} WITH IS_TEMPLATE false`);
  await adminQuery(serverUrl, `DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)}`);
}

/** Schema changes the entities would still need after the migrations: empty when they agree. */
export async function pendingSchemaChanges(dataSource: DataSource): Promise<string[]> {
  const { upQueries } = await dataSource.driver.createSchemaBuilder().log();
  return upQueries.map((query) => query.query);
}

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

async function adminQuery(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
