// A triggered event end to end with the real webhooks worker (apps/webhooks/dist/main.js): a sandbox
// organisation's POST /api/v1/sandbox/events is stored, in the event log, and delivered to a receiver on
// loopback that fails the first attempt and accepts the retry: two signed attempts of the same record,
// numRetries 0 then 1, and the event DELIVERED (docs/testing.md#svc-trigger-and-triggered-events).
import { type ReceivedRequest, TestReceiver } from '@svc/webhook-sender/testing';

import { ApiFixture, type OrgSession } from './support/app-fixture.js';
import { WorkerProcess } from './support/worker-process.js';

const SECRET = 'whsec_sandbox-delivery-0123456789';

jest.setTimeout(90_000);

/** Polls `check` until it is true; fails after `timeoutMs` (a loaded machine delivers slowly). */
async function until(check: () => Promise<boolean>, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('a triggered event delivered by the worker, with a retry', () => {
  let api: ApiFixture;
  let receiver: TestReceiver;
  let worker: WorkerProcess;
  let sandbox: OrgSession;

  beforeAll(async () => {
    [api, receiver] = await Promise.all([
      ApiFixture.start({ WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8' }),
      TestReceiver.start(SECRET),
    ]);
    sandbox = await api.createOrg({ environment: 'SANDBOX', kycDomain: 'localhost' });
    const registered = await sandbox.bearer('POST', '/api/v1/webhooks/', {
      body: { url: receiver.url(), secret: SECRET },
    });
    expect(registered.status).toBe(200);
    worker = await WorkerProcess.start(api, {
      WEBHOOK_ALLOW_HTTP: 'true',
      WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8',
      WEBHOOK_RETRY_DELAYS_MS: '300,300,300',
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

  it('stores it, logs it, and delivers it twice, signed: failed at numRetries 0, accepted at 1', async () => {
    const eventIdOf = (request: ReceivedRequest) => request.headers['svc-event-id'];
    const seen = new Set<string>();
    // The first attempt at each event fails; the next is accepted.
    receiver.responder = (request) => {
      const id = String(eventIdOf(request));
      if (seen.has(id)) return {};
      seen.add(id);
      return { status: 503, body: 'receiver down for the first try' };
    };

    const triggered = await sandbox.signed<{
      eventId: string;
      orgUserId: string | null;
      createdUser: boolean;
    }>('POST', '/api/v1/sandbox/events', { body: { entity: 'Users', eventType: 'KYC_COMPLETED' } });
    expect(triggered.status).toBe(200);
    const { eventId, orgUserId } = triggered.body.data!;

    const statusOf = async () =>
      (await api.rows<{ status: string }>('SELECT status FROM events WHERE id = $1', [eventId]))[0]?.status;
    await until(async () => (await statusOf()) === 'DELIVERED', `event ${eventId} to be delivered`).catch(
      (error: unknown) => {
        throw new Error(`${String(error)}\n${worker.log}`);
      },
    );

    const [stored] = await api.rows<{ org_id: number; entity: string; event_type: string; data: unknown }>(
      'SELECT org_id, entity, event_type, data FROM events WHERE id = $1',
      [eventId],
    );
    expect(stored).toMatchObject({
      org_id: sandbox.orgId,
      entity: 'Users',
      event_type: 'KYC_COMPLETED',
      data: { orgUserId, kyc: true, userStatus: 'ACTIVE' },
    });
    const logged = await sandbox.signed<{ items: { id: string; status: string }[] }>(
      'GET',
      '/api/v1/events/?limit=100',
    );
    expect(logged.body.data?.items.find((item) => item.id === eventId)).toMatchObject({
      status: 'DELIVERED',
    });

    const attempts = await api.rows<{ num_retries: number; delivered: boolean; status_code: number }>(
      'SELECT num_retries, delivered, status_code FROM webhook_attempts WHERE event_id = $1 ORDER BY num_retries',
      [eventId],
    );
    expect(attempts).toEqual([
      { num_retries: 0, delivered: false, status_code: 503 },
      { num_retries: 1, delivered: true, status_code: 200 },
    ]);
    const deliveries = await sandbox.signed<{ items: { numRetries: number; delivered: boolean }[] }>(
      'GET',
      `/api/v1/webhooks/deliveries/?eventId=${eventId}`,
    );
    expect(
      deliveries.body.data?.items.map(({ numRetries, delivered }) => ({ numRetries, delivered })),
    ).toEqual([
      { numRetries: 0, delivered: false },
      { numRetries: 1, delivered: true },
    ]);

    const received = receiver.requests.filter((request) => eventIdOf(request) === eventId);
    expect(received).toHaveLength(2);
    expect(received.map((request) => request.verified)).toEqual([true, true]);
    const bodies = received.map((request) => JSON.parse(request.body) as { event: unknown; data: unknown });
    expect(bodies.map((body) => body.event)).toEqual([
      expect.objectContaining({
        orgId: sandbox.orgId,
        entity: 'Users',
        eventType: 'KYC_COMPLETED',
        numRetries: 0,
      }),
      expect.objectContaining({
        orgId: sandbox.orgId,
        entity: 'Users',
        eventType: 'KYC_COMPLETED',
        numRetries: 1,
      }),
    ]);
    expect(bodies[1]!.data).toEqual(bodies[0]!.data);
    expect(bodies[0]!.data).toMatchObject({ orgUserId, kyc: true, userStatus: 'ACTIVE' });
  });
});
