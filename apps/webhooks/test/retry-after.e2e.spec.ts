// Receivers that ask for time: a 429 or 503 with Retry-After pauses that endpoint (every event of it, no
// other endpoint), within the delivery window and the retry count; real receivers on loopback.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { TestReceiver, type Answer } from '@svc/webhook-sender/testing';

import { WorkerFixture } from './support/worker-fixture.js';

const SECRET = 'whsec_retry-after-secret';

interface AttemptRow {
  num_retries: number;
  status_code: number | null;
  manual: boolean;
  attempted_at: Date;
}

const attempts = (fixture: WorkerFixture, eventId: string) =>
  fixture.rows<AttemptRow>(
    'SELECT num_retries, status_code, manual, attempted_at FROM webhook_attempts WHERE event_id = $1 ORDER BY id',
    [eventId],
  );

const numRetriesOf = (receiver: TestReceiver, eventId: string) =>
  receiver.requests
    .filter((r) => r.headers['svc-event-id'] === eventId)
    .map((r) => (JSON.parse(r.body) as { event: { numRetries: number } }).event.numRetries);

/** A receiver that answers the first `times` requests with `first`, then 200. */
async function askingReceiver(first: Answer, times = 1): Promise<TestReceiver> {
  let left = times;
  return TestReceiver.start(SECRET, () => (left-- > 0 ? first : {}));
}

