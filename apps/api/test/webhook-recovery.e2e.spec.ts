// Recovery through the api: the request recorded with its job in one transaction, its progress as the worker
// writes it, the rules on `since` (nothing written when they fail), one recovery at a time, tenant
// isolation. The worker's side (choosing the events, the attempts) is in apps/webhooks/test/recovery.e2e.
import { randomUUID } from 'node:crypto';

import { TestReceiver } from '@svc/webhook-sender/testing';

import { ApiFixture, type OrgSession } from './support/app-fixture.js';

const SECRET = 'whsec_0123456789abcdef';
const HOUR = 3600 * 1000;

interface RecoveryData {
  id: string;
  since: string;
  status: string;
  total: number;
  queued: number;
  delivered: number;
  failed: number;
  createdAt: string;
  startedAt: string | null;
  completedAt: string | null;
}

describe('webhook recovery', () => {
  let api: ApiFixture;
  let receiver: TestReceiver;

  beforeAll(async () => {
    api = await ApiFixture.start({
      WEBHOOK_ALLOW_HTTP: 'true',
      WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8',
      // Every bearer call here takes a fresh token: more than the default 30 a minute.
      TOKEN_RATE_LIMIT_PER_MINUTE: '1000',
    });
    receiver = await TestReceiver.start(SECRET);
  });
  afterAll(async () => {
    await receiver.close();
    await api.close();
  });

  /** An organisation with an ACTIVE webhook. */
  const activeOrg = async () => {
    const org = await api.createOrg({ kycDomain: 'localhost' });
    const registered = await org.bearer('POST', '/api/v1/webhooks/', {
      body: { url: receiver.url(), secret: SECRET },
    });
    expect(registered.status).toBe(200);
    return org;
  };
  const recoveries = (orgId: number) =>
    api.rows<{ id: string; status: string }>('SELECT id, status FROM webhook_recoveries WHERE org_id = $1', [
      orgId,
    ]);
  const jobs = (recoveryId?: string) =>
    api.rows<{ data: { recoveryId: string } }>(
      "SELECT data FROM pgboss.job WHERE name = 'webhook-recovery' AND ($1::text IS NULL OR data->>'recoveryId' = $1)",
      [recoveryId ?? null],
    );
  const recover = (org: OrgSession, since: unknown) =>
    org.bearer<RecoveryData>('POST', '/api/v1/webhooks/recover/', { body: { since } });

  it('records the recovery with its job for the worker, and answers it PENDING', async () => {
    const org = await activeOrg();
    const since = new Date(Date.now() - 2 * HOUR);
    const response = await recover(org, since.toISOString());
    expect(response.status).toBe(200);
    const data = response.body.data!;
    expect(data).toEqual({
      id: expect.any(String) as string,
      since: since.toISOString(),
      status: 'PENDING',
      total: 0,
      queued: 0,
      delivered: 0,
      failed: 0,
      createdAt: expect.any(String) as string,
      startedAt: null,
      completedAt: null,
    });
    expect(await recoveries(org.orgId)).toEqual([{ id: data.id, status: 'PENDING' }]);
    expect((await jobs(data.id)).map((job) => job.data)).toEqual([{ recoveryId: data.id }]);
  });

  it('reads a `since` with an offset as the instant it names', async () => {
    const org = await activeOrg();
    const at = new Date(Math.floor((Date.now() - HOUR) / 1000) * 1000);
    const local = new Date(at.getTime() + 2 * HOUR).toISOString().replace('Z', '+02:00');
    const response = await recover(org, local);
    expect(response.body.data?.since).toBe(at.toISOString());
  });

  it('shows the progress the worker writes: total, queued, delivered, failed, status', async () => {
    const org = await activeOrg();
    const { id } = (await recover(org, new Date(Date.now() - HOUR).toISOString())).body.data!;
    await api.rows(
      "UPDATE webhook_recoveries SET status = 'RUNNING', total = 5, delivered = 2, failed = 1, started_at = now() WHERE id = $1",
      [id],
    );
    const running = await org.bearer<RecoveryData>('GET', `/api/v1/webhooks/recover/${id}/`);
    expect(running.status).toBe(200);
    expect(running.body.data).toMatchObject({
      id,
      status: 'RUNNING',
      total: 5,
      queued: 2,
      delivered: 2,
      failed: 1,
      startedAt: expect.any(String) as string,
      completedAt: null,
    });
    await api.rows(
      "UPDATE webhook_recoveries SET status = 'COMPLETED', delivered = 4, completed_at = now() WHERE id = $1",
      [id],
    );
    const done = await org.signed<RecoveryData>('GET', `/api/v1/webhooks/recover/${id}/`);
    expect(done.body.data).toMatchObject({ status: 'COMPLETED', queued: 0, delivered: 4, failed: 1 });
    expect(done.body.data?.completedAt).toEqual(expect.any(String));
  });

  it('runs one recovery at a time: 409 naming the running one, then another once it is COMPLETED', async () => {
    const org = await activeOrg();
    const first = (await recover(org, new Date(Date.now() - HOUR).toISOString())).body.data!;
    const second = await recover(org, new Date(Date.now() - HOUR).toISOString());
    expect(second.status).toBe(409);
    expect(second.body.error).toBe(
      `Conflict: a recovery is already running (${first.id}): follow it at ` +
        `GET /api/v1/webhooks/recover/${first.id}/; start another once it is COMPLETED`,
    );
    expect(await recoveries(org.orgId)).toHaveLength(1);
    await api.rows("UPDATE webhook_recoveries SET status = 'COMPLETED' WHERE id = $1", [first.id]);
    expect((await recover(org, new Date(Date.now() - HOUR).toISOString())).status).toBe(200);
    expect(await recoveries(org.orgId)).toHaveLength(2);
  });

  it('answers two requests at once with one recovery and one 409', async () => {
    const org = await activeOrg();
    const since = new Date(Date.now() - HOUR).toISOString();
    const answers = await Promise.all([recover(org, since), recover(org, since), recover(org, since)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409]);
    expect(await recoveries(org.orgId)).toHaveLength(1);
    const [row] = await recoveries(org.orgId);
    expect(await jobs(row!.id)).toHaveLength(1);
  });

  it.each<[string, unknown, string]>([
    ['missing', undefined, 'since should not be null or undefined'],
    ['not text', 1_700_000_000_000, 'since must be an ISO 8601 date and time with a zone'],
    ['not a date', 'yesterday', 'since must be an ISO 8601 date and time with a zone'],
    ['a date without a time', '2026-05-10', 'since must be an ISO 8601 date and time with a zone'],
    ['a time without a zone', '2026-05-10T10:00:00', 'since must be an ISO 8601 date and time with a zone'],
    ['not a calendar date', '2026-02-30T10:00:00Z', 'since must be an ISO 8601 date and time with a zone'],
    ['in the future', new Date(Date.now() + 60_000).toISOString(), 'since must not be in the future'],
    [
      'older than the window',
      new Date(Date.now() - 24 * HOUR - 60_000).toISOString(),
      'since must be within the delivery window (the last 24 hours): older events cannot be redelivered',
    ],
  ])('refuses a `since` %s with 400 naming the rule, writing nothing', async (_name, since, message) => {
    const org = await activeOrg();
    const before = (await jobs()).length;
    const response = await org.bearer('POST', '/api/v1/webhooks/recover/', {
      body: since === undefined ? {} : { since },
    });
    expect(response.status).toBe(400);
    expect(response.body.error).toContain(message);
    expect(await recoveries(org.orgId)).toHaveLength(0);
    expect(await jobs()).toHaveLength(before);
  });

  it('refuses a field it does not know', async () => {
    const org = await activeOrg();
    const response = await org.bearer('POST', '/api/v1/webhooks/recover/', {
      body: { since: new Date().toISOString(), until: new Date().toISOString() },
    });
    expect(response.status).toBe(400);
    expect(response.body.error).toContain('property until should not exist');
    expect(await recoveries(org.orgId)).toHaveLength(0);
  });

  it('refuses without an ACTIVE webhook (409), writing nothing', async () => {
    const none = await api.createOrg({ kycDomain: 'localhost' });
    const response = await recover(none, new Date(Date.now() - HOUR).toISOString());
    expect(response.status).toBe(409);
    expect(response.body.error).toBe('Conflict: no active webhook is registered');
    receiver.responder = () => ({ status: 500 });
    try {
      await none.bearer('POST', '/api/v1/webhooks/', { body: { url: receiver.url(), secret: SECRET } });
    } finally {
      receiver.responder = () => ({});
    }
    expect((await recover(none, new Date(Date.now() - HOUR).toISOString())).status).toBe(409);
    expect(await recoveries(none.orgId)).toHaveLength(0);
  });

  it("keeps organisations apart: another's recovery is 404, and does not block one's own", async () => {
    const mine = await activeOrg();
    const theirs = await activeOrg();
    const { id } = (await recover(theirs, new Date(Date.now() - HOUR).toISOString())).body.data!;
    const peek = await mine.bearer('GET', `/api/v1/webhooks/recover/${id}/`);
    expect(peek.status).toBe(404);
    expect(peek.body).toEqual({ code: 404, data: null, error: `Not Found: no recovery ${id}` });
    expect((await mine.bearer('GET', `/api/v1/webhooks/recover/${randomUUID()}/`)).status).toBe(404);
    expect((await recover(mine, new Date(Date.now() - HOUR).toISOString())).status).toBe(200);
    const bad = await mine.bearer('GET', '/api/v1/webhooks/recover/nope/');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('Bad Request: id must be a UUID');
  });

  it('needs BASE_MODULE:WRITE to start a recovery and BASE_MODULE:READ to follow it', async () => {
    const org = await activeOrg();
    const denied = await org.bearer('POST', '/api/v1/webhooks/recover/', {
      body: { since: new Date(Date.now() - HOUR).toISOString() },
      scopes: ['BASE_MODULE:READ'],
    });
    expect(denied.status).toBe(401);
    expect(await recoveries(org.orgId)).toHaveLength(0);
    const { id } = (await recover(org, new Date(Date.now() - HOUR).toISOString())).body.data!;
    const read = await org.bearer('GET', `/api/v1/webhooks/recover/${id}/`, { scopes: ['BASE_MODULE:READ'] });
    expect(read.status).toBe(200);
    const users = await org.bearer('GET', `/api/v1/webhooks/recover/${id}/`, {
      scopes: ['MANAGE_USERS:READ'],
    });
    expect(users.status).toBe(401);
  });
});
