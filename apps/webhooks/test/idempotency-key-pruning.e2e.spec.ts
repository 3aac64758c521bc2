// The expired Idempotency-Keys: the worker schedules a pruning run every ten minutes (pg-boss runs each
// tick once, whatever the number of workers), and a run deletes the keys past their expiry, a batch at a
// time, leaving the live ones, a claimed one included.
import { QUEUES, pruneIdempotencyKeys } from '@svc/db';

import { UPKEEP_CRON } from '../src/scheduled-upkeep.js';
import { WorkerFixture } from './support/worker-fixture.js';

describe('idempotency key pruning', () => {
  let fixture: WorkerFixture;
  let orgId: number;

  beforeAll(async () => {
    fixture = await WorkerFixture.start();
    ({ orgId } = await fixture.createOrg('http://127.0.0.1:9/unused', 'whsec_pruning-secret'));
  });
  afterAll(async () => {
    await fixture.close();
  });

  /** A key expiring `expiresIn` from now (an interval), answered unless `claimed`. */
  const insert = (key: string, expiresIn: string, claimed = false) =>
    fixture.rows(
      `INSERT INTO idempotency_keys (org_id, key, method, target, body_sha256, locked_until, response_status,
                                     response_headers, response_body, expires_at)
       VALUES ($1, $2, 'POST', '/api/v1/user/', sha256(''::bytea), $3, $4, '{}', $5, now() + $6::interval)`,
      [
        orgId,
        key,
        claimed ? new Date(Date.now() + 60_000) : null,
        claimed ? null : 200,
        claimed ? null : Buffer.from('{}'),
        expiresIn,
      ],
    );
  const keys = async () =>
    (await fixture.rows<{ key: string }>('SELECT key FROM idempotency_keys ORDER BY key')).map(
      (row) => row.key,
    );

  it('schedules a pruning run every ten minutes', async () => {
    const schedules = await fixture.rows<{ name: string; cron: string }>(
      'SELECT name, cron FROM pgboss.schedule WHERE name = $1',
      [QUEUES.idempotencyKeyPruning],
    );
    expect(schedules).toEqual([{ name: QUEUES.idempotencyKeyPruning, cron: UPKEEP_CRON }]);
  });

  it('deletes the expired keys on a run of its job, and keeps the live ones', async () => {
    await insert('expired-a', '-1 day');
    await insert('expired-b', '-1 second');
    await insert('live', '23 hours');
    await insert('claimed', '1 day', true);

    await fixture.boss.send(QUEUES.idempotencyKeyPruning, {});
    await fixture.until(async () => !(await keys()).includes('expired-b'));
    expect(await keys()).toEqual(['claimed', 'live']);
  });

  it('works through a backlog in batches', async () => {
    await fixture.rows(
      `INSERT INTO idempotency_keys (org_id, key, method, target, body_sha256, expires_at)
       SELECT $1, 'old-' || n, 'POST', '/api/v1/user/', sha256(''::bytea), now() - interval '1 hour'
         FROM generate_series(1, 25) n`,
      [orgId],
    );
    expect(await pruneIdempotencyKeys(fixture.db.dataSource, { batchSize: 10 })).toEqual({
      deleted: 25,
      done: true,
    });
    expect(await keys()).toEqual(['claimed', 'live']);
  });
});
