import { QUEUES, bossDb, openDatabase, startBoss } from '../src/index.js';
import { MIGRATIONS } from '../src/migrations/index.js';
import { createTestDatabase, pendingSchemaChanges, type TestDatabase } from '../src/testing/index.js';
import type { PgBoss } from 'pg-boss';

describe('schema', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db.close();
  });

  it('has migrations that match the entities (generating a migration yields nothing)', async () => {
    expect(await pendingSchemaChanges(db.dataSource)).toEqual([]);
  });

  it('is UTF-8 whatever the environment', async () => {
    const [row] = await db.dataSource.query<{ server_encoding: string }[]>('SHOW server_encoding');
    expect(row?.server_encoding).toBe('UTF8');
  });

  it('migrates down to nothing and up again', async () => {
    for (let n = MIGRATIONS.length; n > 0; n--)
      await db.dataSource.undoLastMigration({ transaction: 'each' });
    const tables = await db.dataSource.query<{ n: number }[]>(
      "SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = 'public' AND table_name <> 'migrations'",
    );
    expect(tables[0]?.n).toBe(0);
    await db.dataSource.runMigrations({ transaction: 'each' });
    expect(await pendingSchemaChanges(db.dataSource)).toEqual([]);
  });

  it('copies KYC decisions made before kyc_reviews from the audit log into it, once', async () => {
    // Undo down to (and including) KycReviews, whatever came after it.
    const at = MIGRATIONS.findIndex((migration) => new migration().name === 'KycReviews1795400000000');
    expect(at).toBeGreaterThan(0);
    for (let n = MIGRATIONS.length; n > at; n--)
      await db.dataSource.undoLastMigration({ transaction: 'each' });
    const [org] = await db.dataSource.query<{ id: number }[]>(
      "INSERT INTO organisations (name, kyc_domain, plan, policy) VALUES ('k', 'k.test', 'STANDARD', '{}') RETURNING id",
    );
    const [user] = await db.dataSource.query<{ id: string }[]>(
      "INSERT INTO users (org_id, org_user_id, kyc, tnc, user_status) VALUES ($1, 'k-1', false, true, 'PENDING') RETURNING id",
      [org?.id],
    );
    const eventId = '0b6f2a55-3a3e-4c6b-9a5e-6d2f1c1e9a01';
    await db.dataSource.query(
      `INSERT INTO audit_log (actor, action, org_id, details) VALUES
         ('dave', 'kyc.reject', $1, jsonb_build_object('orgUserId', 'k-1', 'eventType', 'KYC_REJECTED', 'eventId', $2::text, 'reason', 'Blurred')),
         ('dave', 'org.update', $1, '{}')`,
      [org?.id, eventId],
    );
    await db.dataSource.runMigrations({ transaction: 'each' });
    const reviews = await db.dataSource.query<unknown[]>(
      'SELECT org_id, user_id, event_type, message, reviewer, event_id FROM kyc_reviews',
    );
    expect(reviews).toEqual([
      {
        org_id: org?.id,
        user_id: user?.id,
        event_type: 'KYC_REJECTED',
        message: 'Blurred',
        reviewer: 'dave',
        event_id: eventId,
      },
    ]);
  });

  it('refuses a second user with the same orgUserId in one organisation, and allows it in another', async () => {
    const [a] = await db.dataSource.query<{ id: number }[]>(
      "INSERT INTO organisations (name, kyc_domain, plan, policy) VALUES ('a', 'a.test', 'STANDARD', '{}') RETURNING id",
    );
    const [b] = await db.dataSource.query<{ id: number }[]>(
      "INSERT INTO organisations (name, kyc_domain, plan, policy) VALUES ('b', 'b.test', 'STANDARD', '{}') RETURNING id",
    );
    const insert = (orgId: number | undefined) =>
      db.dataSource.query(
        "INSERT INTO users (org_id, org_user_id, kyc, tnc, user_status) VALUES ($1, 'u-1', false, true, 'PENDING')",
        [orgId],
      );
    await insert(a?.id);
    await insert(b?.id);
    await expect(insert(a?.id)).rejects.toThrow(/users_org_user/);
  });
});

describe('queue jobs in the transaction of the change (docs/decisions.md, "Webhooks: one queue for every attempt")', () => {
  let db: TestDatabase;
  let boss: PgBoss;
  beforeAll(async () => {
    db = await createTestDatabase();
    boss = await startBoss({ url: db.url, supervise: false }, (error) => {
      throw error;
    });
  });
  afterAll(async () => {
    await boss.stop({ graceful: false });
    await db.close();
  });

  const jobCount = async () => {
    const rows = await db.dataSource.query<{ n: number }[]>(
      'SELECT count(*)::int AS n FROM pgboss.job WHERE name = $1',
      [QUEUES.webhookRecovery],
    );
    return rows[0]?.n;
  };

  it('commits the job with the transaction', async () => {
    const before = await jobCount();
    await db.dataSource.transaction(async (manager) => {
      await boss.send(QUEUES.webhookRecovery, { recoveryId: 'r-1' }, { db: bossDb(manager.queryRunner!) });
    });
    expect(await jobCount()).toBe((before ?? 0) + 1);
  });

  it('drops the job when the transaction rolls back', async () => {
    const before = await jobCount();
    await expect(
      db.dataSource.transaction(async (manager) => {
        await boss.send(QUEUES.webhookRecovery, { recoveryId: 'r-2' }, { db: bossDb(manager.queryRunner!) });
        throw new Error('the business write failed');
      }),
    ).rejects.toThrow('the business write failed');
    expect(await jobCount()).toBe(before);
  });
});

describe('migrations started by two processes at once', () => {
  it('run once: the second opener waits for the first and finds nothing to do', async () => {
    const db = await createTestDatabase();
    try {
      await db.dataSource.query('DROP SCHEMA public CASCADE; CREATE SCHEMA public');
      const [a, b] = await Promise.all([openDatabase({ url: db.url }), openDatabase({ url: db.url })]);
      const applied = await a.query<{ n: number }[]>('SELECT count(*)::int AS n FROM migrations');
      expect(applied[0]?.n).toBe(MIGRATIONS.length);
      expect(await pendingSchemaChanges(b)).toEqual([]);
      await Promise.all([a.destroy(), b.destroy()]);
    } finally {
      await db.close();
    }
  });
});