describe('Retry-After (retries after 50, 100, 150 ms otherwise)', () => {
  let fixture: WorkerFixture;
  beforeAll(async () => {
    fixture = await WorkerFixture.start({ WEBHOOK_RETRY_JITTER: '0' });
  });
  afterAll(() => fixture.close());

  it('a 429 with Retry-After in seconds pauses the whole endpoint until then, and no other endpoint', async () => {
    const asking = await askingReceiver({ status: 429, headers: { 'retry-after': '2' } });
    const other = await TestReceiver.start(SECRET);
    try {
      const { orgId } = await fixture.createOrg(asking.url('/busy'), SECRET);
      const elsewhere = await fixture.createOrg(other.url('/calm'), SECRET);
      const first = await fixture.enqueueEvent(orgId);
      await asking.waitForRequests(1);
      const refusedAt = asking.requests[0]!.receivedAt;
      // Both the endpoint row and the next attempt wait for the 2 s the receiver asked for.
      const [endpoint] = await fixture.until(async () => {
        const rows = await fixture.rows<{ paused_until: Date | null }>(
          'SELECT paused_until FROM webhook_endpoints WHERE org_id = $1',
          [orgId],
        );
        return rows[0]?.paused_until ? rows : undefined;
      });
      expect(endpoint!.paused_until!.getTime()).toBeGreaterThanOrEqual(refusedAt + 1900);
      expect(endpoint!.paused_until!.getTime()).toBeLessThan(refusedAt + 2500);
      const second = await fixture.enqueueEvent(orgId);
      const unrelated = await fixture.enqueueEvent(elsewhere.orgId);
      await fixture.waitForStatus(unrelated, 'DELIVERED');
      expect(Date.now() - refusedAt).toBeLessThan(1900);
      await fixture.waitForStatus(first, 'DELIVERED');
      await fixture.waitForStatus(second, 'DELIVERED');
      const firstLog = await attempts(fixture, first);
      expect(firstLog.map((a) => [a.num_retries, a.status_code])).toEqual([
        [0, 429],
        [1, 200],
      ]);
      expect(firstLog[1]!.attempted_at.getTime() - refusedAt).toBeGreaterThanOrEqual(1950);
      // The event that came during the pause was held, not attempted: its first attempt is its only one.
      const secondLog = await attempts(fixture, second);
      expect(secondLog.map((a) => [a.num_retries, a.status_code])).toEqual([[0, 200]]);
      expect(secondLog[0]!.attempted_at.getTime() - refusedAt).toBeGreaterThanOrEqual(1950);
      expect(numRetriesOf(asking, second)).toEqual([0]);
    } finally {
      await asking.close();
      await other.close();
    }
  }, 20_000);

  it('a 503 with Retry-After as an HTTP-date waits until that date', async () => {
    const at = new Date(Math.ceil((Date.now() + 2000) / 1000) * 1000);
    const asking = await askingReceiver({ status: 503, headers: { 'retry-after': at.toUTCString() } });
    try {
      const { orgId } = await fixture.createOrg(asking.url('/maintenance'), SECRET);
      const id = await fixture.enqueueEvent(orgId);
      await fixture.waitForStatus(id, 'DELIVERED');
      const log = await attempts(fixture, id);
      expect(log.map((a) => a.status_code)).toEqual([503, 200]);
      expect(log[1]!.attempted_at.getTime()).toBeGreaterThanOrEqual(at.getTime());
    } finally {
      await asking.close();
    }
  }, 20_000);

  it('ignores Retry-After on other answers (a 500 is retried after the backoff)', async () => {
    const failing = await askingReceiver({ status: 500, headers: { 'retry-after': '30' } });
    try {
      const { orgId } = await fixture.createOrg(failing.url('/broken'), SECRET);
      const id = await fixture.enqueueEvent(orgId);
      await fixture.waitForStatus(id, 'DELIVERED', 5000);
      const [endpoint] = await fixture.rows<{ paused_until: Date | null }>(
        'SELECT paused_until FROM webhook_endpoints WHERE org_id = $1',
        [orgId],
      );
      expect(endpoint?.paused_until).toBeNull();
    } finally {
      await failing.close();
    }
  });

  it('keeps the retry count: a receiver that always asks for 1 s gets retries 1, 2, 3, a second apart, then FAILED', async () => {
    const asking = await TestReceiver.start(SECRET, () => ({ status: 429, headers: { 'retry-after': '1' } }));
    try {
      const { orgId } = await fixture.createOrg(asking.url('/always'), SECRET);
      const id = await fixture.enqueueEvent(orgId);
      await fixture.waitForStatus(id, 'FAILED', 15_000);
      expect(numRetriesOf(asking, id)).toEqual([0, 1, 2, 3]);
      const times = asking.requests.map((r) => r.receivedAt);
      for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(950);
    } finally {
      await asking.close();
    }
  }, 20_000);

  it('holds a manual redelivery until the pause ends, and counts it as a redelivery (numRetries 4)', async () => {
    let answer: Answer = { status: 500 };
    const receiver = await TestReceiver.start(SECRET, () => answer);
    try {
      const { orgId } = await fixture.createOrg(receiver.url('/manual'), SECRET);
      const id = await fixture.enqueueEvent(orgId);
      await fixture.waitForStatus(id, 'FAILED');
      answer = { status: 200 };
      await fixture.rows(
        "UPDATE webhook_endpoints SET paused_until = now() + interval '1500 milliseconds' WHERE org_id = $1",
        [orgId],
      );
      const askedAt = Date.now();
      await fixture.redeliver(id);
      await fixture.waitForStatus(id, 'DELIVERED');
      expect(Date.now() - askedAt).toBeGreaterThanOrEqual(1400);
      expect(numRetriesOf(receiver, id)).toEqual([0, 1, 2, 3, 4]);
      expect((await attempts(fixture, id)).at(-1)).toMatchObject({ num_retries: 4, manual: true });
      expect(await fixture.eventStatus(id)).toEqual({ status: 'DELIVERED', num_retries: 4 });
    } finally {
      await receiver.close();
    }
  });
});

