// A dashboard session holds only what the credential that asked for its link may do, and lasts only while
// that credential does (docs/dashboard.md#what-a-session-may-do): a token's link may not name a permission
// or a page needing a scope the token lacks (403 naming the scope, nothing stored); a link without pages
// gets only the pages its creator may read; revoking the API key or OAuth client that asked for a link ends
// the link and its session, on every instance, from the next request.
import type { Scope } from '@svc/protocol';

import { ApiFixture, type OrgSession, type TestResponse } from '../support/app-fixture.js';
import {
  ALL_PERMISSIONS,
  DashboardClient,
  type Page,
  READWRITE_SCOPES,
  seedOrganisation,
  type SeededData,
} from '../support/dashboard-session.js';

// Seeding an organisation through the api and a second instance take a while on a loaded machine.
jest.setTimeout(60_000);

const ALL_PAGES: readonly Page[] = [
  'OVERVIEW',
  'WEBHOOK',
  'EVENTS',
  'USERS',
  'ORDERS',
  'CREDENTIALS',
  'CATALOGUE',
];

interface LinkAnswer {
  readonly url: string;
  readonly permissions: string[];
  readonly pages: string[];
}

interface StoredLink {
  readonly permissions: string[];
  readonly pages: string[];
  readonly api_key_id: string | null;
  readonly oauth_client_id: string | null;
}

