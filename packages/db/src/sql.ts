// SQL as the worker writes it: one query helper (a plain or a prepared statement, rows typed) and one
// transaction helper, over TypeORM's pool. The pg connection comes from QueryRunner.connect(), which
// hands out the driver's connection; this file is the one place that relies on it.
import type { PoolClient } from 'pg';
import type { DataSource, QueryRunner } from 'typeorm';

/**
 * A statement with a `name` is prepared once per connection: worth it where PostgreSQL takes longer to
 * plan it than to run it.
 */
export interface Statement {
  readonly text: string;
  readonly name?: string;
}

/**
 * Runs `statement` and returns its rows: on the runner's connection (in its transaction, if any), or on
 * a connection of the data source's pool taken for this statement alone.
 */
export async function query<T = unknown>(
  on: DataSource | QueryRunner,
  statement: string | Statement,
  values: readonly unknown[] = [],
): Promise<T[]> {
  const runner = 'createQueryRunner' in on ? on.createQueryRunner() : on;
  try {
    const client = (await runner.connect()) as PoolClient;
    const text = typeof statement === 'string' ? { text: statement } : statement;
    const result = await client.query({ ...text, values: [...values] });
    return result.rows as T[];
  } finally {
    if (runner !== on) await runner.release();
  }
}

/** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
export async function transaction<T>(
  dataSource: DataSource,
  work: (runner: QueryRunner) => Promise<T>,
): Promise<T> {
  const runner = dataSource.createQueryRunner();
  try {
    await runner.startTransaction();
    const result = await work(runner);
    await runner.commitTransaction();
    return result;
  } catch (error) {
    if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
    throw error;
  } finally {
    await runner.release();
  }
}
