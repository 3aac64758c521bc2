import type { Pool, PoolClient } from 'pg';
import { PgBoss } from 'pg-boss';

import { bossDb, QUEUES, query, startBoss, transaction } from '../src/index.js';
import { createTestDatabase, type TestDatabase } from '../src/testing/index.js';

describe('sql.ts: statements and transactions over the data source pool', () => {
  let db: TestDatabase;
  let boss: PgBoss;
  let pool: Pool;
  beforeAll(async () => {
    db = await createTestDatabase();
    boss = await startBoss({ url: db.url, supervise: false }, (error) => {
      throw error;
    });
    pool = (db.dataSource.driver as unknown as { master: Pool }).master;
    await db.dataSource.query('CREATE TABLE sql_spec (n int PRIMARY KEY)');
  });
  afterAll(async () => {
    await boss.stop({ graceful: false });
    await db.close();
  });
  beforeEach(() => db.dataSource.query('DELETE FROM sql_spec'));

  const stored = async () =>
    (await query<{ n: number }>(db.dataSource, 'SELECT n FROM sql_spec ORDER BY n')).map((row) => row.n);
  const jobs = async (key: string) =>
    (
      await query<{ n: number }>(
        db.dataSource,
        'SELECT count(*)::int AS n FROM pgboss.job WHERE name = $1 AND singleton_key = $2',
        [QUEUES.webhookRecovery, key],
      )
    )[0]!.n;

  it('query answers the rows on every target, plain and prepared: data source, manager, runner, connection', async () => {
    const plain = 'SELECT $1::int + 1 AS n';
    const prepared = { name: 'sql_spec_plus_one', text: plain };
    const answers: unknown[] = [];
    const ask = async (on: Parameters<typeof query>[0]) => {
      for (const statement of [plain, prepared]) answers.push(await query<{ n: number }>(on, statement, [1]));
    };
    await ask(db.dataSource);
    await ask(db.dataSource.manager);
    await transaction(db.dataSource, async (manager) => {
      await ask(manager);
      await ask(manager.queryRunner!);
      await ask((await manager.queryRunner!.connect()) as PoolClient);
    });
    expect(answers).toEqual(Array.from({ length: 10 }, () => [{ n: 2 }]));
  });

  it('transaction: one connection, committed with a job sent through bossDb, and given back to the pool', async () => {
    const answer = await transaction(db.dataSource, async (manager) => {
      await query(manager, 'INSERT INTO sql_spec VALUES (1)');
      const [row] = await query<{ inside: boolean }>(manager, 'SELECT count(*) = 1 AS inside FROM sql_spec');
      await boss.send(
        QUEUES.webhookRecovery,
        { recoveryId: 'r-1' },
        { singletonKey: 'commit', db: bossDb(manager) },
      );
      return row!.inside;
    });
    expect(answer).toBe(true);
    expect(await stored()).toEqual([1]);
    expect(await jobs('commit')).toBe(1);
    // Every connection back in the pool.
    expect(pool.totalCount - pool.idleCount).toBe(0);
  });

  it('transaction: rolled back, job and row alike, when the work throws; the error reaches the caller', async () => {
    const failure = transaction(db.dataSource, async (manager) => {
      await query(manager, 'INSERT INTO sql_spec VALUES (2)');
      await boss.send(
        QUEUES.webhookRecovery,
        { recoveryId: 'r-2' },
        { singletonKey: 'rollback', db: bossDb(manager) },
      );
      throw new Error('the batch failed');
    });
    await expect(failure).rejects.toThrow('the batch failed');
    expect(await stored()).toEqual([]);
    expect(await jobs('rollback')).toBe(0);
    expect(pool.totalCount - pool.idleCount).toBe(0);
  });

  it('transaction: a connection lost inside is dropped from the pool, and the next transaction works', async () => {
    let lostPid: number | undefined;
    const failure = transaction(db.dataSource, async (manager) => {
      lostPid = (await query<{ pid: number }>(manager, 'SELECT pg_backend_pid() AS pid'))[0]!.pid;
      await query(db.dataSource, 'SELECT pg_terminate_backend($1)', [lostPid]);
      await query(manager, 'INSERT INTO sql_spec VALUES (3)');
    });
    await expect(failure).rejects.toThrow();
    await transaction(db.dataSource, (manager) => query(manager, 'INSERT INTO sql_spec VALUES (4)'));
    expect(await stored()).toEqual([4]);
    const pids = await Promise.all(
      Array.from({ length: pool.totalCount }, () =>
        transaction(db.dataSource, async (manager) => {
          const [row] = await query<{ pid: number }>(manager, 'SELECT pg_backend_pid() AS pid');
          return row!.pid;
        }),
      ),
    );
    expect(pids).not.toContain(lostPid);
  });

  it('transaction: its manager sees a transaction, a nested one is a savepoint, and a throw rolls back', async () => {
    await transaction(db.dataSource, async (manager) => {
      expect(manager.queryRunner?.isTransactionActive).toBe(true);
      await query(manager, 'INSERT INTO sql_spec VALUES (5)');
      await expect(
        manager.transaction(async (inner) => {
          await inner.query('INSERT INTO sql_spec VALUES (6)');
          throw new Error('only the savepoint');
        }),
      ).rejects.toThrow('only the savepoint');
    });
    expect(await stored()).toEqual([5]);
    await expect(
      transaction(db.dataSource, async (manager) => {
        await query(manager, 'INSERT INTO sql_spec VALUES (7)');
        throw new Error('all of it');
      }),
    ).rejects.toThrow('all of it');
    expect(await stored()).toEqual([5]);
  });
});