describe('dashboard sessions within their creator’s rights', () => {
  let api: ApiFixture;
  let org: OrgSession;
  let data: SeededData;
  /** A bearer token of `org`'s client for each set of scopes, asked for once (the token endpoint is rate-limited). */
  const tokens = new Map<string, Promise<string>>();

  beforeAll(async () => {
    api = await ApiFixture.start();
    org = await api.createOrg({ name: 'Alpha Brokers' });
    data = await seedOrganisation(org, 'alpha');
  });

  afterAll(async () => {
    await api.close();
  });

  const tokenOf = (session: OrgSession, scopes: readonly Scope[]) => {
    const key = `${session.orgId} ${scopes.join(' ')}`;
    if (!tokens.has(key)) tokens.set(key, session.token(scopes));
    return tokens.get(key)!;
  };

  /** POST /api/v1/dashboard/sessions/ with a bearer token of `session`'s client holding `scopes`. */
  const askWithToken = async (
    session: OrgSession,
    scopes: readonly Scope[],
    body: object,
  ): Promise<TestResponse<LinkAnswer>> =>
    session.fixture.request<LinkAnswer>('POST', '/api/v1/dashboard/sessions/', {
      body,
      headers: { authorization: `Bearer ${await tokenOf(session, scopes)}` },
    });

  const linkCount = async () =>
    (await api.rows<{ n: number }>('SELECT count(*)::int AS n FROM dashboard_links'))[0]!.n;

  const storedLink = async (url: string): Promise<StoredLink> => {
    const token = new URL(url).searchParams.get('token')!;
    const [row] = await api.rows<StoredLink>(
      `SELECT permissions, pages, api_key_id, oauth_client_id FROM dashboard_links
        WHERE token_hash = encode(sha256(convert_to($1, 'UTF8')), 'hex')`,
      [token],
    );
    return row!;
  };

  const credentialIds = async (session: OrgSession) =>
    (
      await api.rows<{ key: string; client: string }>(
        `SELECT (SELECT id FROM api_keys WHERE org_id = $1) AS key,
                (SELECT id FROM oauth_clients WHERE org_id = $1) AS client`,
        [session.orgId],
      )
    )[0]!;

  describe('asking for a link', () => {
    it.each([
      [
        ['BASE_MODULE:WRITE'],
        { permissions: ['REVEAL_SECRET'] },
        'REVEAL_SECRET permission',
        'BASE_MODULE:READWRITE',
      ],
      [
        ['BASE_MODULE:WRITE'],
        { permissions: ['MANAGE_CREDENTIALS'] },
        'MANAGE_CREDENTIALS permission',
        'BASE_MODULE:READWRITE',
      ],
      [['BASE_MODULE:WRITE'], { pages: ['USERS'] }, 'USERS page', 'MANAGE_USERS:READ'],
      [
        ['BASE_MODULE:WRITE'],
        { permissions: ['MANAGE_WEBHOOKS'], pages: ['WEBHOOK'] },
        'WEBHOOK page',
        'BASE_MODULE:READ',
      ],
      [
        ['BASE_MODULE:READWRITE'],
        { permissions: ['MANAGE_CREDENTIALS'] },
        'MANAGE_CREDENTIALS permission',
        'MANAGE_USERS:READWRITE',
      ],
      [['BASE_MODULE:READWRITE'], { pages: ['OVERVIEW', 'USERS'] }, 'USERS page', 'MANAGE_USERS:READ'],
      [
        ['BASE_MODULE:READ', 'BASE_MODULE:WRITE', 'MANAGE_USERS:WRITE'],
        { pages: ['USERS'] },
        'USERS page',
        'MANAGE_USERS:READ',
      ],
    ] as [Scope[], object, string, Scope][])(
      'refuses a token holding %j a link with %j: 403 naming the %s’s scope %s, and stores nothing',
      async (scopes, body, what, scope) => {
        const before = await linkCount();
        const response = await askWithToken(org, scopes, { ...body, lifetimeSeconds: 604800 });
        expect(response.status).toBe(403);
        expect(response.body).toMatchObject({ code: 403, data: null });
        expect(response.body.error).toBe(
          `Forbidden: the ${what} needs the scope ${scope}, which these credentials do not hold`,
        );
        expect(await linkCount()).toBe(before);
      },
    );

    it('gives a BASE_MODULE:WRITE token’s link only what needs no more: the catalogue, and MANAGE_WEBHOOKS when asked', async () => {
      const response = await askWithToken(org, ['BASE_MODULE:WRITE'], { permissions: ['MANAGE_WEBHOOKS'] });
      expect(response.status).toBe(200);
      expect(response.body.data).toMatchObject({ permissions: ['MANAGE_WEBHOOKS'], pages: ['CATALOGUE'] });
      const { client } = await credentialIds(org);
      expect(await storedLink(response.body.data!.url)).toEqual({
        permissions: ['MANAGE_WEBHOOKS'],
        pages: ['CATALOGUE'],
        api_key_id: null,
        oauth_client_id: client,
      });

      const session = await DashboardClient.signIn(response.body.data!.url);
      const catalogue = await session.get('/dashboard/catalogue');
      expect(catalogue.status).toBe(200);
      expect(catalogue.html).not.toContain('href="/dashboard/users"');
      for (const path of [
        '/dashboard/',
        '/dashboard/webhook',
        '/dashboard/events',
        '/dashboard/users',
        `/dashboard/users/${data.applicant}`,
        `/dashboard/orders/${data.orderId}`,
        '/dashboard/credentials',
      ]) {
        const page = await session.get(path);
        expect([path, page.status]).toEqual([path, 403]);
        expect(page.html).toContain('this session may not see the');
        expect(page.html).not.toContain('passport.pdf');
        expect(page.html).not.toContain(data.applicant);
      }
      // Its own permission does not open a page it may not see, nor the secret.
      const change = await session.post(
        '/dashboard/webhook',
        { url: 'https://hooks.example.com/x', secret: 'a-secret-of-20-chars' },
        { from: '/dashboard/catalogue' },
      );
      expect(change.status).toBe(403);
      const reveal = await session.post('/dashboard/webhook/reveal', {}, { from: '/dashboard/catalogue' });
      expect(reveal.status).toBe(403);
      expect(await api.rows("SELECT 1 FROM audit_log WHERE action = 'webhook.secret-reveal'")).toEqual([]);
    });

    it('lands a session on its first page', async () => {
      const response = await askWithToken(org, ['MANAGE_USERS:READ', 'BASE_MODULE:READWRITE'], {
        pages: ['USERS'],
      });
      expect(response.status).toBe(200);
      const url = new URL(response.body.data!.url);
      const signIn = await fetch(`${url.origin}/dashboard/sign-in`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: url.origin },
        body: new URLSearchParams({ token: url.searchParams.get('token')! }).toString(),
      });
      expect(signIn.status).toBe(303);
      expect(signIn.headers.get('location')).toBe('/dashboard/users');
    });

    it('shows a session without USERS no user page, nor links to one from the orders', async () => {
      const response = await askWithToken(org, ['BASE_MODULE:READWRITE'], {});
      expect(response.body.data!.pages).toEqual([
        'OVERVIEW',
        'WEBHOOK',
        'EVENTS',
        'ORDERS',
        'CREDENTIALS',
        'CATALOGUE',
      ]);
      const session = await DashboardClient.signIn(response.body.data!.url);
      for (const path of ['/dashboard/orders', `/dashboard/orders/${data.orderId}`]) {
        const page = await session.get(path);
        expect([path, page.status]).toEqual([path, 200]);
        expect(page.html).toContain(data.trader);
        expect(page.html).not.toContain('href="/dashboard/users');
      }
      expect((await session.get(`/dashboard/users/${data.trader}`)).status).toBe(403);
    });

    it('lets a READWRITE token ask for every permission and page, and the session reads KYC and may reveal the secret', async () => {
      const response = await askWithToken(org, READWRITE_SCOPES, {
        permissions: [...ALL_PERMISSIONS],
        pages: [...ALL_PAGES],
      });
      expect(response.status).toBe(200);
      expect(response.body.data).toMatchObject({ permissions: ALL_PERMISSIONS, pages: ALL_PAGES });
      const { client } = await credentialIds(org);
      expect(await storedLink(response.body.data!.url)).toEqual({
        permissions: ALL_PERMISSIONS,
        pages: ALL_PAGES,
        api_key_id: null,
        oauth_client_id: client,
      });
      // Without pages, the same token's link gets every page.
      const everyPage = await askWithToken(org, READWRITE_SCOPES, {});
      expect(everyPage.body.data!.pages).toEqual(ALL_PAGES);

      const session = await DashboardClient.signIn(response.body.data!.url);
      const user = await session.get(`/dashboard/users/${data.applicant}`);
      expect(user.status).toBe(200);
      expect(user.html).toContain('passport.pdf');
      // Let through to the secret, of which the organisation has none yet.
      const reveal = await session.post('/dashboard/webhook/reveal', {}, { from: '/dashboard/webhook' });
      expect(reveal.status).toBe(404);
      expect(reveal.html).toContain('no webhook is registered');
    });
  });

  describe('revoking the credential that asked for the link', () => {
    const revoke = async (kind: 'api-keys' | 'oauth-clients', session: OrgSession, id: string) => {
      const response = await api.admin('POST', `/api/v1/admin/orgs/${session.orgId}/${kind}/${id}/revoke`);
      expect(response.status).toBe(200);
    };

    const signedOutNow = async (client: DashboardClient) => {
      const page = await client.get('/dashboard/');
      expect(page.status).toBe(401);
      expect(page.html).toContain('You are signed out');
    };

    it('ends a 7-day session and an unopened link made with an API key, on every instance, and no other', async () => {
      const fresh = await api.createOrg();
      const ask = async () => {
        const response = await fresh.signed<LinkAnswer>('POST', '/api/v1/dashboard/sessions/', {
          body: { permissions: [...ALL_PERMISSIONS], lifetimeSeconds: 604800 },
        });
        expect(response.status).toBe(200);
        return response.body.data!.url;
      };
      const byKey = await DashboardClient.signIn(await ask());
      // One second later, so the two signed requests differ (a same-second twin would be a replay).
      await new Promise((resolve) => setTimeout(resolve, 1100));
      const unopened = await ask();
      const byClient = await DashboardClient.signIn(
        (await askWithToken(fresh, READWRITE_SCOPES, { permissions: [...ALL_PERMISSIONS] })).body.data!.url,
      );
      const second = await ApiFixture.start({}, { besides: api });
      try {
        const onSecond = byKey.at(second.baseUrl);
        expect((await byKey.get('/dashboard/')).status).toBe(200);
        expect((await onSecond.get('/dashboard/')).status).toBe(200);

        const { key, client } = await credentialIds(fresh);
        await revoke('api-keys', fresh, key);

        await signedOutNow(byKey);
        await signedOutNow(onSecond);
        expect((await fetch(unopened)).status).toBe(401);
        await expect(DashboardClient.signIn(unopened)).rejects.toThrow('sign-in failed: 401');
        // The organisation's session made with its OAuth client goes on.
        expect((await byClient.get('/dashboard/')).status).toBe(200);

        const rows = await api.rows<{
          api_key_id: string | null;
          oauth_client_id: string | null;
          key_revoked: boolean;
        }>(
          `SELECT s.api_key_id, s.oauth_client_id, k.revoked_at IS NOT NULL AS key_revoked
             FROM dashboard_sessions s LEFT JOIN api_keys k ON k.id = s.api_key_id
            WHERE s.org_id = $1 ORDER BY s.created_at`,
          [fresh.orgId],
        );
        expect(rows).toEqual([
          { api_key_id: key, oauth_client_id: null, key_revoked: true },
          { api_key_id: null, oauth_client_id: client, key_revoked: false },
        ]);
      } finally {
        await second.close();
      }
    });

    it('ends a session made with an OAuth client’s token when the client is revoked, and no other', async () => {
      const fresh = await api.createOrg();
      const byClient = await DashboardClient.signIn(
        (await askWithToken(fresh, READWRITE_SCOPES, { lifetimeSeconds: 604800 })).body.data!.url,
      );
      const byKey = await DashboardClient.signIn(
        (await fresh.signed<LinkAnswer>('POST', '/api/v1/dashboard/sessions/', { body: {} })).body.data!.url,
      );
      expect((await byClient.get('/dashboard/')).status).toBe(200);

      const { key, client } = await credentialIds(fresh);
      await revoke('oauth-clients', fresh, client);

      await signedOutNow(byClient);
      expect((await byKey.get('/dashboard/')).status).toBe(200);
      const rows = await api.rows<{
        api_key_id: string | null;
        oauth_client_id: string | null;
        client_revoked: boolean;
      }>(
        `SELECT s.api_key_id, s.oauth_client_id, c.revoked_at IS NOT NULL AS client_revoked
           FROM dashboard_sessions s LEFT JOIN oauth_clients c ON c.id = s.oauth_client_id
          WHERE s.org_id = $1 ORDER BY s.created_at`,
        [fresh.orgId],
      );
      expect(rows).toEqual([
        { api_key_id: null, oauth_client_id: client, client_revoked: true },
        { api_key_id: key, oauth_client_id: null, client_revoked: false },
      ]);
    });
  });
});