describe('Retry-After against the 24-hour window (configured as 3 s) and the cap', () => {
  let fixture: WorkerFixture;
  // The failed events' e-mails go to an outbox of the test's own, removed with it.
  let outbox: string;
  beforeAll(async () => {
    outbox = mkdtempSync(join(tmpdir(), 'svc-outbox-'));
    fixture = await WorkerFixture.start({
      WEBHOOK_WINDOW_MS: '3000',
      WEBHOOK_RETRY_DELAYS_MS: '1000,1000,1000',
      WEBHOOK_RETRY_JITTER: '0',
      OUTBOX_DIR: outbox,
    });
  });
  afterAll(async () => {
    await fixture.close();
    rmSync(outbox, { recursive: true, force: true });
  });

  it('a Retry-After past the window fails the event at once, without waiting for the window', async () => {
    const asking = await askingReceiver({ status: 429, headers: { 'retry-after': '3600' } });
    try {
      const { orgId } = await fixture.createOrg(asking.url('/later'), SECRET);
      const started = Date.now();
      const id = await fixture.enqueueEvent(orgId);
      await fixture.waitForStatus(id, 'FAILED');
      expect(Date.now() - started).toBeLessThan(2000);
      expect(await attempts(fixture, id)).toHaveLength(1);
      const [failure] = await fixture.rows('SELECT 1 FROM webhook_failures WHERE event_id = $1', [id]);
      expect(failure).toBeDefined();
    } finally {
      await asking.close();
    }
  });

  it('cuts an absurd Retry-After to the window: an event that came later is delivered when the pause ends', async () => {
    const asking = await askingReceiver({ status: 503, headers: { 'retry-after': '9'.repeat(30) } });
    try {
      const { orgId } = await fixture.createOrg(asking.url('/absurd'), SECRET);
      const early = await fixture.enqueueEvent(orgId);
      await asking.waitForRequests(1);
      const refusedAt = asking.requests[0]!.receivedAt;
      await new Promise((resolve) => setTimeout(resolve, 500));
      const later = await fixture.enqueueEvent(orgId);
      await fixture.waitForStatus(early, 'FAILED');
      await fixture.waitForStatus(later, 'DELIVERED', 6000);
      const [endpoint] = await fixture.rows<{ paused_until: Date }>(
        'SELECT paused_until FROM webhook_endpoints WHERE org_id = $1',
        [orgId],
      );
      expect(endpoint!.paused_until.getTime() - refusedAt).toBeLessThan(3200);
      const [attempt] = await attempts(fixture, later);
      expect(attempt!.attempted_at.getTime() - refusedAt).toBeGreaterThanOrEqual(2900);
    } finally {
      await asking.close();
    }
  }, 20_000);

  it('an event whose window ends before the pause does is FAILED without an attempt', async () => {
    const asking = await askingReceiver({ status: 429, headers: { 'retry-after': '2' } });
    try {
      const { orgId } = await fixture.createOrg(asking.url('/short'), SECRET);
      const id = await fixture.enqueueEvent(orgId);
      await asking.waitForRequests(1);
      // Created 2 s ago: its window ends in 1 s, before the 2 s pause.
      const old = await fixture.enqueueEvent(orgId, { createdAt: new Date(Date.now() - 2000) });
      await fixture.waitForStatus(old, 'FAILED');
      expect(await attempts(fixture, old)).toHaveLength(0);
      // The first event's window outlasts the pause: retried when it ends.
      await fixture.waitForStatus(id, 'DELIVERED');
      expect((await attempts(fixture, id)).map((a) => a.status_code)).toEqual([429, 200]);
    } finally {
      await asking.close();
    }
  });
});

describe('the cap (WEBHOOK_RETRY_AFTER_MAX_MS)', () => {
  it('pauses an endpoint for at most the cap, whatever the receiver asked', async () => {
    const fixture = await WorkerFixture.start({
      WEBHOOK_RETRY_AFTER_MAX_MS: '1000',
      WEBHOOK_RETRY_JITTER: '0',
    });
    const asking = await askingReceiver({ status: 429, headers: { 'retry-after': '3600' } });
    try {
      const { orgId } = await fixture.createOrg(asking.url('/capped'), SECRET);
      const id = await fixture.enqueueEvent(orgId);
      await fixture.waitForStatus(id, 'DELIVERED', 5000);
      const log = await attempts(fixture, id);
      const waited = log[1]!.attempted_at.getTime() - log[0]!.attempted_at.getTime();
      expect(waited).toBeGreaterThanOrEqual(950);
      expect(waited).toBeLessThan(3000);
    } finally {
      await asking.close();
      await fixture.close();
    }
  });
});
