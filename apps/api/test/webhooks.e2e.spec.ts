// Webhook registration end to end: the signed challenge against a real receiver on loopback, what is
// stored, the plan, host, https and address rules (production configuration), get and delete.
import { decryptSecret } from '@svc/db';
import { verifyWebhookRequest } from '@svc/protocol';
import { TestReceiver, type Answer } from '@svc/webhook-sender/testing';

import { ApiFixture, type OrgSession } from './support/app-fixture.js';

const SECRET = 'whsec_0123456789abcdef';
const NEW_SECRET = 'whsec_the-next-secret-9876';

interface WebhookData {
  url: string;
  status: string;
  challengePassed: boolean;
  challengeError: string | null;
}

describe('webhooks registration (development receivers: http on loopback)', () => {
  let api: ApiFixture;
  let org: OrgSession;
  let receiver: TestReceiver;

  beforeAll(async () => {
    api = await ApiFixture.start({ WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8,::1' });
    org = await api.createOrg({ kycDomain: 'localhost' });
    receiver = await TestReceiver.start(SECRET);
  });
  afterAll(async () => {
    await receiver.close();
    await api.close();
  });
  beforeEach(() => {
    receiver.responder = () => ({});
  });

  const endpoints = (orgId: number) =>
    api.rows<{ url: string; status: string; secret_ciphertext: string; challenge_error: string | null }>(
      'SELECT url, status, secret_ciphertext, challenge_error FROM webhook_endpoints WHERE org_id = $1',
      [orgId],
    );
  /** Every column, to check that a refused change wrote nothing. */
  const endpointRows = (orgId: number) =>
    api.rows<{ url: string; status: string; secret_ciphertext: string; paused_until: Date | null }>(
      'SELECT * FROM webhook_endpoints WHERE org_id = $1',
      [orgId],
    );

  it('runs the challenge signed with the secret and registers an ACTIVE endpoint when it passes', async () => {
    const before = receiver.requests.length;
    const response = await org.signed<WebhookData>('POST', '/api/v1/webhooks/', {
      body: { url: receiver.url('/hooks/svc'), secret: SECRET },
    });
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({
      url: receiver.url('/hooks/svc'),
      status: 'ACTIVE',
      challengePassed: true,
      challengeError: null,
    });
    expect(response.text).not.toContain(SECRET);
    const challenge = receiver.requests[before]!;
    expect(challenge.path).toBe('/hooks/svc');
    expect(challenge.verified).toBe(true);
    expect(Object.keys(JSON.parse(challenge.body) as object)).toEqual(['challenge']);
    const [row] = await endpoints(org.orgId);
    expect(row?.status).toBe('ACTIVE');
    expect(row?.secret_ciphertext).not.toContain(SECRET);
    expect(decryptSecret(api.config.masterKey, row!.secret_ciphertext)).toBe(SECRET);
  });

  it('shows the endpoint, without its secret, in GET /webhooks/ and in the org view', async () => {
    const response = await org.signed<WebhookData>('GET', '/api/v1/webhooks/');
    expect(response.body.data).toMatchObject({ url: receiver.url('/hooks/svc'), status: 'ACTIVE' });
    expect(response.text).not.toContain(SECRET);
    const view = await org.signed<{ webhook: unknown }>('GET', '/api/v1/org/');
    expect(view.body.data?.webhook).toEqual({ url: receiver.url('/hooks/svc'), status: 'ACTIVE' });
  });

  it('refuses a change whose challenge fails with 409, keeping the ACTIVE endpoint exactly as it was', async () => {
    const [before] = await endpointRows(org.orgId);
    const sent = receiver.requests.length;
    receiver.responder = () => ({ body: 'not the challenge' });
    const response = await org.signed<WebhookData>('POST', '/api/v1/webhooks/', {
      body: { url: receiver.url('/other'), secret: NEW_SECRET },
    });
    expect(response.status).toBe(409);
    expect(response.body).toEqual({
      code: 409,
      data: null,
      error:
        'Conflict: the new endpoint did not pass its challenge (the receiver did not answer with the ' +
        `challenge string), so the ACTIVE endpoint ${receiver.url('/hooks/svc')} is unchanged and still ` +
        'receives events',
    });
    // The challenge went to the new url, signed with the new secret.
    expect(receiver.requests).toHaveLength(sent + 1);
    expect(receiver.requests[sent]!.path).toBe('/other');
    expect(
      verifyWebhookRequest(receiver.requests[sent]!.body, receiver.requests[sent]!.headers, NEW_SECRET).ok,
    ).toBe(true);
    expect(await endpointRows(org.orgId)).toEqual([before]);
    const get = await org.bearer<WebhookData>('GET', '/api/v1/webhooks/');
    expect(get.body.data).toMatchObject({
      url: receiver.url('/hooks/svc'),
      status: 'ACTIVE',
      challengeError: null,
    });
  });

  it.each<[string, Answer, string]>([
    ['a wrong answer', { body: 'nope' }, 'the receiver did not answer with the challenge string'],
    ['an answer after 1.2 s', { delayMs: 1200 }, 'timeout: no status line within 1000 ms'],
    ['HTTP 503', { status: 503 }, 'the receiver answered HTTP 503, not 200'],
  ])(
    'refuses a new secret on the same url when the challenge gets %s (409, nothing stored)',
    async (_n, answer, reason) => {
      const [before] = await endpointRows(org.orgId);
      receiver.responder = () => answer;
      // Bearer: the same signed body in the same second would be refused as a replay.
      const response = await org.bearer('POST', '/api/v1/webhooks/', {
        body: { url: receiver.url('/hooks/svc'), secret: NEW_SECRET },
      });
      expect(response.status).toBe(409);
      expect(response.body.error).toContain(`(${reason})`);
      expect(await endpointRows(org.orgId)).toEqual([before]);
      expect(decryptSecret(api.config.masterKey, before!.secret_ciphertext)).toBe(SECRET);
    },
  );

  it('changes the url and the secret when the new challenge passes; a pause ends with the old endpoint', async () => {
    const next = await TestReceiver.start(NEW_SECRET);
    try {
      const pausedUntil = async () =>
        (await org.bearer<{ pausedUntil: string | null }>('GET', '/api/v1/webhooks/')).body.data?.pausedUntil;
      await api.rows(
        "UPDATE webhook_endpoints SET paused_until = now() - interval '1 second' WHERE org_id = $1",
        [org.orgId],
      );
      expect(await pausedUntil()).toBeNull(); // over
      await api.rows(
        "UPDATE webhook_endpoints SET paused_until = now() + interval '1 hour' WHERE org_id = $1",
        [org.orgId],
      );
      const [stored] = await endpointRows(org.orgId);
      expect(await pausedUntil()).toBe(stored!.paused_until!.toISOString());
      const response = await org.signed<WebhookData & { pausedUntil: string | null }>(
        'POST',
        '/api/v1/webhooks/',
        {
          body: { url: next.url('/next'), secret: NEW_SECRET },
        },
      );
      expect(response.status).toBe(200);
      expect(response.body.data).toMatchObject({
        url: next.url('/next'),
        status: 'ACTIVE',
        challengePassed: true,
        pausedUntil: null,
      });
      expect(next.requests).toHaveLength(1);
      expect(next.requests[0]!.verified).toBe(true);
      const [row] = await endpointRows(org.orgId);
      expect(row).toMatchObject({ url: next.url('/next'), status: 'ACTIVE', paused_until: null });
      expect(decryptSecret(api.config.masterKey, row!.secret_ciphertext)).toBe(NEW_SECRET);
      // Back to the first receiver and secret, for the tests below.
      await org.bearer('POST', '/api/v1/webhooks/', {
        body: { url: receiver.url('/hooks/svc'), secret: SECRET },
      });
      expect((await endpointRows(org.orgId))[0]?.status).toBe('ACTIVE');
    } finally {
      await next.close();
    }
  });

  it("leaves another organisation's ACTIVE endpoint alone", async () => {
    const other = await api.createOrg({ kycDomain: 'localhost' });
    await other.signed('POST', '/api/v1/webhooks/', {
      body: { url: receiver.url('/theirs'), secret: SECRET },
    });
    const [theirs] = await endpointRows(other.orgId);
    await org.bearer('POST', '/api/v1/webhooks/', {
      body: { url: receiver.url('/mine'), secret: NEW_SECRET },
    });
    receiver.responder = () => ({ status: 500 });
    await org.bearer('POST', '/api/v1/webhooks/', { body: { url: receiver.url('/mine2'), secret: SECRET } });
    expect(await endpointRows(other.orgId)).toEqual([theirs]);
  });

  describe('a first registration (no ACTIVE endpoint yet)', () => {
    it('stores a failed challenge as CHALLENGE_FAILED with the reason (200), then lets a later one replace it', async () => {
      const fresh = await api.createOrg({ kycDomain: 'localhost' });
      receiver.responder = () => ({ body: 'not the challenge' });
      const failed = await fresh.signed<WebhookData>('POST', '/api/v1/webhooks/', {
        body: { url: receiver.url('/first'), secret: SECRET },
      });
      expect(failed.status).toBe(200);
      expect(failed.body.data).toMatchObject({
        url: receiver.url('/first'),
        status: 'CHALLENGE_FAILED',
        challengePassed: false,
        challengeError: 'the receiver did not answer with the challenge string',
      });
      expect(await endpointRows(fresh.orgId)).toMatchObject([
        { url: receiver.url('/first'), status: 'CHALLENGE_FAILED' },
      ]);
      receiver.responder = () => ({ status: 500 });
      const again = await fresh.bearer<WebhookData>('POST', '/api/v1/webhooks/', {
        body: { url: receiver.url('/second'), secret: SECRET },
      });
      expect(again.body.data).toMatchObject({
        url: receiver.url('/second'),
        status: 'CHALLENGE_FAILED',
        challengeError: 'the receiver answered HTTP 500, not 200',
      });
      receiver.responder = () => ({});
      const passed = await fresh.bearer<WebhookData>('POST', '/api/v1/webhooks/', {
        body: { url: receiver.url('/third'), secret: SECRET },
      });
      expect(passed.body.data).toMatchObject({
        url: receiver.url('/third'),
        status: 'ACTIVE',
        challengeError: null,
      });
      expect(await endpointRows(fresh.orgId)).toHaveLength(1);
    });

    it('fails the challenge when the answer takes longer than 1 s', async () => {
      const fresh = await api.createOrg({ kycDomain: 'localhost' });
      receiver.responder = () => ({ delayMs: 1200 });
      const started = Date.now();
      const response = await fresh.signed<WebhookData>('POST', '/api/v1/webhooks/', {
        body: { url: receiver.url(), secret: SECRET },
      });
      expect(Date.now() - started).toBeLessThan(1150 + 500);
      expect(response.body.data).toMatchObject({
        status: 'CHALLENGE_FAILED',
        challengePassed: false,
        challengeError: 'timeout: no status line within 1000 ms',
      });
    });

    it('fails the challenge on an answer other than 200', async () => {
      const fresh = await api.createOrg({ kycDomain: 'localhost' });
      receiver.responder = () => ({ status: 201 });
      const response = await fresh.signed<WebhookData>('POST', '/api/v1/webhooks/', {
        body: { url: receiver.url(), secret: SECRET },
      });
      expect(response.body.data).toMatchObject({
        challengePassed: false,
        challengeError: 'the receiver answered HTTP 201, not 200',
      });
    });
  });

  it('refuses a STANDARD organisation with 403 and stores nothing', async () => {
    const standard = await api.createOrg({ plan: 'STANDARD', kycDomain: 'localhost' });
    const before = receiver.requests.length;
    const response = await standard.signed('POST', '/api/v1/webhooks/', {
      body: { url: receiver.url(), secret: SECRET },
    });
    expect(response.status).toBe(403);
    expect(response.body).toEqual({
      code: 403,
      data: null,
      error: 'Forbidden: webhooks are offered on the ENTERPRISE plan only',
    });
    expect(await endpoints(standard.orgId)).toHaveLength(0);
    expect(receiver.requests).toHaveLength(before);
  });

  it.each([
    [{ secret: SECRET }, 'url should not be null or undefined'],
    [{ url: 5, secret: SECRET }, 'url must be a string'],
    [{ url: 'http://localhost/x' }, 'secret should not be null or undefined'],
    [{ url: 'http://localhost/x', secret: 'short' }, 'secret must be 16 to 512 characters'],
    [{ url: 'not a url', secret: SECRET }, 'url: url must be an absolute http(s) URL'],
    [{ url: 'http://evil.com/x', secret: SECRET }, 'url: url host must be localhost or a subdomain of it'],
  ])('answers 400 for %j', async (body, message) => {
    const response = await org.signed('POST', '/api/v1/webhooks/', { body });
    expect(response.status).toBe(400);
    expect(response.body.error).toContain(message);
  });

  it('needs BASE_MODULE:WRITE to register and BASE_MODULE:READ to read', async () => {
    const read = await org.bearer('POST', '/api/v1/webhooks/', {
      body: { url: receiver.url(), secret: SECRET },
      scopes: ['BASE_MODULE:READ'],
    });
    expect(read.status).toBe(401);
    expect(read.body).toMatchObject({ status: 401 });
    const get = await org.bearer('GET', '/api/v1/webhooks/', { scopes: ['BASE_MODULE:READ'] });
    expect(get.status).toBe(200);
  });

  it('deletes the endpoint; then GET answers 404', async () => {
    const other = await api.createOrg({ kycDomain: 'localhost' });
    await other.signed('POST', '/api/v1/webhooks/', { body: { url: receiver.url(), secret: SECRET } });
    const response = await other.signed('DELETE', '/api/v1/webhooks/');
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({ url: receiver.url(), deleted: true });
    expect(await endpoints(other.orgId)).toHaveLength(0);
    // Bearer calls: the signature covers no method, so a signed GET after a signed DELETE of the same path
    // in the same second would be a replay.
    expect((await other.bearer('GET', '/api/v1/webhooks/')).status).toBe(404);
    expect((await other.bearer('DELETE', '/api/v1/webhooks/')).status).toBe(404);
  });
});

describe('webhooks registration (production configuration: https, public addresses only)', () => {
  let api: ApiFixture;
  let receiver: TestReceiver;
  beforeAll(async () => {
    api = await ApiFixture.start();
    receiver = await TestReceiver.start(SECRET);
  });
  afterAll(async () => {
    await receiver.close();
    await api.close();
  });

  it.each([
    ['http', 'example.com', 'http://hooks.example.com/x', 'url: url must use https'],
    [
      'a host outside the KYC domain',
      'example.com',
      'https://example.com.evil.net/x',
      'url host must be example.com or a subdomain of it',
    ],
    ['loopback', '127.0.0.1', 'https://127.0.0.1/x', 'url: 127.0.0.1 is not a public address'],
    ['IPv6 loopback', '::1', 'https://[::1]/x', 'url: ::1 is not a public address'],
    ['a private range', '10.1.2.3', 'https://10.1.2.3/x', 'url: 10.1.2.3 is not a public address'],
    [
      'another private range',
      '192.168.1.1',
      'https://192.168.1.1/',
      'url: 192.168.1.1 is not a public address',
    ],
    ['link-local', '169.254.1.1', 'https://169.254.1.1/', 'url: 169.254.1.1 is not a public address'],
    [
      'the metadata address',
      '169.254.169.254',
      'https://169.254.169.254/latest/meta-data/',
      'url: 169.254.169.254 is not a public address',
    ],
    [
      'a name that resolves to loopback',
      'localhost',
      'https://localhost/x',
      'url: localhost resolves to 127.0.0.1, which is not a public address',
    ],
  ])('refuses %s with 400, sending nothing and storing nothing', async (_name, kycDomain, url, message) => {
    const org = await api.createOrg({ kycDomain });
    const before = receiver.requests.length;
    const response = await org.signed('POST', '/api/v1/webhooks/', { body: { url, secret: SECRET } });
    expect(response.status).toBe(400);
    expect(response.body.error).toContain(message);
    expect(receiver.requests).toHaveLength(before);
    const rows = await api.rows('SELECT 1 FROM webhook_endpoints WHERE org_id = $1', [org.orgId]);
    expect(rows).toHaveLength(0);
  });
});

describe('webhooks registration: redirects are not followed', () => {
  it('fails the challenge on a redirect, even one to a blocked address, and never calls the target', async () => {
    // Production rules, with one exception so the first receiver is reachable: 127.0.0.1 only.
    const api = await ApiFixture.start({
      WEBHOOK_ALLOW_HTTP: 'true',
      WEBHOOK_ALLOWED_NETWORKS: '127.0.0.1/32',
    });
    const target = await TestReceiver.start(SECRET, () => ({}), '127.0.0.2');
    const receiver = await TestReceiver.start(SECRET, () => ({
      status: 302,
      headers: { location: target.url('/x', '127.0.0.2') },
    }));
    try {
      const org = await api.createOrg({ kycDomain: '127.0.0.1' });
      const response = await org.signed<WebhookData>('POST', '/api/v1/webhooks/', {
        body: { url: receiver.url('/hook', '127.0.0.1'), secret: SECRET },
      });
      expect(response.body.data).toMatchObject({
        status: 'CHALLENGE_FAILED',
        challengeError: 'the receiver answered HTTP 302, not 200',
      });
      expect(receiver.requests).toHaveLength(1);
      expect(target.requests).toHaveLength(0);
    } finally {
      await target.close();
      await receiver.close();
      await api.close();
    }
  });
});
