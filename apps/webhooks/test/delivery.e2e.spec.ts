// The worker end to end: real receivers on loopback verifying signatures with the protocol package, a
// real SMTP server, real PostgreSQL. Retry waits are configured in milliseconds.
import { verifyWebhookRequest } from '@svc/protocol';
import { TestReceiver, type Answer } from '@svc/webhook-sender/testing';

import { SmtpCatcher, WorkerFixture, sleep } from './support/worker-fixture.js';

const SECRET = 'whsec_worker-test-secret';

interface AttemptRow {
  num_retries: number;
  status_code: number | null;
  error_kind: string | null;
  delivered: boolean;
  duration_ms: number;
  response: string;
  attempted_at: Date;
  event_updated_at: Date | null;
}

describe('delivery', () => {
  let fixture: WorkerFixture;
  let smtp: SmtpCatcher;
  let receiver: TestReceiver;

  beforeAll(async () => {
    smtp = await SmtpCatcher.start();
    fixture = await WorkerFixture.start({ SMTP_URL: smtp.url, WEBHOOK_CONCURRENCY_PER_ENDPOINT: '2' });
    receiver = await TestReceiver.start(SECRET);
  });
  afterAll(async () => {
    await fixture.close();
    await receiver.close();
    await smtp.close();
  });

  const attempts = (eventId: string) =>
    fixture.rows<AttemptRow>(
      `SELECT num_retries, status_code, error_kind, delivered, duration_ms, response, attempted_at,
              event_updated_at
         FROM webhook_attempts WHERE event_id = $1 ORDER BY id`,
      [eventId],
    );

  it('POSTs {event, data} signed, with svc-event-id, and marks the event DELIVERED on 200', async () => {
    const { orgId } = await fixture.createOrg(receiver.url('/ok'), SECRET);
    const id = await fixture.enqueueEvent(orgId, {
      data: { orgUserId: 'alice', orgId, kyc: false, tnc: true },
    });
    await fixture.waitForStatus(id, 'DELIVERED');
    const request = receiver.requests.find((r) => r.headers['svc-event-id'] === id)!;
    expect(request.path).toBe('/ok');
    expect(request.verified).toBe(true);
    expect(verifyWebhookRequest(request.body, request.headers, SECRET)).toMatchObject({ ok: true });
    expect(request.headers['svc-timestamp']).toMatch(/^\d{13}$/);
    const body = JSON.parse(request.body) as { event: Record<string, unknown>; data: unknown };
    expect(Object.keys(body)).toEqual(['event', 'data']);
    const [event] = await fixture.rows<{ created_at: Date; updated_at: Date }>(
      'SELECT created_at, updated_at FROM events WHERE id = $1',
      [id],
    );
    expect(body.event).toEqual({
      orgId,
      entity: 'Users',
      numRetries: 0,
      createdAt: event!.created_at.toISOString(),
      updatedAt: body.event.updatedAt,
    });
    expect(Object.keys(body.event)).toEqual(['orgId', 'entity', 'numRetries', 'createdAt', 'updatedAt']);
    expect(body.data).toEqual({ orgUserId: 'alice', orgId, kyc: false, tnc: true });
    expect(await attempts(id)).toMatchObject([
      { num_retries: 0, status_code: 200, delivered: true, error_kind: null },
    ]);
  });

  it('sends the stored data text as it is: an Orders amount past a double keeps every digit', async () => {
    const { orgId } = await fixture.createOrg(receiver.url('/orders'), SECRET);
    const dataText = `{"id":7,"orgId":${orgId},"netExecutedAmount":1219271452.53672237,"rejectionReason":null}`;
    const id = await fixture.enqueueEvent(orgId, { entity: 'Orders', dataText });
    await fixture.waitForStatus(id, 'DELIVERED');
    const request = receiver.requests.find((r) => r.headers['svc-event-id'] === id)!;
    expect(request.verified).toBe(true);
    expect(request.body).toMatch(/^\{"event":\{"orgId":\d+,"entity":"Orders","numRetries":0,/);
    expect(request.body.endsWith(`,"data":${dataText}}`)).toBe(true);
  });

  it('sends eventType on KYC events only', async () => {
    const { orgId } = await fixture.createOrg(receiver.url('/kyc'), SECRET);
    const id = await fixture.enqueueEvent(orgId, { eventType: 'KYC_PENDING' });
    await fixture.waitForStatus(id, 'DELIVERED');
    const request = receiver.requests.find((r) => r.headers['svc-event-id'] === id)!;
    const body = JSON.parse(request.body) as { event: Record<string, unknown> };
    expect(Object.keys(body.event)).toEqual([
      'orgId',
      'entity',
      'eventType',
      'numRetries',
      'createdAt',
      'updatedAt',
    ]);
    expect(body.event.eventType).toBe('KYC_PENDING');
  });

  it.each<[string, Answer, string]>([
    ['HTTP 500', { status: 500, body: 'internal error' }, 'http_status'],
    ['HTTP 201 (only 200 counts)', { status: 201, body: 'created' }, 'http_status'],
    ['an answer after 1.2 s', { delayMs: 1200 }, 'timeout'],
    ['a reset connection', { reset: true }, 'connection_reset'],
  ])(
    'retries %s with numRetries 1, 2, 3, then marks the event FAILED and e-mails the support address once',
    async (_name, answer, errorKind) => {
      const failing = await TestReceiver.start(SECRET, () => answer);
      try {
        const { orgId, supportEmail } = await fixture.createOrg(failing.url('/fail'), SECRET);
        const id = await fixture.enqueueEvent(orgId);
        await fixture.waitForStatus(id, 'FAILED', 20_000);
        const sent = failing.requests.filter((r) => r.headers['svc-event-id'] === id);
        expect(
          sent.map((r) => (JSON.parse(r.body) as { event: { numRetries: number } }).event.numRetries),
        ).toEqual([0, 1, 2, 3]);
        expect(sent.every((r) => r.verified)).toBe(true);
        // Each attempt is signed afresh.
        expect(new Set(sent.map((r) => r.headers['svc-signature'])).size).toBe(4);
        const logged = await attempts(id);
        expect(logged.map((a) => [a.num_retries, a.delivered, a.error_kind])).toEqual([
          [0, false, errorKind],
          [1, false, errorKind],
          [2, false, errorKind],
          [3, false, errorKind],
        ]);
        // Each attempt records what rebuilds its request: the body's updatedAt, and its start as svc-timestamp.
        expect(
          logged.map((a) => [a.event_updated_at?.toISOString(), String(a.attempted_at.getTime())]),
        ).toEqual(
          sent.map((r) => [
            (JSON.parse(r.body) as { event: { updatedAt: string } }).event.updatedAt,
            r.headers['svc-timestamp'],
          ]),
        );
        if (answer.status)
          expect(logged[0]).toMatchObject({ status_code: answer.status, response: answer.body });
        if (answer.delayMs) expect(logged[0]!.duration_ms).toBeGreaterThanOrEqual(990);
        // Backoff: each wait at least the configured step less its jitter (50, 100, 150 ms, ±20%).
        const times = logged.map((a) => a.attempted_at.getTime() + a.duration_ms);
        const starts = logged.map((a) => a.attempted_at.getTime());
        expect(starts[1]! - times[0]!).toBeGreaterThanOrEqual(40);
        expect(starts[2]! - times[1]!).toBeGreaterThanOrEqual(80);
        expect(starts[3]! - times[2]!).toBeGreaterThanOrEqual(120);
        const mail = await fixture.until(() => Promise.resolve(smtp.mailsTo(supportEmail)[0]));
        expect(mail.text).toContain(id);
        await sleep(700);
        expect(smtp.mailsTo(supportEmail)).toHaveLength(1);
        expect(await fixture.eventStatus(id)).toEqual({ status: 'FAILED', num_retries: 3 });
      } finally {
        await failing.close();
      }
    },
    30_000,
  );

  it('sends at most one failure e-mail per endpoint per interval, listing the events that failed together', async () => {
    const failing = await TestReceiver.start(SECRET, () => ({ status: 503 }));
    try {
      const { orgId, supportEmail } = await fixture.createOrg(failing.url('/digest'), SECRET);
      const a = await fixture.enqueueEvent(orgId);
      const b = await fixture.enqueueEvent(orgId);
      await fixture.waitForStatus(a, 'FAILED');
      await fixture.waitForStatus(b, 'FAILED');
      const mail = await fixture.until(() => Promise.resolve(smtp.mailsTo(supportEmail)[0]));
      expect(mail.text).toContain(a);
      expect(mail.text).toContain(b);
      // A later failure within the 15 minutes waits for the next e-mail.
      const c = await fixture.enqueueEvent(orgId);
      await fixture.waitForStatus(c, 'FAILED');
      await sleep(1000);
      expect(smtp.mailsTo(supportEmail)).toHaveLength(1);
      const [pending] = await fixture.rows<{ emailed_at: Date | null }>(
        'SELECT emailed_at FROM webhook_failures WHERE event_id = $1',
        [c],
      );
      expect(pending?.emailed_at).toBeNull();
    } finally {
      await failing.close();
    }
  }, 30_000);

  it('caps attempts in flight per endpoint, and a slow endpoint does not hold up another', async () => {
    let inFlight = 0;
    let most = 0;
    const slow = await TestReceiver.start(SECRET, () => {
      inFlight++;
      most = Math.max(most, inFlight);
      setTimeout(() => inFlight--, 300);
      return { delayMs: 300 };
    });
    try {
      const slowOrg = await fixture.createOrg(slow.url('/slow'), SECRET);
      const fastOrg = await fixture.createOrg(receiver.url('/fast'), SECRET);
      const slowIds = await Promise.all(
        Array.from({ length: 10 }, () => fixture.enqueueEvent(slowOrg.orgId)),
      );
      await slow.waitForRequests(1);
      const started = Date.now();
      const fastId = await fixture.enqueueEvent(fastOrg.orgId);
      await fixture.waitForStatus(fastId, 'DELIVERED');
      expect(Date.now() - started).toBeLessThan(1000);
      for (const id of slowIds) await fixture.waitForStatus(id, 'DELIVERED', 20_000);
      expect(most).toBe(2);
    } finally {
      await slow.close();
    }
  }, 30_000);

  it('marks events of an organisation without an active endpoint SKIPPED, sending nothing', async () => {
    const { orgId } = await fixture.createOrg('', SECRET);
    const id = await fixture.enqueueEvent(orgId);
    await fixture.waitForStatus(id, 'SKIPPED');
    expect(await attempts(id)).toHaveLength(0);
  });

  it('sends nothing for an event older than 24 h: FAILED without an attempt', async () => {
    const { orgId, supportEmail } = await fixture.createOrg(receiver.url('/old'), SECRET);
    const id = await fixture.enqueueEvent(orgId, {
      createdAt: new Date(Date.now() - 24 * 3600 * 1000 - 1000),
    });
    await fixture.waitForStatus(id, 'FAILED');
    expect(await attempts(id)).toHaveLength(0);
    expect(receiver.requests.filter((r) => r.headers['svc-event-id'] === id)).toHaveLength(0);
    const mail = await fixture.until(() => Promise.resolve(smtp.mailsTo(supportEmail)[0]));
    expect(mail.text).toContain(id);
  });

  it('makes a redelivery of a FAILED event as one attempt, counted: numRetries 4, then 5', async () => {
    let answer = 500;
    const flaky = await TestReceiver.start(SECRET, () => ({ status: answer }));
    try {
      const { orgId } = await fixture.createOrg(flaky.url('/again'), SECRET);
      const id = await fixture.enqueueEvent(orgId);
      await fixture.waitForStatus(id, 'FAILED');
      answer = 200;
      await fixture.redeliver(id);
      await fixture.waitForStatus(id, 'DELIVERED');
      const last = flaky.requests.at(-1)!;
      expect(last.headers['svc-event-id']).toBe(id);
      expect((JSON.parse(last.body) as { event: { numRetries: number } }).event.numRetries).toBe(4);
      expect((await attempts(id)).at(-1)).toMatchObject({
        num_retries: 4,
        delivered: true,
        status_code: 200,
      });
      expect(await fixture.eventStatus(id)).toEqual({ status: 'DELIVERED', num_retries: 4 });
      // Another redelivery counts on; a manual attempt is never retried.
      await fixture.redeliver(id);
      await fixture.until(async () => (await attempts(id)).length === 6 || undefined);
      expect((await attempts(id)).map((a) => a.num_retries)).toEqual([0, 1, 2, 3, 4, 5]);
      expect(await fixture.eventStatus(id)).toEqual({ status: 'DELIVERED', num_retries: 5 });
    } finally {
      await flaky.close();
    }
  });
});
