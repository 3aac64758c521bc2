// The statements that move a batch's events on find each event by its primary key, whatever the statistics
// say. Taken when few events were pending (as in a quiet system), the statistics let the planner prefer the
// partial index events_due for any statement that also asks for status = 'PENDING': every PENDING event
// read for each batch, exactly when a backlog makes that dearest. The plans are PostgreSQL's generic ones,
// which a prepared statement settles on.
import { randomUUID } from 'node:crypto';

import type { Statement } from '@svc/db';
import type { QueryRunner } from 'typeorm';

import {
  MARK_FAILED,
  MARK_SKIPPED,
  PUT_BACK,
  RECORD_ATTEMPTS,
  SCHEDULE_RETRIES,
} from '../src/delivery-rows.js';
import { WorkerFixture } from './support/worker-fixture.js';

const BACKLOG = 5000;

let fixture: WorkerFixture;
let runner: QueryRunner;
let pendingIds: string[];
let orgId: number;
/** The name of the events table's primary key index (TypeORM's generated one). */
let primaryKey: string;

beforeAll(async () => {
  fixture = await WorkerFixture.start({}, { worker: false });
  ({ orgId } = await fixture.createOrg('', 'whsec_queue-plans'));
  const insert = (count: number, status: string) =>
    fixture.rows<{ id: string }>(
      `INSERT INTO events (id, org_id, entity, data, status)
       SELECT gen_random_uuid(), $1, 'Users', '{}', $3 FROM generate_series(1, $2) RETURNING id`,
      [orgId, count, status],
    );
  await insert(20_000, 'DELIVERED');
  await fixture.rows('ANALYZE events');
  // The backlog arrives after the statistics were taken, as it does between two autovacuum runs.
  pendingIds = (await insert(BACKLOG, 'PENDING')).map((row) => row.id);
  const [key] = await fixture.rows<{ name: string }>(
    `SELECT conname AS name FROM pg_constraint WHERE conrelid = 'events'::regclass AND contype = 'p'`,
  );
  primaryKey = key!.name;
  runner = fixture.db.dataSource.createQueryRunner();
  await runner.query('SET plan_cache_mode = force_generic_plan');
}, 60_000);

afterAll(async () => {
  await runner.release();
  await fixture.close();
});

const textOf = (statement: Statement | string) =>
  typeof statement === 'string' ? statement : statement.text;

/** The statement's plan, run (in a transaction rolled back) with `values` for its parameters. */
async function plan(statement: Statement | string, values: unknown[]): Promise<string> {
  const name = `plan_${randomUUID().replaceAll('-', '')}`;
  await runner.startTransaction();
  try {
    await runner.query(`PREPARE ${name} AS ${textOf(statement)}`);
    const literals = values.map(
      (value) => `'${JSON.stringify(value).replace(/^\[/, '{').replace(/\]$/, '}')}'`,
    );
    const rows = (await runner.query(
      `EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) EXECUTE ${name}(${literals.join(', ')})`,
    )) as { 'QUERY PLAN': string }[];
    return rows.map((row) => row['QUERY PLAN']).join('\n');
  } finally {
    await runner.rollbackTransaction();
  }
}

describe('with statistics taken before a backlog of PENDING events', () => {
  const ids = () => pendingIds.slice(0, 100);
  const at = () => ids().map(() => new Date().toISOString());
  const zeros = () => ids().map(() => 0);

  it('the backlog is there and the statistics do not know it', async () => {
    const [row] = await fixture.rows<{ pending: number }>(
      `SELECT count(*)::int AS pending FROM events WHERE status = 'PENDING'`,
    );
    expect(row?.pending).toBe(BACKLOG);
    const generic = await plan(`SELECT id FROM events WHERE status = 'PENDING' AND id = ANY($1::uuid[])`, [
      ids(),
    ]);
    // The trap itself: asked for PENDING events by id, the planner walks the partial index.
    expect(generic).toContain('events_due');
  });

  it.each([
    ['RECORD_ATTEMPTS', RECORD_ATTEMPTS, () => [...recordValues(ids())]],
    ['PUT_BACK', PUT_BACK, () => [ids(), at()]],
    ['SCHEDULE_RETRIES', SCHEDULE_RETRIES, () => [ids(), zeros(), at()]],
    ['MARK_SKIPPED', MARK_SKIPPED, () => [ids()]],
    ['MARK_FAILED', MARK_FAILED, () => [ids(), zeros()]],
  ] as const)('%s finds the events by their primary key', async (_name, statement, values) => {
    const text = await plan(statement, values());
    // An index scan or a bitmap one, on the primary key.
    expect(text).toMatch(new RegExp(`Index Scan (using|on) "${primaryKey}"`));
    expect(text).not.toContain('events_due');
    // Each of the 100 events read once, not the 5,000 of the backlog.
    expect(text).not.toMatch(/Rows Removed by Filter: \d{3,}/);
  });
});

/** RECORD_ATTEMPTS's thirteen columns for `ids` delivered at once. */
function recordValues(ids: string[]): unknown[] {
  const each = <T>(value: T) => ids.map(() => value);
  return [
    ids,
    each(orgId),
    each('https://example.com/hook'),
    each(0),
    each(false),
    each(new Date().toISOString()),
    each(3),
    each(200),
    each(null),
    each(''),
    each(true),
    each(new Date().toISOString()),
    ids,
  ];
}
