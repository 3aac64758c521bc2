// An endpoint's health and Retry now with the real webhooks worker (apps/webhooks/dist/main.js) and a real
// receiver on loopback: the health GET /api/v1/webhooks/ answers as the attempts come (HEALTHY, FAILING,
// DEGRADED, NO_ENDPOINT), an event's delivery state in the log (RETRYING with its next attempt and last
// error), and Retry now: the scheduled retry made at once, counted in numRetries on the wire, made once,
// and never followed by the retry it replaced.
import { randomUUID } from 'node:crypto';

import { type ReceivedRequest, TestReceiver } from '@svc/webhook-sender/testing';

import { ApiFixture, type OrgSession } from './support/app-fixture.js';
import { WorkerProcess } from './support/worker-process.js';

const SECRET = 'whsec_webhook-health-0123456789';
const BROKEN = { status: 500, body: 'receiver broken: try again later' };
/** The worker's wait before each retry: long enough to act before it, short enough to see it pass. */
const RETRY_DELAY_MS = 4000;

jest.setTimeout(120_000);

async function until(check: () => Promise<boolean>, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Health {
  state: string;
  reason: string;
  recentAttempts: number;
  recentFailures: number;
  consecutiveFailures: number;
  failedEvents: number;
  lastError: { at: string; errorKind: string | null; statusCode: number | null; response: string } | null;
}

interface EventRow {
  status: string;
  num_retries: number;
  next_attempt_at: Date;
  retry_asked_at: Date | null;
}

describe('webhook health and Retry now, with the worker', () => {
  let api: ApiFixture;
  let receiver: TestReceiver;
  let worker: WorkerProcess;
  /** Receiver paths that answer 500 to every delivery (challenges pass). */
  const broken = new Set<string>();

  beforeAll(async () => {
    [api, receiver] = await Promise.all([
      ApiFixture.start({
        WEBHOOK_ALLOW_HTTP: 'true',
        WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8',
        TOKEN_RATE_LIMIT_PER_MINUTE: '1000',
      }),
      TestReceiver.start(SECRET),
    ]);
    receiver.responder = (request) =>
      broken.has(request.path) && !request.body.includes('"challenge"') ? BROKEN : {};
    worker = await WorkerProcess.start(api, {
      WEBHOOK_ALLOW_HTTP: 'true',
      WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8',
      WEBHOOK_RETRY_DELAYS_MS: `${RETRY_DELAY_MS},${RETRY_DELAY_MS},${RETRY_DELAY_MS}`,
      WEBHOOK_RETRY_JITTER: '0',
      WEBHOOK_POLL_INTERVAL_MS: '500',
      FAILURE_EMAIL_DELAY_MS: '60000',
    });
  });
  afterAll(async () => {
    await worker.stop();
    await receiver.close();
    await api.close();
  });

  /** An organisation whose webhook is the receiver at `path`. */
  async function orgAt(path: string): Promise<OrgSession> {
    const org = await api.createOrg({ kycDomain: 'localhost' });
    const registered = await org.bearer('POST', '/api/v1/webhooks/', {
      body: { url: receiver.url(path), secret: SECRET },
    });
    expect(registered.status).toBe(200);
    return org;
  }

  /** Makes a user through the api: one Users event. Answers the event's id. */
  async function newEvent(org: OrgSession): Promise<string> {
    const orgUserId = `user-${randomUUID()}`;
    const made = await org.bearer('POST', '/api/v1/user/', { body: { orgUserId, kyc: true, tnc: true } });
    expect(made.status).toBe(200);
    const [row] = await api.rows<{ id: string }>(
      "SELECT id FROM events WHERE org_id = $1 AND data->>'orgUserId' = $2",
      [org.orgId, orgUserId],
    );
    return row!.id;
  }

  const health = async (org: OrgSession) => {
    const response = await org.bearer<{ health: Health }>('GET', '/api/v1/webhooks/');
    expect(response.status).toBe(200);
    return response.body.data!.health;
  };
  const eventRow = async (id: string) =>
    (
      await api.rows<EventRow>(
        'SELECT status, num_retries, next_attempt_at, retry_asked_at FROM events WHERE id = $1',
        [id],
      )
    )[0]!;
  const attemptsOf = (id: string) =>
    api.rows<{ num_retries: number; manual: boolean; delivered: boolean }>(
      'SELECT num_retries, manual, delivered FROM webhook_attempts WHERE event_id = $1 ORDER BY id',
      [id],
    );
  const receivedFor = (id: string): ReceivedRequest[] =>
    receiver.requests.filter((request) => request.headers['svc-event-id'] === id);
  const numRetriesSent = (id: string) =>
    receivedFor(id).map(
      (request) => (JSON.parse(request.body) as { event: { numRetries: number } }).event.numRetries,
    );

  it('answers HEALTHY, then FAILING after three failures in a row with the last error, then DEGRADED', async () => {
    const org = await orgAt('/health');
    expect(await health(org)).toMatchObject({ state: 'HEALTHY', recentAttempts: 0, lastError: null });
    const first = await newEvent(org);
    await until(async () => (await eventRow(first)).status === 'DELIVERED', 'the first delivery');
    expect(await health(org)).toEqual({
      state: 'HEALTHY',
      reason: 'The last attempt was delivered.',
      recentAttempts: 1,
      recentFailures: 0,
      consecutiveFailures: 0,
      failedEvents: 0,
      lastError: null,
    });

    broken.add('/health');
    const failing = [await newEvent(org), await newEvent(org), await newEvent(org)];
    await until(
      async () =>
        (await api.rows('SELECT 1 FROM webhook_attempts WHERE org_id = $1 AND NOT delivered', [org.orgId]))
          .length >= 3,
      'three failed attempts',
    );
    const down = await health(org);
    expect(down).toMatchObject({ state: 'FAILING', recentFailures: down.consecutiveFailures });
    expect(down.consecutiveFailures).toBeGreaterThanOrEqual(3);
    expect(down.reason).toBe(`The last ${down.consecutiveFailures} attempts failed.`);
    expect(down.lastError).toEqual({
      at: expect.any(String) as string,
      errorKind: 'http_status',
      statusCode: 500,
      response: BROKEN.body,
    });
    const [latest] = await api.rows<{ attempted_at: Date }>(
      'SELECT max(attempted_at) AS attempted_at FROM webhook_attempts WHERE org_id = $1 AND NOT delivered',
      [org.orgId],
    );
    expect(down.lastError?.at).toBe(latest!.attempted_at.toISOString());

    // Mended: the retries are delivered; the failures stay among the recent attempts.
    broken.delete('/health');
    for (const id of failing) await until(async () => (await eventRow(id)).status === 'DELIVERED', 'a retry');
    const mended = await health(org);
    expect(mended).toMatchObject({ state: 'DEGRADED', consecutiveFailures: 0, failedEvents: 0 });
    expect(mended.reason).toBe(
      `${mended.recentFailures} of the last ${mended.recentAttempts} attempts failed.`,
    );
  });

  it('answers NO_ENDPOINT for a webhook whose challenge failed', async () => {
    const org = await api.createOrg({ kycDomain: 'localhost' });
    const response = await org.bearer<{ status: string; health: Health }>('POST', '/api/v1/webhooks/', {
      body: { url: 'http://localhost:1/closed', secret: SECRET },
    });
    expect(response.body.data).toMatchObject({
      status: 'CHALLENGE_FAILED',
      health: {
        state: 'NO_ENDPOINT',
        reason: 'The webhook did not pass its challenge: no event is sent to it.',
      },
    });
    expect((await health(org)).state).toBe('NO_ENDPOINT');
  });

  it('makes the scheduled retry at once on Retry now, with numRetries one up, once, and not again at its time', async () => {
    const org = await orgAt('/retry-now');
    broken.add('/retry-now');
    const id = await newEvent(org);
    await until(async () => (await eventRow(id)).num_retries === 1, 'the first attempt to fail');
    const scheduled = await eventRow(id);
    expect(scheduled.status).toBe('PENDING');

    // The log says it is retrying, when, and why.
    const logged = await org.bearer<{ delivery: unknown }>('GET', `/api/v1/events/${id}/`);
    expect(logged.body.data?.delivery).toEqual({
      state: 'RETRYING',
      nextAttemptAt: scheduled.next_attempt_at.toISOString(),
      lastError: {
        at: expect.any(String) as string,
        errorKind: 'http_status',
        statusCode: 500,
        response: BROKEN.body,
      },
    });

    broken.delete('/retry-now');
    const asked = await org.bearer('POST', `/api/v1/webhooks/events/${id}/redeliver/`);
    expect(asked.status).toBe(200);
    expect(asked.body.data).toEqual({ eventId: id, status: 'QUEUED' });
    await until(async () => (await eventRow(id)).status === 'DELIVERED', 'the retry made now');
    const retried = receivedFor(id)[1]!;
    expect(retried.verified).toBe(true);
    expect(retried.receivedAt).toBeLessThan(scheduled.next_attempt_at.getTime());
    expect(numRetriesSent(id)).toEqual([0, 1]);
    expect(await attemptsOf(id)).toEqual([
      { num_retries: 0, manual: false, delivered: false },
      { num_retries: 1, manual: true, delivered: true },
    ]);
    expect(await eventRow(id)).toMatchObject({ status: 'DELIVERED', num_retries: 1, retry_asked_at: null });
    expect(await api.rows('SELECT 1 FROM webhook_redeliveries WHERE event_id = $1', [id])).toEqual([]);
    const done = await org.bearer<{ delivery: unknown }>('GET', `/api/v1/events/${id}/`);
    expect(done.body.data?.delivery).toEqual({ state: 'DELIVERED', nextAttemptAt: null, lastError: null });

    // The retry it replaced is not made when its time comes.
    await sleep(Math.max(0, scheduled.next_attempt_at.getTime() - Date.now()) + 2000);
    expect(numRetriesSent(id)).toEqual([0, 1]);
    expect(await attemptsOf(id)).toHaveLength(2);
  });

  it('goes on with the retries after a Retry now that fails, never adding an attempt to them', async () => {
    const org = await orgAt('/retry-now-fails');
    broken.add('/retry-now-fails');
    const id = await newEvent(org);
    await until(async () => (await eventRow(id)).num_retries === 1, 'the first attempt to fail');
    const asked = await org.bearer('POST', `/api/v1/webhooks/events/${id}/redeliver/`);
    expect(asked.status).toBe(200);
    await until(async () => (await eventRow(id)).num_retries === 2, 'the retry made now to fail');
    const next = await eventRow(id);
    expect(next).toMatchObject({ status: 'PENDING', retry_asked_at: null });
    // The next retry waits its backoff from the failed Retry now.
    expect(next.next_attempt_at.getTime() - receivedFor(id)[1]!.receivedAt).toBeGreaterThan(
      RETRY_DELAY_MS - 1000,
    );
    await until(async () => (await eventRow(id)).status === 'FAILED', 'the retries to end', 90_000);
    expect(numRetriesSent(id)).toEqual([0, 1, 2, 3]);
    expect((await attemptsOf(id)).map((a) => a.manual)).toEqual([false, true, false, false]);
  });
});
