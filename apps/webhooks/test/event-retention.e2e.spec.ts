// The event log's retention: the worker schedules a pruning run every ten minutes (pg-boss runs each tick
// once, whatever the number of workers), and a run deletes the events older than EVENT_RETENTION_DAYS with
// their attempts and failure records, leaving the others.
import { randomUUID } from 'node:crypto';

import { QUEUES } from '@svc/db';

import { UPKEEP_CRON } from '../src/scheduled-upkeep.js';
import { loadConfig } from '../src/config.js';
import { TEST_ENV, WorkerFixture } from './support/worker-fixture.js';

const DAY = 86_400_000;

describe('event retention', () => {
  let fixture: WorkerFixture;

  beforeAll(async () => {
    fixture = await WorkerFixture.start({ EVENT_RETENTION_DAYS: '3' });
  });
  afterAll(async () => {
    await fixture.close();
  });

  it('schedules a pruning run every ten minutes', async () => {
    const schedules = await fixture.rows<{ name: string; cron: string }>(
      'SELECT name, cron FROM pgboss.schedule WHERE name = $1',
      [QUEUES.eventRetention],
    );
    expect(schedules).toEqual([{ name: QUEUES.eventRetention, cron: UPKEEP_CRON }]);
  });

  it('deletes the events older than the retention, with their attempts and failures, and keeps the rest', async () => {
    const { orgId } = await fixture.createOrg('http://127.0.0.1:9/unused', 'whsec_retention-secret');
    const insert = async (daysAgo: number) => {
      const id = randomUUID();
      const at = new Date(Date.now() - daysAgo * DAY);
      await fixture.rows(
        `INSERT INTO events (id, org_id, entity, data, status, created_at, updated_at)
         VALUES ($1, $2, 'Users', '{}', 'FAILED', $3, $3)`,
        [id, orgId, at],
      );
      await fixture.rows(
        `INSERT INTO webhook_attempts (event_id, org_id, url, num_retries, attempted_at, duration_ms, response, delivered)
         VALUES ($1, $2, 'http://127.0.0.1:9/unused', 0, $3, 3, '', false)`,
        [id, orgId, at],
      );
      await fixture.rows('INSERT INTO webhook_failures (event_id, org_id, failed_at) VALUES ($1, $2, $3)', [
        id,
        orgId,
        at,
      ]);
      return id;
    };
    const old = [await insert(10), await insert(3.5)];
    const kept = [await insert(2.5), await insert(0)];

    await fixture.boss.send(QUEUES.eventRetention, {});
    await fixture.until(async () => {
      const [row] = await fixture.rows<{ n: number }>(
        'SELECT count(*)::int AS n FROM events WHERE id = ANY($1)',
        [old],
      );
      return row?.n === 0;
    });
    const left = await fixture.rows<{ id: string }>(
      'SELECT id FROM events WHERE org_id = $1 ORDER BY created_at',
      [orgId],
    );
    expect(left.map((row) => row.id)).toEqual(kept);
    for (const table of ['webhook_attempts', 'webhook_failures']) {
      const rows = await fixture.rows<{ event_id: string }>(
        `SELECT event_id FROM ${table} WHERE org_id = $1 ORDER BY event_id`,
        [orgId],
      );
      expect(rows.map((row) => row.event_id)).toEqual([...kept].sort());
    }
  });

  it('keeps events 30 days by default and refuses a retention shorter than the delivery window', () => {
    expect(loadConfig({ ...TEST_ENV }).eventRetentionMs).toBe(30 * DAY);
    expect(() => loadConfig({ ...TEST_ENV, EVENT_RETENTION_DAYS: '1' })).toThrow(
      /EVENT_RETENTION_DAYS: must not be less than 2/,
    );
  });
});
