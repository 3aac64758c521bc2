// The organisation's delivery log and redelivery: filters, cursor pagination, the window and the
// states in which a redelivery is refused, tenant isolation.
import { randomUUID } from 'node:crypto';

import { TestReceiver } from '@svc/webhook-sender/testing';

import { ApiFixture, type OrgSession } from './support/app-fixture.js';

const SECRET = 'whsec_0123456789abcdef';

describe('webhook deliveries', () => {
  let api: ApiFixture;
  let org: OrgSession;
  let other: OrgSession;
  let receiver: TestReceiver;

  beforeAll(async () => {
    api = await ApiFixture.start({ WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8' });
    receiver = await TestReceiver.start(SECRET);
    org = await api.createOrg({ kycDomain: 'localhost' });
    other = await api.createOrg({ kycDomain: 'localhost' });
    await org.bearer('POST', '/api/v1/webhooks/', { body: { url: receiver.url(), secret: SECRET } });
  });
  afterAll(async () => {
    await receiver.close();
    await api.close();
  });

  const event = async (orgId: number, status: string, createdAt = new Date()) => {
    const id = randomUUID();
    await api.rows(
      `INSERT INTO events (id, org_id, entity, data, status, created_at, updated_at) VALUES ($1, $2, 'Users', '{}', $3, $4, $4)`,
      [id, orgId, status, createdAt],
    );
    return id;
  };
  const attempt = (eventId: string, orgId: number, n: number, delivered: boolean) =>
    api.rows(
      `INSERT INTO webhook_attempts (event_id, org_id, url, num_retries, attempted_at, duration_ms, status_code, error_kind, response, delivered)
       VALUES ($1, $2, 'http://localhost/x', $3, now(), 12, $4, $5, $6, $7)`,
      [
        eventId,
        orgId,
        n,
        delivered ? 200 : 500,
        delivered ? null : 'http_status',
        delivered ? '' : 'boom',
        delivered,
      ],
    );

  it('lists the attempts in order, filtered by event and outcome, page by page, own organisation only', async () => {
    const failed = await event(org.orgId, 'FAILED');
    for (let n = 0; n < 4; n++) await attempt(failed, org.orgId, n, false);
    const ok = await event(org.orgId, 'DELIVERED');
    await attempt(ok, org.orgId, 0, true);
    const foreign = await event(other.orgId, 'DELIVERED');
    await attempt(foreign, other.orgId, 0, true);

    const all = await org.bearer<{ items: { eventId: string }[] }>('GET', '/api/v1/webhooks/deliveries/');
    expect(all.status).toBe(200);
    expect(all.body.data?.items.map((i) => i.eventId)).toEqual([failed, failed, failed, failed, ok]);
    const one = await org.bearer<{ items: unknown[] }>(
      'GET',
      `/api/v1/webhooks/deliveries/?eventId=${failed}`,
    );
    expect(one.body.data?.items).toHaveLength(4);
    expect(one.body.data?.items[0]).toEqual({
      eventId: failed,
      url: 'http://localhost/x',
      numRetries: 0,
      manual: false,
      attemptedAt: expect.any(String) as string,
      durationMs: 12,
      delivered: false,
      statusCode: 500,
      errorKind: 'http_status',
      response: 'boom',
    });
    const good = await org.bearer<{ items: { eventId: string }[] }>(
      'GET',
      '/api/v1/webhooks/deliveries/?delivered=true',
    );
    expect(good.body.data?.items.map((i) => i.eventId)).toEqual([ok]);
    const first = await org.bearer<{ items: unknown[]; nextCursor: string }>(
      'GET',
      '/api/v1/webhooks/deliveries/?limit=3',
    );
    expect(first.body.data?.items).toHaveLength(3);
    const second = await org.bearer<{ items: unknown[]; nextCursor: string | null }>(
      'GET',
      `/api/v1/webhooks/deliveries/?limit=3&cursor=${first.body.data!.nextCursor}`,
    );
    expect(second.body.data?.items).toHaveLength(2);
    expect(second.body.data?.nextCursor).toBeNull();
    const bad = await org.bearer('GET', '/api/v1/webhooks/deliveries/?delivered=maybe');
    expect(bad.status).toBe(400);
  });

  it('queues a redelivery of a failed event inside the window, as one asked-for attempt due at once', async () => {
    const id = await event(org.orgId, 'FAILED');
    const response = await org.bearer('POST', `/api/v1/webhooks/events/${id}/redeliver/`);
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({ eventId: id, status: 'QUEUED' });
    const queued = await api.rows<{ recovery_id: string | null; due: boolean }>(
      'SELECT recovery_id, due_at <= now() AS due FROM webhook_redeliveries WHERE event_id = $1',
      [id],
    );
    expect(queued).toEqual([{ recovery_id: null, due: true }]);
  });

  it("makes a retrying event's scheduled retry due at once instead of queueing a redelivery", async () => {
    const id = await event(org.orgId, 'PENDING');
    await api.rows(
      "UPDATE events SET num_retries = 1, next_attempt_at = now() + interval '1 hour' WHERE id = $1",
      [id],
    );
    const response = await org.bearer('POST', `/api/v1/webhooks/events/${id}/redeliver/`);
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({ eventId: id, status: 'QUEUED' });
    expect(
      await api.rows(
        `SELECT status, num_retries, next_attempt_at <= now() AS due, retry_asked_at IS NOT NULL AS asked
           FROM events WHERE id = $1`,
        [id],
      ),
    ).toEqual([{ status: 'PENDING', num_retries: 1, due: true, asked: true }]);
    expect(await api.rows('SELECT 1 FROM webhook_redeliveries WHERE event_id = $1', [id])).toEqual([]);
  });

  it('refuses Retry now for a retrying event older than 24 h, changing nothing', async () => {
    const id = await event(org.orgId, 'PENDING', new Date(Date.now() - 24 * 3600 * 1000 - 1000));
    await api.rows(
      "UPDATE events SET num_retries = 1, next_attempt_at = now() + interval '1 hour' WHERE id = $1",
      [id],
    );
    const response = await org.bearer('POST', `/api/v1/webhooks/events/${id}/redeliver/`);
    expect(response.status).toBe(409);
    expect(response.body.error).toContain('older than the 24 h delivery window');
    expect(
      await api.rows('SELECT next_attempt_at > now() AS later, retry_asked_at FROM events WHERE id = $1', [
        id,
      ]),
    ).toEqual([{ later: true, retry_asked_at: null }]);
  });

  it.each([
    ['an event whose first attempt is not made yet', 'PENDING', 0, 409, 'its first attempt is not made yet'],
    [
      'an event older than 24 h',
      'FAILED',
      24 * 3600 * 1000 + 1000,
      409,
      'older than the 24 h delivery window',
    ],
  ])('refuses %s', async (_name, status, age, code, message) => {
    const id = await event(org.orgId, status, new Date(Date.now() - age));
    const response = await org.bearer('POST', `/api/v1/webhooks/events/${id}/redeliver/`);
    expect(response.status).toBe(code);
    expect(response.body.error).toContain(message);
  });

  it("answers 404 for another organisation's event and 400 for an id that is not a UUID", async () => {
    const foreign = await event(other.orgId, 'FAILED');
    expect((await org.bearer('POST', `/api/v1/webhooks/events/${foreign}/redeliver/`)).status).toBe(404);
    expect((await org.bearer('POST', '/api/v1/webhooks/events/nope/redeliver/')).status).toBe(400);
  });

  it('needs BASE_MODULE:WRITE to redeliver', async () => {
    const id = await event(org.orgId, 'FAILED');
    const response = await org.bearer('POST', `/api/v1/webhooks/events/${id}/redeliver/`, {
      scopes: ['BASE_MODULE:READ'],
    });
    expect(response.status).toBe(401);
  });
});
