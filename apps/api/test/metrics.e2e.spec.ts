// The api's /metrics for operators (docs/operations.md): behind METRICS_TOKEN when set, out of the OpenAPI
// document, clean by promtool's rules, and its business counters moving with what the real app does: an
// order rejected, KYC transitions, the guard's refusals by reason, a failed webhook challenge, the pool.
import { randomUUID } from 'node:crypto';

import { signedRequestHeaders } from '@svc/protocol';
import { lintExposition, parseExposition, sampleValue, type MetricFamily } from '@svc/runtime/testing';
import { TestReceiver } from '@svc/webhook-sender/testing';

import { ApiFixture, type OrgSession } from './support/app-fixture.js';
import { openEventStream } from './support/event-stream-client.js';

const METRICS_TOKEN = 'api-metrics-token-for-the-tests-0123456789';
const PDF = Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\ntrailer << >>\n%%EOF\n', 'latin1');

describe('the api /metrics', () => {
  let api: ApiFixture;
  let org: OrgSession;

  async function scrape(): Promise<{ text: string; families: MetricFamily[] }> {
    const response = await api.request('GET', '/metrics', {
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    return { text: response.text, families: parseExposition(response.text) };
  }

  /** How much `name{labels}` moved while `action` ran. */
  async function moved(
    name: string,
    labels: Record<string, string>,
    action: () => Promise<unknown>,
  ): Promise<number> {
    const before = sampleValue((await scrape()).families, name, labels);
    await action();
    return sampleValue((await scrape()).families, name, labels) - before;
  }

  beforeAll(async () => {
    api = await ApiFixture.start({
      METRICS_TOKEN,
      WEBHOOK_ALLOW_HTTP: 'true',
      WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8',
    });
    org = await api.createOrg({ kycDomain: 'localhost' });
  });
  afterAll(() => api.close());

  it('answers 401 without the token or with another, and is not in the OpenAPI document', async () => {
    for (const headers of [
      {},
      { authorization: `Bearer ${METRICS_TOKEN.slice(0, -1)}` },
      { authorization: METRICS_TOKEN },
    ]) {
      const response = await api.request('GET', '/metrics', { headers });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer');
      expect(response.body).toMatchObject({ code: 401 });
      expect(response.text).toContain('METRICS_TOKEN');
      expect(response.text).not.toContain('http_request_duration_seconds');
    }
    const document = await api.request('GET', '/openapi.json');
    expect(JSON.stringify(document.body)).not.toContain('"/metrics"');
  });

  it('is clean by the rules promtool check metrics applies, with every api metric typed', async () => {
    await api.request('GET', '/healthz');
    const { text, families } = await scrape();
    expect(lintExposition(text)).toEqual([]);
    const types = Object.fromEntries(families.map((family) => [family.name, family.type]));
    expect(types).toMatchObject({
      http_request_duration_seconds: 'HISTOGRAM',
      orders_total: 'COUNTER',
      kyc_transitions_total: 'COUNTER',
      auth_failures_total: 'COUNTER',
      webhook_challenge_failures_total: 'COUNTER',
      event_streams_open: 'GAUGE',
      db_pool_connections: 'GAUGE',
      db_pool_idle_connections: 'GAUGE',
      db_pool_waiting_requests: 'GAUGE',
      db_pool_max_connections: 'GAUGE',
    });
    // The pool behind this very request: at least the connection it used is open.
    expect(sampleValue(families, 'db_pool_connections')).toBeGreaterThan(0);
    expect(sampleValue(families, 'db_pool_max_connections')).toBeGreaterThanOrEqual(
      sampleValue(families, 'db_pool_connections'),
    );
  });

  it('counts an order rejection by status and reason, and not its replay', async () => {
    const orgUserId = `pending-${randomUUID()}`;
    expect(
      (await org.signed('POST', '/api/v1/user/', { body: { orgUserId, kyc: false, tnc: true } })).status,
    ).toBe(200);
    const body = {
      orgUserId,
      clientOrderId: randomUUID(),
      symbol: 'BTC_EUR',
      side: 'BUY',
      type: 'MARKET',
      quantity: 0.01,
    };
    const labels = { status: 'REJECTED', rejection_reason: 'USER_NOT_ACTIVE' };
    const placed = await moved('orders_total', labels, async () => {
      const response = await org.signed<{ status: string; rejectionReason: string }>(
        'POST',
        '/api/v1/orders/',
        { body },
      );
      expect(response.body.data).toMatchObject({ status: 'REJECTED', rejectionReason: 'USER_NOT_ACTIVE' });
    });
    expect(placed).toBe(1);
    const replayed = await moved('orders_total', {}, async () => {
      // By bearer token: the same body signed within the same second would be a replayed signature.
      expect((await org.bearer('POST', '/api/v1/orders/', { body })).status).toBe(200);
    });
    expect(replayed).toBe(0);
    const [stored] = await api.rows<{ n: number }>(
      `SELECT count(*)::int AS n FROM orders WHERE org_id = $1 AND status = 'REJECTED'`,
      [org.orgId],
    );
    expect(stored?.n).toBe(1);
  });

  it('counts KYC transitions from and to, once committed; a refused step counts nothing', async () => {
    const orgUserId = `kyc-${randomUUID()}`;
    expect(
      (await org.signed('POST', '/api/v1/user/', { body: { orgUserId, kyc: false, tnc: true } })).status,
    ).toBe(200);
    const upload = async () => {
      const form = new FormData();
      form.append('docCategory', 'IDENTITY');
      form.append('docSubCategory', 'PASSPORT');
      form.append('file', new Blob([PDF], { type: 'application/pdf' }), 'passport.pdf');
      const token = await org.token(['MANAGE_USERS:WRITE']);
      const response = await fetch(`${api.baseUrl}/api/v1/user/${orgUserId}/kyc/documents`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        body: form,
      });
      expect(response.status).toBe(200);
    };
    const before = (await scrape()).families;
    await upload();
    const refused = await api.admin(
      'POST',
      `/api/v1/admin/orgs/${org.orgId}/users/${orgUserId}/kyc/approve`,
      { body: {} },
    );
    expect(refused.status).toBe(409);
    const after = (await scrape()).families;
    const change = (from: string, to: string) =>
      sampleValue(after, 'kyc_transitions_total', { from, to }) -
      sampleValue(before, 'kyc_transitions_total', { from, to });
    expect(change('NONE', 'KYC_PENDING')).toBe(1);
    expect(change('KYC_PENDING', 'KYC_DOC_UPLOADED')).toBe(1);
    expect(change('KYC_DOC_UPLOADED', 'KYC_COMPLETED')).toBe(0);
    expect(sampleValue(after, 'kyc_transitions_total') - sampleValue(before, 'kyc_transitions_total')).toBe(
      2,
    );
  });

  it.each([
    [
      'bad_signature',
      (o: OrgSession) => ({
        ...signedRequestHeaders({ path: '/api/v1/user/' }, o),
        'x-signature': '0'.repeat(64),
      }),
    ],
    [
      'unknown_api_key',
      (o: OrgSession) =>
        signedRequestHeaders({ path: '/api/v1/user/' }, { apiKey: 'pk_unknown', apiSecret: o.apiSecret }),
    ],
    [
      'timestamp_too_old',
      (o: OrgSession) => signedRequestHeaders({ path: '/api/v1/user/', timestamp: '1000000000' }, o),
    ],
    ['missing_header', (o: OrgSession) => ({ 'x-api-key': o.apiKey })],
    ['missing_credentials', () => ({})],
    ['invalid_token', () => ({ authorization: 'Bearer at_not-a-token' })],
  ])('counts an authentication failure by reason: %s', async (reason, headers) => {
    const counted = await moved('auth_failures_total', { reason }, async () => {
      const response = await api.request('GET', '/api/v1/user/', {
        headers: headers(org),
      });
      expect(response.status).toBe(401);
    });
    expect(counted).toBe(1);
  });

  it('counts a replayed signature, a bearer token short of the scope, and a bad admin token', async () => {
    const headers = signedRequestHeaders({ path: '/api/v1/user/' }, org);
    expect((await api.request('GET', '/api/v1/user/', { headers })).status).toBe(200);
    expect(
      await moved('auth_failures_total', { reason: 'replayed_signature' }, async () => {
        expect((await api.request('GET', '/api/v1/user/', { headers })).status).toBe(401);
      }),
    ).toBe(1);
    const token = await org.token(['BASE_MODULE:READ']);
    expect(
      await moved('auth_failures_total', { reason: 'insufficient_scope' }, async () => {
        const response = await api.request('POST', '/api/v1/user/', {
          body: { orgUserId: `scope-${randomUUID()}`, kyc: false, tnc: true },
          headers: { authorization: `Bearer ${token}` },
        });
        expect(response.status).toBe(401);
        expect(response.text).toContain('it needs MANAGE_USERS:WRITE');
      }),
    ).toBe(1);
    expect(
      await moved('auth_failures_total', { reason: 'operator_refused' }, async () => {
        const response = await api.request('GET', '/api/v1/admin/orgs/', {
          headers: { authorization: 'Bearer wrong' },
        });
        expect(response.status).toBe(401);
      }),
    ).toBe(1);
  });

  it('counts a failed webhook challenge by reason; a passed one counts nothing', async () => {
    const secret = 'whsec_metrics-challenge-secret';
    const receiver = await TestReceiver.start(secret, (request) =>
      request.path === '/wrong'
        ? { body: 'not the challenge' }
        : request.path === '/down'
          ? { status: 503 }
          : {},
    );
    try {
      const register = (path: string) =>
        org.signed('POST', '/api/v1/webhooks/', { body: { url: receiver.url(path), secret } });
      expect(
        await moved('webhook_challenge_failures_total', { reason: 'wrong_answer' }, () => register('/wrong')),
      ).toBe(1);
      expect(
        await moved('webhook_challenge_failures_total', { reason: 'http_status' }, () => register('/down')),
      ).toBe(1);
      expect(await moved('webhook_challenge_failures_total', {}, () => register('/ok'))).toBe(0);
      const [endpoint] = await api.rows<{ status: string }>(
        'SELECT status FROM webhook_endpoints WHERE org_id = $1',
        [org.orgId],
      );
      expect(endpoint?.status).toBe('ACTIVE');
    } finally {
      await receiver.close();
    }
  });

  it('counts an event stream as open while it lasts, never as a request duration', async () => {
    const open = (families: MetricFamily[]) => sampleValue(families, 'event_streams_open', {});
    const before = (await scrape()).families;
    const streaming = await api.createOrg();
    const client = await openEventStream(api, streaming);
    expect(client.status).toBe(200);
    expect(open((await scrape()).families)).toBe(open(before) + 1);
    // The server ends it (its key revoked): the answer finishes, and Fastify's onResponse runs for it.
    const revoked = await api.admin(
      'POST',
      `/api/v1/admin/orgs/${streaming.orgId}/api-keys/${streaming.apiKey}/revoke/`,
    );
    expect(revoked.status).toBe(200);
    await client.ended;
    const deadline = Date.now() + 5000;
    let after = await scrape();
    while (open(after.families) !== open(before) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      after = await scrape();
    }
    expect(open(after.families)).toBe(open(before));
    expect(after.text).not.toContain('route="/api/v1/events/stream"');
  });
});

describe('the api /metrics without METRICS_TOKEN', () => {
  let api: ApiFixture;
  beforeAll(async () => {
    api = await ApiFixture.start();
  });
  afterAll(() => api.close());

  it('is open, as before: keep it off the public network', async () => {
    const response = await api.request('GET', '/metrics');
    expect(response.status).toBe(200);
    expect(lintExposition(response.text)).toEqual([]);
  });
});
