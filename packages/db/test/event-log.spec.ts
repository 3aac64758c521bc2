import { randomUUID } from 'node:crypto';

import pg from 'pg';

import { eventsNotification, pruneEvents } from '../src/index.js';
import { createTestDatabase, type TestDatabase } from '../src/testing/index.js';

describe('the events table as a log', () => {
  let db: TestDatabase;
  let orgs: number[];

  beforeAll(async () => {
    db = await createTestDatabase();
    orgs = [];
    for (const name of ['a', 'b', 'c']) {
      const [org] = await db.dataSource.query<{ id: number }[]>(
        "INSERT INTO organisations (name, kyc_domain, plan, policy) VALUES ($1, 'x.test', 'STANDARD', '{}') RETURNING id",
        [name],
      );
      orgs.push(org!.id);
    }
  });
  afterAll(async () => {
    await db.close();
  });

  async function insert(client: pg.ClientBase, orgId: number, createdAt?: Date): Promise<string> {
    const id = randomUUID();
    await client.query(
      `INSERT INTO events (id, org_id, entity, data, created_at, updated_at)
       VALUES ($1, $2, 'Users', '{"n":1}', coalesce($3, now()), coalesce($3, now()))`,
      [id, orgId, createdAt ?? null],
    );
    return id;
  }

  async function connect(): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    return client;
  }

  it('records the writing transaction id and an increasing position on every row', async () => {
    const client = await connect();
    try {
      await client.query('BEGIN');
      const first = await insert(client, orgs[0]!);
      const second = await insert(client, orgs[1]!);
      const [{ txid }] = (await client.query<{ txid: string }>('SELECT pg_current_xact_id()::text AS txid'))
        .rows as [{ txid: string }];
      await client.query('COMMIT');
      const rows = await db.dataSource.query<{ id: string; txid: string; position: string }[]>(
        'SELECT id, txid, position FROM events WHERE id = ANY($1) ORDER BY position',
        [[first, second]],
      );
      expect(rows.map((row) => row.id)).toEqual([first, second]);
      expect(rows.map((row) => row.txid)).toEqual([txid, txid]);
      expect(BigInt(rows[1]!.position)).toBeGreaterThan(BigInt(rows[0]!.position));
    } finally {
      await client.end();
    }
  });

  it('names the organisations of a notification once each, or * when they would not fit in one', () => {
    expect(eventsNotification([3, 1, 3])).toBe('3,1');
    const many = Array.from({ length: 2000 }, (_, i) => 100_000 + i);
    expect(eventsNotification(many)).toBe('*');
    expect(eventsNotification(many.slice(0, 1000)).split(',')).toHaveLength(1000);
  });

  it('prunes events created before a time, with their attempts and failure records, a batch at a time', async () => {
    await db.dataSource.query('DELETE FROM events');
    const client = await connect();
    const day = 86_400_000;
    const old: string[] = [];
    const recent: string[] = [];
    try {
      for (let i = 0; i < 7; i++)
        old.push(await insert(client, orgs[i % 3]!, new Date(Date.now() - 40 * day)));
      for (let i = 0; i < 3; i++) recent.push(await insert(client, orgs[i % 3]!, new Date(Date.now() - day)));
      for (const id of [old[0], recent[0]]) {
        await client.query(
          `INSERT INTO webhook_attempts (event_id, org_id, url, num_retries, attempted_at, duration_ms, response, delivered)
           SELECT id, org_id, 'https://x.test/', 0, now(), 5, '', false FROM events WHERE id = $1`,
          [id],
        );
        await client.query(
          'INSERT INTO webhook_failures (event_id, org_id, failed_at) SELECT id, org_id, now() FROM events WHERE id = $1',
          [id],
        );
      }
    } finally {
      await client.end();
    }
    const before = new Date(Date.now() - 30 * day);

    const partial = await pruneEvents(db.dataSource, { before, batchSize: 2, budgetMs: 0 });
    expect(partial).toEqual({ deleted: 2, batches: 1, done: false });

    const rest = await pruneEvents(db.dataSource, { before, batchSize: 2 });
    expect(rest).toEqual({ deleted: 5, batches: 3, done: true });
    const left = await db.dataSource.query<{ id: string }[]>('SELECT id FROM events ORDER BY position');
    expect(left.map((row) => row.id)).toEqual(recent);
    const attempts = await db.dataSource.query<{ event_id: string }[]>(
      'SELECT event_id FROM webhook_attempts',
    );
    expect(attempts).toEqual([{ event_id: recent[0] }]);
    const failures = await db.dataSource.query<{ event_id: string }[]>(
      'SELECT event_id FROM webhook_failures',
    );
    expect(failures).toEqual([{ event_id: recent[0] }]);

    expect(await pruneEvents(db.dataSource, { before })).toEqual({ deleted: 0, batches: 1, done: true });
  });
});
