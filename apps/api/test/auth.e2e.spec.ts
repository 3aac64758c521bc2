// Authentication end to end: the API guide's examples and every way a request can fail to authenticate.
import { signRequest } from '@svc/protocol';

import { ApiFixture, type OrgSession } from './support/app-fixture.js';

describe('authentication', () => {
  let api: ApiFixture;
  let org: OrgSession;

  beforeAll(async () => {
    api = await ApiFixture.start();
    org = await api.createOrg();
  });
  afterAll(() => api.close());

  const nowSeconds = () => Math.floor(Date.now() / 1000);

  /** A signed POST /api/v1/user/ with its headers built by hand, so each one can be spoilt. */
  function signedCreate(orgUserId: string, overrides: { timestamp?: string; signature?: string } = {}) {
    const body = JSON.stringify({ orgUserId, kyc: false, tnc: true });
    const timestamp = overrides.timestamp ?? String(nowSeconds());
    const signature =
      overrides.signature ?? signRequest({ path: '/api/v1/user/', body, timestamp }, org.apiSecret);
    return { body, headers: { 'x-api-key': org.apiKey, 'x-timestamp': timestamp, 'x-signature': signature } };
  }

  const userCount = async (orgUserId: string) =>
    (await api.rows('SELECT 1 FROM users WHERE org_user_id = $1', [orgUserId])).length;

  describe('spec examples', () => {
    it('4.3: POST /api/v1/user/ with the API key headers answers 200 with the envelope', async () => {
      const response = await org.signed('POST', '/api/v1/user/', {
        body: { orgUserId: 'spec-1', kyc: false, tnc: true },
      });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ code: 200, error: null });
      expect(response.body.data).toMatchObject({
        orgUserId: 'spec-1',
        orgId: org.orgId,
        kyc: false,
        tnc: true,
      });
      expect(await userCount('spec-1')).toBe(1);
    });

    it('5.1 item 8: a timestamp one hour ahead is accepted', async () => {
      const { body, headers } = signedCreate('ahead-1', { timestamp: String(nowSeconds() + 3600) });
      const response = await api.request('POST', '/api/v1/user/', { rawBody: body, headers });
      expect(response.status).toBe(200);
    });

    it('4.4: GET /api/v1/org/ with the API key headers answers the organisation', async () => {
      const response = await org.signed('GET', '/api/v1/org/');
      expect(response.status).toBe(200);
      expect(response.body.data).toMatchObject({ orgId: org.orgId, plan: 'ENTERPRISE' });
    });

    it('4.4: GET /api/v1/org/ takes optional query parameters, which are signed', async () => {
      const response = await org.signed('GET', '/api/v1/org/?include=policy&b=2&b=1');
      expect(response.status).toBe(200);
    });

    it('4.1: the token response is the envelope of {access_token, expires_in, token_type, scope}, not cached', async () => {
      const response = await api.request('POST', '/api/v1/oauth/token', {
        rawBody: `grant_type=client_credentials&client_id=${org.clientId}&client_secret=${org.clientSecret}&scope=BASE_MODULE%3AREAD`,
        contentType: 'application/x-www-form-urlencoded',
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(Object.keys(response.body)).toEqual(['code', 'data', 'error']);
      const data = response.body.data as { access_token: string };
      expect(data.access_token).toMatch(/^at_[A-Za-z0-9_-]{43}$/);
      expect(data).toEqual({
        access_token: data.access_token,
        expires_in: 3600,
        token_type: 'Bearer',
        scope: 'BASE_MODULE:READ',
      });
    });

    it('4.1: asking for a scope the client was not granted answers 401 Forbidden', async () => {
      const limited = await api.createOrg({ scopes: ['BASE_MODULE:READWRITE'] });
      const response = await api.request('POST', '/api/v1/oauth/token', {
        rawBody: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: limited.clientId,
          client_secret: limited.clientSecret,
          scope: 'BASE_MODULE:WRITE MANAGE_USERS:WRITE',
        }).toString(),
        contentType: 'application/x-www-form-urlencoded',
      });
      expect(response.status).toBe(401);
      expect(response.text).toBe('{"code":401,"data":null,"error":"Forbidden"}');
    });

    it('4.2: the test endpoint echoes the body for BASE_MODULE:WRITE and READWRITE, keys in the order sent', async () => {
      for (const scope of ['BASE_MODULE:WRITE', 'BASE_MODULE:READWRITE'] as const) {
        const response = await org.bearer('POST', '/api/v1/oauth/test', {
          rawBody: '{"b": 1, "10": {"a": 55.50}, "2": [true]}',
          scopes: [scope],
        });
        expect(response.status).toBe(200);
        expect(response.text).toBe('{"code":200,"data":{"b":1,"10":{"a":55.5},"2":[true]},"error":null}');
      }
    });

    it('4.2: the echo, which reads its body as text, still takes a token from the body and refuses bad bodies', async () => {
      // Passport's bearer strategy reads access_token in a JSON body: the echo's text-only body keeps that.
      const token = await org.token(['BASE_MODULE:WRITE']);
      const fromBody = await api.request('POST', '/api/v1/oauth/test', {
        rawBody: `{"access_token":"${token}","n":1.50}`,
      });
      expect(fromBody.status).toBe(200);
      expect(fromBody.text).toBe(`{"code":200,"data":{"access_token":"${token}","n":1.5},"error":null}`);
      for (const [rawBody, error] of [
        ['{"__proto__":{"a":1}}', 'is not accepted anywhere in a body'],
        ['{"a":1,"a":2}', 'duplicate'],
        ['{"a":', 'body:'],
      ] as const) {
        const refused = await org.bearer('POST', '/api/v1/oauth/test', {
          rawBody,
          scopes: ['BASE_MODULE:WRITE'],
        });
        expect(refused.status).toBe(400);
        expect((refused.body as { error: string }).error).toContain(error);
      }
    });

    it('4.2 and 7: with only READ the test endpoint answers 401 {message, status}, not the envelope', async () => {
      const response = await org.bearer('POST', '/api/v1/oauth/test', {
        body: { a: 1 },
        scopes: ['BASE_MODULE:READ'],
      });
      expect(response.status).toBe(401);
      expect(Object.keys(response.body)).toEqual(['message', 'status']);
      expect(response.body.status).toBe(401);
      expect(response.body.message).toMatch(/not authorized/);
      expect(response.headers.get('www-authenticate')).toBe(
        'Bearer error="insufficient_scope", scope="BASE_MODULE:WRITE"',
      );
    });
  });

  describe('API key and signature failures: 401 envelope naming the reason, nothing stored', () => {
    it.each([
      ['x-api-key', 'The X-API-KEY header is missing'],
      ['x-timestamp', 'The X-TIMESTAMP header is missing'],
      ['x-signature', 'The X-SIGNATURE header is missing'],
    ])('missing %s', async (header, message) => {
      const { body, headers } = signedCreate(`missing-${header}`);
      const response = await api.request('POST', '/api/v1/user/', {
        rawBody: body,
        headers: Object.fromEntries(Object.entries(headers).filter(([name]) => name !== header)),
      });
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ code: 401, data: null, error: `Unauthorized: ${message}` });
      expect(await userCount(`missing-${header}`)).toBe(0);
    });

    // Timestamps are made when the test runs, not when the table is built. The one ahead is a minute past
    // the window: a request that waits seconds on a loaded machine must still be refused.
    it.each([
      [
        'a malformed timestamp',
        () => ({ timestamp: '12:00' }),
        'X-TIMESTAMP must be Unix time in whole seconds',
      ],
      [
        'a stale timestamp',
        () => ({ timestamp: String(nowSeconds() - 301) }),
        'X-TIMESTAMP is more than 300 s in the past',
      ],
      [
        'a timestamp too far ahead',
        () => ({ timestamp: String(nowSeconds() + 3960) }),
        'X-TIMESTAMP is more than 3900 s in the future',
      ],
      ['a wrong signature', () => ({ signature: 'f'.repeat(64) }), 'X-SIGNATURE does not match the request'],
    ])('%s', async (name, makeOverrides: () => { timestamp?: string; signature?: string }, message) => {
      const id = `bad-${name.replace(/ /g, '-')}`;
      const overrides = makeOverrides();
      const spoilt = signedCreate(id, overrides);
      // A wrong timestamp is signed correctly, so only the window refuses it.
      const { body, headers } = overrides.timestamp
        ? spoilt
        : { ...spoilt, headers: { ...spoilt.headers, 'x-signature': overrides.signature ?? '' } };
      const response = await api.request('POST', '/api/v1/user/', { rawBody: body, headers });
      expect(response.status).toBe(401);
      expect(response.body.error).toContain(message);
      expect(await userCount(id)).toBe(0);
    });

    it('an unknown API key', async () => {
      const { body, headers } = signedCreate('unknown-key');
      const response = await api.request('POST', '/api/v1/user/', {
        rawBody: body,
        headers: { ...headers, 'x-api-key': 'pk_does-not-exist' },
      });
      expect(response.status).toBe(401);
      expect(response.body.error).toBe('Unauthorized: unknown or revoked X-API-KEY');
    });

    it('a replayed request: the same signature is accepted once', async () => {
      const { body, headers } = signedCreate('replay-1');
      expect((await api.request('POST', '/api/v1/user/', { rawBody: body, headers })).status).toBe(200);
      const again = await api.request('POST', '/api/v1/user/', { rawBody: body, headers });
      expect(again.status).toBe(401);
      expect(again.body.error).toBe(
        'Unauthorized: this signature was already used: sign each request afresh',
      );
      expect(await userCount('replay-1')).toBe(1);
    });

    it('a body signed with other key order is refused, since the order is signed', async () => {
      const timestamp = String(nowSeconds());
      const signed = '{"orgUserId":"order-1","kyc":false,"tnc":true}';
      const sent = '{"kyc":false,"orgUserId":"order-1","tnc":true}';
      const signature = signRequest({ path: '/api/v1/user/', body: signed, timestamp }, org.apiSecret);
      const response = await api.request('POST', '/api/v1/user/', {
        rawBody: sent,
        headers: { 'x-api-key': org.apiKey, 'x-timestamp': timestamp, 'x-signature': signature },
      });
      expect(response.status).toBe(401);
    });

    it('a body with a duplicate key is a 400 naming it (a client cannot even sign it)', async () => {
      const { headers } = signedCreate('dup-1');
      const response = await api.request('POST', '/api/v1/user/', {
        rawBody: '{"orgUserId":"dup-1","orgUserId":"dup-2","kyc":false,"tnc":true}',
        headers,
      });
      expect(response.status).toBe(400);
      expect(response.body.error).toContain('duplicate key "orgUserId"');
      expect(await userCount('dup-1')).toBe(0);
      expect(await userCount('dup-2')).toBe(0);
    });

    it('a revoked key is refused within 1 s', async () => {
      const other = await api.createOrg();
      expect((await other.signed('GET', '/api/v1/org/')).status).toBe(200);
      await api.rows('UPDATE api_keys SET revoked_at = now() WHERE key = $1', [other.apiKey]);
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const response = await other.signed('GET', '/api/v1/org/');
      expect(response.status).toBe(401);
      expect(response.body.error).toBe('Unauthorized: unknown or revoked X-API-KEY');
    });
  });

  describe('bearer failures', () => {
    it('an unknown token', async () => {
      const response = await api.request('GET', '/api/v1/org/', {
        headers: { authorization: 'Bearer at_nope' },
      });
      expect(response.status).toBe(401);
      expect(response.body.error).toBe('Unauthorized: the access token is invalid, expired or revoked');
      expect(response.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
    });

    it('an expired token', async () => {
      const token = await org.token(['BASE_MODULE:READ']);
      await api.rows("UPDATE oauth_tokens SET expires_at = now() - interval '1 second'");
      await new Promise((resolve) => setTimeout(resolve, 600));
      const response = await api.request('GET', '/api/v1/org/', {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(response.status).toBe(401);
    });

    it('a revoked token, and every token of a revoked client, within 1 s', async () => {
      const other = await api.createOrg();
      const first = await other.token(['BASE_MODULE:READ']);
      const second = await other.token(['BASE_MODULE:READ']);
      const call = (token: string) =>
        api.request('GET', '/api/v1/org/', { headers: { authorization: `Bearer ${token}` } });
      expect((await call(first)).status).toBe(200);
      expect((await call(second)).status).toBe(200);
      await api.rows(
        'UPDATE oauth_tokens SET revoked_at = now() WHERE org_id = $1 AND id = (SELECT min(id::text)::uuid FROM oauth_tokens WHERE org_id = $1)',
        [other.orgId],
      );
      await api.rows('UPDATE oauth_clients SET revoked_at = now() WHERE client_id = $1', [other.clientId]);
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect((await call(first)).status).toBe(401);
      expect((await call(second)).status).toBe(401);
    });

    it('no credentials at all', async () => {
      const response = await api.request('GET', '/api/v1/org/');
      expect(response.status).toBe(401);
      expect(response.body).toMatchObject({ code: 401, data: null });
    });
  });

  describe('token endpoint', () => {
    const form = (fields: Record<string, string>) => ({
      rawBody: new URLSearchParams(fields).toString(),
      contentType: 'application/x-www-form-urlencoded',
    });

    it('accepts HTTP Basic client authentication (RFC 6749 2.3.1)', async () => {
      const basic = Buffer.from(`${org.clientId}:${org.clientSecret}`).toString('base64');
      const response = await api.request('POST', '/api/v1/oauth/token', {
        ...form({ grant_type: 'client_credentials', scope: 'BASE_MODULE:READ' }),
        headers: { authorization: `Basic ${basic}` },
      });
      expect(response.status).toBe(200);
    });

    it('refuses a wrong secret with 401 Forbidden and stores no token', async () => {
      const before = (await api.rows('SELECT 1 FROM oauth_tokens')).length;
      const response = await api.request(
        'POST',
        '/api/v1/oauth/token',
        form({
          grant_type: 'client_credentials',
          client_id: org.clientId,
          client_secret: 'cs_wrong',
          scope: 'BASE_MODULE:READ',
        }),
      );
      expect(response.status).toBe(401);
      expect(response.body.error).toBe('Forbidden');
      expect((await api.rows('SELECT 1 FROM oauth_tokens')).length).toBe(before);
    });

    it.each([
      [
        { client_id: 'x', client_secret: 'y', scope: 'BASE_MODULE:READ' },
        'grant_type must be client_credentials',
      ],
      [
        { grant_type: 'password', client_id: 'x', client_secret: 'y', scope: 'BASE_MODULE:READ' },
        'grant_type must be client_credentials',
      ],
      [{ grant_type: 'client_credentials', client_id: 'x', client_secret: 'y' }, 'scope'],
      [
        { grant_type: 'client_credentials', client_id: 'x', client_secret: 'y', scope: 'NOPE:READ' },
        'Unknown scope "NOPE:READ"',
      ],
      [
        { grant_type: 'client_credentials', client_secret: 'y', scope: 'BASE_MODULE:READ' },
        'client_id is required',
      ],
      [
        { grant_type: 'client_credentials', client_id: 'x', scope: 'BASE_MODULE:READ' },
        'client_secret is required',
      ],
    ])('answers 400 naming the field for %j', async (fields, message) => {
      const response = await api.request('POST', '/api/v1/oauth/token', form(fields));
      expect(response.status).toBe(400);
      expect(response.body.error).toContain(message);
    });

    it('rate limits per address: 429 with Retry-After', async () => {
      const limited = await ApiFixture.start({ TOKEN_RATE_LIMIT_PER_MINUTE: '3' });
      try {
        const session = await limited.createOrg();
        const ask = () =>
          limited.request(
            'POST',
            '/api/v1/oauth/token',
            form({
              grant_type: 'client_credentials',
              client_id: session.clientId,
              client_secret: 'wrong',
              scope: 'BASE_MODULE:READ',
            }),
          );
        for (let i = 0; i < 3; i++) expect((await ask()).status).toBe(401);
        const refused = await ask();
        expect(refused.status).toBe(429);
        expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
        expect(refused.body).toMatchObject({ code: 429, data: null });
      } finally {
        await limited.close();
      }
    });
  });
});
