// Authentication against the real api: the OAuth token is cached, replaced before it expires and once
// after a 401; permission and authentication refusals are typed; signed requests never repeat a signature.
import { signedRequestHeaders } from '@svc/protocol';

import { SvcAuthenticationError, SvcClient, SvcPermissionError } from '../src/index.js';
import {
  admin,
  createOrg,
  oauthClient,
  recordingFetch,
  services,
  signedClient,
  type OrgCredentials,
} from './support/fixture.js';

const isToken = (url: string) => url.endsWith('/api/v1/oauth/token');

describe('OAuth client credentials', () => {
  it('asks for one token, shared by concurrent calls and reused while valid', async () => {
    const { fetch, exchanges } = recordingFetch();
    const client = oauthClient('BASE_MODULE:READ', { fetch });
    await Promise.all([client.org.get(), client.org.get(), client.org.get()]);
    await client.org.get();
    expect(exchanges.filter((e) => isToken(e.url))).toHaveLength(1);
    const bearers = new Set(exchanges.filter((e) => !isToken(e.url)).map((e) => e.headers.authorization));
    expect(bearers.size).toBe(1);
    expect([...bearers][0]).toMatch(/^Bearer at_/);
  });

  it('replaces the token before it expires, without waiting for a 401', async () => {
    // The api issues 60 s tokens in this run; the client's clock moves instead of the test waiting.
    let offset = 0;
    const { fetch, exchanges } = recordingFetch();
    const client = oauthClient('BASE_MODULE:READ', { fetch, now: () => Date.now() + offset });
    await client.org.get();
    offset = 29_000; // still more than the 30 s margin (half of 60 s) before expiry
    await client.org.get();
    expect(exchanges.filter((e) => isToken(e.url))).toHaveLength(1);
    offset = 31_000;
    await client.org.get();
    expect(exchanges.filter((e) => isToken(e.url))).toHaveLength(2);
    expect(exchanges.every((e) => e.status === 200)).toBe(true);
  });

  it('fetches a new token once after a 401 (tokens revoked) and repeats the call', async () => {
    const org: OrgCredentials = await createOrg();
    const { fetch, exchanges } = recordingFetch();
    const client = new SvcClient({
      baseUrl: services().baseUrl,
      clientId: org.clientId,
      clientSecret: org.clientSecret,
      scopes: ['BASE_MODULE:WRITE'],
      fetch,
    });
    expect(await client.oauth.test({ n: 1 })).toEqual({ n: 1 });
    expect(await admin('POST', `/api/v1/admin/orgs/${org.orgId}/tokens/revoke`, {})).toEqual({ revoked: 1 });

    expect(await client.oauth.test({ n: 2 })).toEqual({ n: 2 });
    expect(exchanges.map((e) => [isToken(e.url) ? 'token' : 'test', e.status])).toEqual([
      ['token', 200],
      ['test', 200],
      ['test', 401],
      ['token', 200],
      ['test', 200],
    ]);
  });

  it('does not loop on a 401: a client revoked for good fails with SvcAuthenticationError', async () => {
    const org = await createOrg();
    const { fetch, exchanges } = recordingFetch();
    const client = new SvcClient({
      baseUrl: services().baseUrl,
      clientId: org.clientId,
      clientSecret: org.clientSecret,
      scopes: 'BASE_MODULE:READ',
      fetch,
    });
    await client.org.get();
    await admin('POST', `/api/v1/admin/orgs/${org.orgId}/oauth-clients/${org.clientId}/revoke`, {});
    const error = await client.org.get().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SvcAuthenticationError);
    expect((error as SvcAuthenticationError).status).toBe(401);
    // Refused call, then one new token asked for and refused (docs/api-guide.md#oauth-client-credentials: 401
    // "Forbidden"); no more.
    expect(exchanges.slice(2).map((e) => [isToken(e.url) ? 'token' : 'org', e.status])).toEqual([
      ['org', 401],
      ['token', 401],
    ]);
    expect((error as SvcAuthenticationError).errorText).toBe('Forbidden');
  });

  it('a scope the client was not granted: SvcAuthenticationError with the text Forbidden', async () => {
    const org = await createOrg('BASE_MODULE:READ');
    const client = new SvcClient({
      baseUrl: services().baseUrl,
      clientId: org.clientId,
      clientSecret: org.clientSecret,
      scopes: 'BASE_MODULE:WRITE MANAGE_USERS:WRITE',
    });
    const error = await client.org.get().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SvcAuthenticationError);
    expect(error).toMatchObject({ status: 401, errorText: 'Forbidden', path: '/api/v1/oauth/token' });
  });

  it('a token without the route scope: SvcPermissionError from the {message, status} body', async () => {
    const client = oauthClient('BASE_MODULE:READ');
    const error = await client.oauth.test({ a: 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SvcPermissionError);
    const permission = error as SvcPermissionError;
    expect(permission.status).toBe(401);
    expect(permission.requiredScope).toBe('BASE_MODULE:WRITE');
    expect(permission.errorText).toMatch(/not authorized/);
    expect(permission.requestId).toEqual(expect.any(String));
  });

  it('refuses unknown scopes when it is built, naming the scope', () => {
    const { baseUrl, clientId, clientSecret } = services();
    expect(() => new SvcClient({ baseUrl, clientId, clientSecret, scopes: 'BASE_MODULE:ADMIN' })).toThrow(
      /Unknown scope "BASE_MODULE:ADMIN"/,
    );
  });
});

