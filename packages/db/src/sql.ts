// SQL as the worker and the api's hot paths write it, and the one transaction helper of both services: one
// query helper (a plain or a prepared statement, rows typed) and `transaction`, which opens every write
// transaction on a query runner and gives its EntityManager, for TypeORM and `query` alike.
// The pg connection comes from QueryRunner.connect(), which hands out the driver's connection, the pool
// from the driver (`master`), and `transaction` sets a runner's transaction state; this file is the one
// place that relies on them.
import type { Pool, PoolClient } from 'pg';
import type { DataSource, EntityManager, QueryRunner } from 'typeorm';

/**
 * A statement with a `name` is prepared once per connection: worth it where PostgreSQL takes longer to
 * plan it than to run it.
 */
export interface Statement {
  readonly text: string;
  readonly name?: string;
}

/**
 * Where a statement runs: a data source (a pool connection taken for that statement alone), a query runner
 * or EntityManager (its connection, in its transaction if any: the manager `transaction` gave), or a pg
 * connection.
 */
export type SqlTarget = DataSource | QueryRunner | EntityManager | PoolClient;

/**
 * Runs `statement` and returns its rows: on the connection `on` holds (in its transaction, if any), or on a
 * connection of the data source's pool taken for this statement alone (from the pool itself: a query
 * runner, with its EntityManager, made and released for one statement costs more than the statement).
 * An EntityManager stands for its runner, or for its data source when it has none.
 */
export async function query<T = unknown>(
  on: SqlTarget,
  statement: string | Statement,
  values: readonly unknown[] = [],
): Promise<T[]> {
  if ('createQueryRunner' in on) return withConnection(on, (client) => rowsOf<T>(client, statement, values));
  // An EntityManager (it has repositories): its runner's connection, or its data source's pool.
  if ('getRepository' in on) return query<T>(on.queryRunner ?? on.dataSource, statement, values);
  // A query runner has a manager; a pg connection does not.
  const client = 'manager' in on ? ((await on.connect()) as PoolClient) : on;
  return rowsOf<T>(client, statement, values);
}

async function rowsOf<T>(client: PoolClient, statement: string | Statement, values: readonly unknown[]) {
  return (await send(client, statement, values)).rows as T[];
}

/**
 * `use` given a connection of the data source's pool, released when it settles. As TypeORM's runner does:
 * a connection lost while taken emits 'error' (unheard, it would end the process), and goes back to the
 * pool with it, so that the pool drops it.
 */
async function withConnection<T>(
  dataSource: DataSource,
  use: (client: PoolClient) => Promise<T>,
): Promise<T> {
  const client = await poolOf(dataSource).connect();
  let lost: Error | undefined;
  const onError = (error: Error) => (lost = error);
  client.on('error', onError);
  try {
    return await use(client);
  } finally {
    client.removeListener('error', onError);
    client.release(lost);
  }
}

/**
 * The statement on `client`: a plain one as text and values, which pg takes as they are (a config object it
 * copies property by property, descriptors and all, before every statement); pg reads the values only. For
 * the signed routes' CPU target (docs/decisions.md, "Request path: SQL on the hot tables").
 */
function send(client: PoolClient, statement: string | Statement, values: readonly unknown[]) {
  if (typeof statement === 'string') return client.query(statement, values as unknown[]);
  return client.query({ text: statement.text, name: statement.name, values: values as unknown[] });
}

/** The pg pool TypeORM's PostgreSQL driver keeps (`master`: no replication is configured). */
function poolOf(dataSource: DataSource): Pool {
  return (dataSource.driver as unknown as { master: Pool }).master;
}

/**
 * The one way a write transaction is opened, in the api and the worker: `work` runs in one transaction on
 * a query runner of the data source and is given the runner's EntityManager (as `dataSource.transaction`
 * gives one); committed when it resolves, rolled back when it throws, and the error reaches the caller.
 * Code that sends only SQL passes the manager to `query` (and pg-boss to `bossDb`): its statements go on
 * the runner's pg connection, past TypeORM's query wrapper; code that needs TypeORM uses the manager.
 *
 * BEGIN, COMMIT and ROLLBACK go on the runner's pg connection: TypeORM's own transaction sends them
 * through its query wrapper and broadcasts four events to its subscribers on the way, dear on the routes
 * that write one row and its event and on the worker's one-event batches. The runner is marked as in a
 * transaction (`isTransactionActive`, depth 1) as TypeORM's own would be, so that code given its manager
 * sees a transaction and a nested `manager.transaction` becomes a savepoint. A connection lost inside goes
 * back to the pool with its error (TypeORM's runner listens for it), so that the pool drops it.
 */
export async function transaction<T>(
  dataSource: DataSource,
  work: (manager: EntityManager) => Promise<T>,
): Promise<T> {
  const runner = dataSource.createQueryRunner();
  const state = runner as unknown as { isTransactionActive: boolean; transactionDepth: number };
  try {
    const client = (await runner.connect()) as PoolClient;
    return await inTransaction(client, async () => {
      state.isTransactionActive = true;
      state.transactionDepth = 1;
      try {
        return await work(runner.manager);
      } finally {
        state.isTransactionActive = false;
        state.transactionDepth = 0;
      }
    });
  } finally {
    await runner.release();
  }
}

/** BEGIN, `work`, then COMMIT, or ROLLBACK when it throws, on `client`. */
async function inTransaction<T>(client: PoolClient, work: () => Promise<T>): Promise<T> {
  await client.query('BEGIN');
  try {
    const result = await work();
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
