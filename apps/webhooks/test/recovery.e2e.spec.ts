// Recovery, the worker's side: the job chooses the organisation's FAILED events since `since` and inside the
// window, each gets one manual attempt, and the recovery counts each outcome once. Recoveries are written
// here as the api writes them (row and job in one transaction); real receivers on loopback.
import { randomUUID } from 'node:crypto';

import { QUEUES, bossDb } from '@svc/db';
import { TestReceiver } from '@svc/webhook-sender/testing';

import { WorkerFixture, sleep } from './support/worker-fixture.js';

const SECRET = 'whsec_recovery-secret-000';
const HOUR = 3600 * 1000;

interface RecoveryRow {
  status: string;
  total: number;
  delivered: number;
  failed: number;
  started_at: Date | null;
  completed_at: Date | null;
}

describe('recovery', () => {
  let fixture: WorkerFixture;
  beforeAll(async () => {
    fixture = await WorkerFixture.start();
  });
  afterAll(() => fixture.close());

  /**
   * An event at its third retry, `ageMs` ago: failed for good, or another status; a PENDING one has its
   * next attempt later (with the events table as the queue it would be due at once otherwise).
   */
  const event = async (orgId: number, status: string, ageMs: number) => {
    const id = randomUUID();
    const at = new Date(Date.now() - ageMs);
    await fixture.rows(
      `INSERT INTO events (id, org_id, entity, data, status, num_retries, created_at, updated_at, next_attempt_at)
       VALUES ($1, $2, 'Users', '{"orgUserId":"u-1"}', $3, 3, $4, $4, now() + interval '1 hour')`,
      [id, orgId, status, at],
    );
    return id;
  };

  const startRecovery = async (orgId: number, since: Date) =>
    fixture.db.dataSource.transaction(async (manager) => {
      const [row] = await manager.query<{ id: string }[]>(
        'INSERT INTO webhook_recoveries (org_id, since) VALUES ($1, $2) RETURNING id',
        [orgId, since],
      );
      await fixture.boss.send(
        QUEUES.webhookRecovery,
        { recoveryId: row!.id },
        { db: bossDb(manager.queryRunner!) },
      );
      return row!.id;
    });

  const recovery = async (id: string) =>
    (
      await fixture.rows<RecoveryRow>(
        'SELECT status, total, delivered, failed, started_at, completed_at FROM webhook_recoveries WHERE id = $1',
        [id],
      )
    )[0];

  const completed = (id: string) =>
    fixture.until(async () => {
      const row = await recovery(id);
      return row?.status === 'COMPLETED' ? row : undefined;
    });

  const sentIds = (receiver: TestReceiver) => receiver.requests.map((r) => r.headers['svc-event-id']);

  it('redelivers each FAILED event since `since` and inside the window once, and counts the outcomes', async () => {
    const receiver = await TestReceiver.start(SECRET);
    try {
      const { orgId } = await fixture.createOrg(receiver.url('/recover'), SECRET);
      const other = await fixture.createOrg(receiver.url('/other'), SECRET);
      const chosen = [await event(orgId, 'FAILED', 2 * HOUR), await event(orgId, 'FAILED', HOUR)];
      const notChosen = [
        await event(orgId, 'FAILED', 4 * HOUR), // before `since`
        await event(orgId, 'DELIVERED', HOUR),
        await event(orgId, 'PENDING', HOUR),
        await event(other.orgId, 'FAILED', HOUR), // another organisation's
      ];
      const id = await startRecovery(orgId, new Date(Date.now() - 3 * HOUR));
      const done = await completed(id);
      expect(done).toMatchObject({ status: 'COMPLETED', total: 2, delivered: 2, failed: 0 });
      expect(done.completed_at).toBeInstanceOf(Date);
      expect(sentIds(receiver).sort()).toEqual([...chosen].sort());
      for (const eventId of chosen) {
        expect(await fixture.eventStatus(eventId)).toEqual({ status: 'DELIVERED', num_retries: 4 });
      }
      const bodies = receiver.requests.map((r) => JSON.parse(r.body) as { event: { numRetries: number } });
      expect(bodies.map((b) => b.event.numRetries)).toEqual([4, 4]);
      const manual = await fixture.rows<{ manual: boolean }>(
        'SELECT manual FROM webhook_attempts WHERE event_id = ANY($1::uuid[])',
        [chosen],
      );
      expect(manual).toEqual([{ manual: true }, { manual: true }]);
      for (const eventId of notChosen) expect(sentIds(receiver)).not.toContain(eventId);
      // The job again (pg-boss repeats a job whose worker died) chooses nothing more.
      await fixture.boss.send(QUEUES.webhookRecovery, { recoveryId: id });
      await sleep(1000);
      expect(receiver.requests).toHaveLength(2);
      expect(await recovery(id)).toMatchObject({ total: 2, delivered: 2 });
    } finally {
      await receiver.close();
    }
  });

  it('leaves out events past the delivery window, even when `since` is older', async () => {
    const receiver = await TestReceiver.start(SECRET);
    try {
      const { orgId } = await fixture.createOrg(receiver.url('/window'), SECRET);
      const old = await event(orgId, 'FAILED', 24 * HOUR + 60_000);
      const recent = await event(orgId, 'FAILED', 60_000);
      const done = await completed(await startRecovery(orgId, new Date(Date.now() - 25 * HOUR)));
      expect(done).toMatchObject({ total: 1, delivered: 1 });
      expect(sentIds(receiver)).toEqual([recent]);
      expect(await fixture.eventStatus(old)).toEqual({ status: 'FAILED', num_retries: 3 });
    } finally {
      await receiver.close();
    }
  });

  it('counts a failed attempt as failed, and the event stays FAILED; a manual attempt is not retried', async () => {
    const receiver = await TestReceiver.start(SECRET, (request) =>
      request.headers['svc-event-id'] === failing ? { status: 500 } : {},
    );
    let failing = '';
    try {
      const { orgId } = await fixture.createOrg(receiver.url('/half'), SECRET);
      failing = await event(orgId, 'FAILED', HOUR);
      const ok = await event(orgId, 'FAILED', HOUR);
      const done = await completed(await startRecovery(orgId, new Date(Date.now() - 2 * HOUR)));
      expect(done).toMatchObject({ total: 2, delivered: 1, failed: 1 });
      expect(await fixture.eventStatus(failing)).toEqual({ status: 'FAILED', num_retries: 4 });
      expect(await fixture.eventStatus(ok)).toEqual({ status: 'DELIVERED', num_retries: 4 });
      await sleep(500);
      expect(sentIds(receiver).filter((e) => e === failing)).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  });

  it('counts events it could not send (no ACTIVE endpoint) as failed, sending nothing', async () => {
    const { orgId } = await fixture.createOrg('', SECRET);
    await event(orgId, 'FAILED', HOUR);
    const done = await completed(await startRecovery(orgId, new Date(Date.now() - 2 * HOUR)));
    expect(done).toMatchObject({ total: 1, delivered: 0, failed: 1 });
  });

  it('completes at once when there is nothing to recover', async () => {
    const { orgId } = await fixture.createOrg('http://localhost:1/none', SECRET);
    const done = await completed(await startRecovery(orgId, new Date(Date.now() - HOUR)));
    expect(done).toMatchObject({ status: 'COMPLETED', total: 0, delivered: 0, failed: 0 });
    expect(done.started_at).toBeInstanceOf(Date);
  });

  it('counts an event once, leaving none of its attempts queued', async () => {
    const receiver = await TestReceiver.start(SECRET);
    try {
      const { orgId } = await fixture.createOrg(receiver.url('/dup'), SECRET);
      const eventId = await event(orgId, 'FAILED', HOUR);
      const id = await startRecovery(orgId, new Date(Date.now() - 2 * HOUR));
      await completed(id);
      await sleep(1000);
      expect(receiver.requests).toHaveLength(1);
      expect(receiver.requests[0]?.headers['svc-event-id']).toBe(eventId);
      expect(await recovery(id)).toMatchObject({ total: 1, delivered: 1, failed: 0 });
      expect(await fixture.rows('SELECT id FROM webhook_redeliveries WHERE recovery_id = $1', [id])).toEqual(
        [],
      );
    } finally {
      await receiver.close();
    }
  });
});