describe('API key and signature', () => {
  it('identical requests in the same second all pass: the timestamp moves ahead instead of repeating a signature', async () => {
    const { fetch, exchanges } = recordingFetch();
    const client = signedClient({ fetch });
    const answers = await Promise.all(Array.from({ length: 8 }, () => client.org.get()));
    expect(answers.every((org) => org.orgId === services().orgId)).toBe(true);
    const signatures = new Set(exchanges.map((e) => e.headers['x-signature']));
    expect(signatures.size).toBe(8);
    const timestamps = new Set(exchanges.map((e) => e.headers['x-timestamp']));
    expect(timestamps.size).toBe(8);
    expect(exchanges.every((e) => e.status === 200)).toBe(true);
  });

  it('the api does refuse a repeated signature, which is why the client never sends one', async () => {
    const { fetch, exchanges } = recordingFetch();
    await signedClient({ fetch }).org.get();
    const first = exchanges[0]!;
    const replay = await globalThis.fetch(first.url, { headers: first.headers });
    expect(replay.status).toBe(401);
  });

  it('two clients with one key in one process share the signatures sent, so they never collide', async () => {
    const { fetch, exchanges } = recordingFetch();
    const [a, b] = [signedClient({ fetch }), signedClient({ fetch })];
    await Promise.all([a.org.get(), b.org.get(), a.org.get(), b.org.get()]);
    expect(exchanges.map((e) => e.status)).toEqual([200, 200, 200, 200]);
  });

  it('another process signed the same request in the same second: the 401 is repeated once, signed afresh', async () => {
    const org = await createOrg();
    const { baseUrl } = services();
    const frozen = Date.now();
    // The other process: the same key, the same request, the same second, sent first.
    const other = signedRequestHeaders(
      { path: '/api/v1/org/', timestamp: String(Math.floor(frozen / 1000)) },
      { apiKey: org.apiKey, apiSecret: org.apiSecret },
    );
    expect((await globalThis.fetch(`${baseUrl}/api/v1/org/`, { headers: other })).status).toBe(200);

    const { fetch, exchanges } = recordingFetch();
    const client = new SvcClient({
      baseUrl,
      apiKey: org.apiKey,
      apiSecret: org.apiSecret,
      fetch,
      now: () => frozen,
    });
    expect((await client.org.get()).orgId).toBe(org.orgId);
    expect(exchanges.map((e) => e.status)).toEqual([401, 200]);
    expect(exchanges[0]!.headers['x-signature']).toBe(other['x-signature']);
    expect(Number(exchanges[1]!.headers['x-timestamp'])).toBe(Math.floor(frozen / 1000) + 1);
  });

  it('a wrong secret: SvcAuthenticationError with the api text, after one fresh repeat', async () => {
    const { baseUrl, apiKey } = services();
    const { fetch, exchanges } = recordingFetch();
    const client = new SvcClient({ baseUrl, apiKey, apiSecret: 'sk_wrong', fetch });
    const error = await client.org.get().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SvcAuthenticationError);
    expect((error as SvcAuthenticationError).errorText).toMatch(/X-SIGNATURE does not match/);
    expect(exchanges.map((e) => e.status)).toEqual([401, 401]);
    expect(exchanges[0]!.headers['x-signature']).not.toBe(exchanges[1]!.headers['x-signature']);
  });

  it('a 403 (webhooks need the ENTERPRISE plan) is an SvcPermissionError', async () => {
    const org = await admin<{ orgId: number }>('POST', '/api/v1/admin/orgs/', {
      name: 'Standard org',
      kycDomain: 'localhost',
      plan: 'STANDARD',
    });
    const key = await admin<{ apiKey: string; apiSecret: string }>(
      'POST',
      `/api/v1/admin/orgs/${org.orgId}/api-keys/`,
      {},
    );
    const client = new SvcClient({ baseUrl: services().baseUrl, ...key });
    const error = await client.webhooks
      .register({ url: 'http://localhost:9/hook', secret: 'whsec_0123456789abcdef' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SvcPermissionError);
    expect((error as SvcPermissionError).status).toBe(403);
    expect((error as SvcPermissionError).requiredScope).toBeUndefined();
  });
});
