// The dashboard's sign-in and sessions over plain HTTP against the real api (docs/dashboard.md): links
// asked for by the organisation's backend, their rules, single use and expiry (the cookie's attributes are in
// security/session-cookie.security.spec.ts),
// sign-out and ending every session, CSRF and permissions on every write. Isolation and the security
// headers are in dashboard-isolation.e2e.spec.ts; what people see and do in dashboard.browser.spec.ts.
import { createHash } from 'node:crypto';

import { ApiFixture, type OrgSession } from './support/app-fixture.js';
import {
  ALL_PERMISSIONS,
  DashboardClient,
  seedOrganisation,
  type SeededData,
  signInLink,
} from './support/dashboard-session.js';

describe('dashboard sessions', () => {
  let api: ApiFixture;
  let org: OrgSession;
  let other: OrgSession;
  let data: SeededData;

  beforeAll(async () => {
    // The tests call as a reverse proxy would, which may say the scheme and host (X-Forwarded-Proto, -Host).
    api = await ApiFixture.start({ TRUST_PROXY: '127.0.0.1' });
    org = await api.createOrg({ name: 'Alpha Brokers' });
    other = await api.createOrg({ name: 'Beta Savings' });
    data = await seedOrganisation(org, 'alpha');
  });

  afterAll(async () => {
    await api.close();
  });

  const links = async () =>
    (await api.rows<{ n: number }>('SELECT count(*)::int AS n FROM dashboard_links'))[0]!.n;

  describe('POST /api/v1/dashboard/sessions/', () => {
    it('answers a single-use link, stored only as its hash, read-only, every page and for an hour by default', async () => {
      const before = Date.now();
      const response = await org.signed<{
        url: string;
        expiresAt: string;
        permissions: string[];
        pages: string[];
        lifetimeSeconds: number;
      }>('POST', '/api/v1/dashboard/sessions/', { body: {} });
      expect(response.status).toBe(200);
      const link = response.body.data!;
      expect(link.url).toMatch(new RegExp(`^${api.baseUrl}/dashboard/sign-in\\?token=[A-Za-z0-9_-]{43}$`));
      expect(link.permissions).toEqual([]);
      expect(link.pages).toEqual([
        'OVERVIEW',
        'WEBHOOK',
        'EVENTS',
        'USERS',
        'ORDERS',
        'CREDENTIALS',
        'CATALOGUE',
      ]);
      expect(link.lifetimeSeconds).toBe(3600);
      const expires = Date.parse(link.expiresAt) - before;
      expect(expires).toBeGreaterThan(590_000);
      expect(expires).toBeLessThan(610_000);
      const token = new URL(link.url).searchParams.get('token')!;
      const rows = await api.rows<{ token_hash: string; org_id: number; session_seconds: number }>(
        'SELECT token_hash, org_id, session_seconds FROM dashboard_links WHERE token_hash = $1',
        [createHash('sha256').update(token).digest('hex')],
      );
      expect(rows).toEqual([
        {
          token_hash: expect.not.stringContaining(token) as string,
          org_id: org.orgId,
          session_seconds: 3600,
        },
      ]);
    });

    it('takes a bearer token with BASE_MODULE:WRITE, and refuses one with READ only', async () => {
      // What a link may hold beyond the token's scopes: security/dashboard-scopes.security.spec.ts.
      const ok = await org.bearer('POST', '/api/v1/dashboard/sessions/', {
        body: { permissions: ['MANAGE_WEBHOOKS', 'REVEAL_SECRET'], lifetimeSeconds: 604800 },
        scopes: ['BASE_MODULE:READWRITE'],
      });
      expect(ok.status).toBe(200);
      expect(ok.body.data).toMatchObject({
        permissions: ['MANAGE_WEBHOOKS', 'REVEAL_SECRET'],
        pages: ['OVERVIEW', 'WEBHOOK', 'EVENTS', 'ORDERS', 'CREDENTIALS', 'CATALOGUE'],
        lifetimeSeconds: 604800,
      });
      const refused = await org.bearer('POST', '/api/v1/dashboard/sessions/', {
        body: {},
        scopes: ['BASE_MODULE:READ'],
      });
      expect(refused.status).toBe(401);
      expect(refused.headers.get('www-authenticate')).toContain('insufficient_scope');
    });

    it.each([
      [{ lifetimeSeconds: 59 }, 'lifetimeSeconds must be at least 60'],
      [{ lifetimeSeconds: 604801 }, 'lifetimeSeconds must be at most 604800'],
      [{ lifetimeSeconds: 90.5 }, 'lifetimeSeconds must be a whole number'],
      [{ lifetimeSeconds: '3600' }, 'lifetimeSeconds must be a whole number'],
      [
        { permissions: ['ADMIN'] },
        'permissions may hold only MANAGE_WEBHOOKS, REVEAL_SECRET, MANAGE_CREDENTIALS',
      ],
      [{ permissions: 'MANAGE_WEBHOOKS' }, 'permissions must be an array'],
      [{ permissions: ['REVEAL_SECRET', 'REVEAL_SECRET'] }, 'permissions must not repeat a name'],
      [
        { pages: ['KYC'] },
        'pages may hold only OVERVIEW, WEBHOOK, EVENTS, USERS, ORDERS, CREDENTIALS, CATALOGUE',
      ],
      [{ pages: 'USERS' }, 'pages must be an array'],
      [{ pages: [] }, 'pages must name at least one page'],
      [{ pages: ['USERS', 'USERS'] }, 'pages must not repeat a name'],
      [{ readOnly: true }, 'readOnly'],
    ])('refuses %j with a 400 naming the field, and stores nothing', async (body, text) => {
      const before = await links();
      const response = await org.signed('POST', '/api/v1/dashboard/sessions/', { body });
      expect(response.status).toBe(400);
      expect(response.body.error).toContain(text);
      expect(await links()).toBe(before);
    });
  });

  describe('opening a link', () => {
    it('shows what it signs in to without spending it, then starts a session with a strict cookie, once', async () => {
      const link = await signInLink(org, { permissions: ['MANAGE_WEBHOOKS'], lifetimeSeconds: 7200 });
      for (let view = 0; view < 2; view++) {
        const page = await fetch(link);
        expect(page.status).toBe(200);
        const html = await page.text();
        expect(html).toContain('Alpha Brokers');
        expect(html).toContain('for 2 hours');
        expect(html).toContain('change the webhook URL or secret');
        expect(html).toContain(
          'The session may see these pages: Overview, Webhook, Events, Users, Orders, API keys, Event catalogue.',
        );
      }
      const before = Date.now();
      const client = await DashboardClient.signIn(link);
      const [session] = await api.rows<{ org_id: number; permissions: string[]; expires_at: Date }>(
        'SELECT org_id, permissions, expires_at FROM dashboard_sessions ORDER BY created_at DESC LIMIT 1',
      );
      expect(session).toMatchObject({ org_id: org.orgId, permissions: ['MANAGE_WEBHOOKS'] });
      expect(session!.expires_at.getTime() - before).toBeGreaterThan(7_190_000);
      expect((await client.get('/dashboard/')).status).toBe(200);

      // Used: the page and the button both refuse it.
      expect((await fetch(link)).status).toBe(401);
      await expect(DashboardClient.signIn(link)).rejects.toThrow('sign-in failed: 401');
    });

    // The cookie's attributes and the CSRF scheme, the console's too: security/session-cookie.security.spec.ts.
    it('refuses the sign-in button from another origin (login CSRF) and leaves the link unspent', async () => {
      const link = new URL(await signInLink(org));
      for (const headers of [{}, { origin: 'https://evil.example' }]) {
        const response = await fetch(`${api.baseUrl}/dashboard/sign-in`, {
          method: 'POST',
          redirect: 'manual',
          headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
          body: `token=${link.searchParams.get('token')}`,
        });
        expect(response.status).toBe(403);
        expect(response.headers.get('set-cookie')).toBeNull();
        // The page says what happened, not that a permission is missing.
        const html = await response.text();
        expect(html).toContain('the sign-in was not sent from the page the link opens');
        expect(html).not.toContain('permission');
      }
      expect((await DashboardClient.signIn(link.toString())).cookie).toMatch(/^svc_dashboard=/);
    });

    it('refuses an expired link, an unknown one and a session past its expiry', async () => {
      const link = await signInLink(org);
      await api.rows(
        "UPDATE dashboard_links SET expires_at = now() - interval '1 second' WHERE used_at IS NULL",
      );
      expect((await fetch(link)).status).toBe(401);
      await expect(DashboardClient.signIn(link)).rejects.toThrow('401');
      expect((await fetch(`${api.baseUrl}/dashboard/sign-in?token=nope`)).status).toBe(401);

      const client = await DashboardClient.signIn(await signInLink(org, { lifetimeSeconds: 60 }));
      expect((await client.get('/dashboard/')).status).toBe(200);
      await api.rows(
        "UPDATE dashboard_sessions SET expires_at = now() - interval '1 second' WHERE expires_at < now() + interval '61 seconds'",
      );
      const page = await client.get('/dashboard/');
      expect(page.status).toBe(401);
      expect(page.html).toContain('You are signed out');
    });
  });

  describe('ending sessions', () => {
    it('signs out: the cookie is cleared and the session ends', async () => {
      const client = await DashboardClient.signIn(await signInLink(org));
      const response = await client.post('/dashboard/sign-out');
      expect(response.status).toBe(303);
      expect(response.headers.get('location')).toBe('/dashboard/signed-out');
      expect(response.headers.get('set-cookie')).toMatch(/^svc_dashboard=; Max-Age=0;/);
      expect((await client.get('/dashboard/')).status).toBe(401);
    });

    it("ends every session and unused link of the organisation (POST .../revoke), and no other organisation's", async () => {
      const first = await DashboardClient.signIn(await signInLink(org));
      const second = await DashboardClient.signIn(
        await signInLink(org, { permissions: [...ALL_PERMISSIONS] }),
      );
      const unused = await signInLink(org);
      const elsewhere = await DashboardClient.signIn(await signInLink(other));
      const response = await org.signed<{ sessionsEnded: number; linksRevoked: number }>(
        'POST',
        '/api/v1/dashboard/sessions/revoke',
      );
      expect(response.status).toBe(200);
      expect(response.body.data!.sessionsEnded).toBeGreaterThanOrEqual(2);
      expect(response.body.data!.linksRevoked).toBeGreaterThanOrEqual(1);
      expect((await first.get('/dashboard/')).status).toBe(401);
      expect((await second.get('/dashboard/')).status).toBe(401);
      expect((await fetch(unused)).status).toBe(401);
      expect((await elsewhere.get('/dashboard/')).status).toBe(200);
      const live = await api.rows<{ n: number }>(
        'SELECT count(*)::int AS n FROM dashboard_sessions WHERE org_id = $1 AND ended_at IS NULL AND expires_at > now()',
        [org.orgId],
      );
      expect(live[0]!.n).toBe(0);
    });

    it('lets a session with MANAGE_CREDENTIALS sign everyone out from the dashboard', async () => {
      const watcher = await DashboardClient.signIn(await signInLink(org));
      const admin = await DashboardClient.signIn(
        await signInLink(org, { permissions: ['MANAGE_CREDENTIALS'] }),
      );
      const response = await admin.post('/dashboard/sign-out-everyone');
      expect(response.status).toBe(303);
      expect((await watcher.get('/dashboard/')).status).toBe(401);
      expect((await admin.get('/dashboard/')).status).toBe(401);
    });
  });

  describe('writes', () => {
    it('refuses a form without the CSRF token, or with the token of another session, and changes nothing', async () => {
      const client = await DashboardClient.signIn(
        await signInLink(org, { permissions: [...ALL_PERMISSIONS] }),
      );
      const stranger = await DashboardClient.signIn(
        await signInLink(org, { permissions: [...ALL_PERMISSIONS] }),
      );
      const path = `/dashboard/credentials/api-keys/${data.apiKeyId}/revoke`;
      const missing = await client.post(path, {}, { csrf: false });
      expect(missing.status).toBe(403);
      expect(missing.html).toContain('the form was not sent from this dashboard (its CSRF token is missing');
      expect(missing.html).not.toContain('permission');
      const foreign = await client.post(path, { _csrf: await stranger.csrfToken() }, { csrf: false });
      expect(foreign.status).toBe(403);
      const [key] = await api.rows<{ revoked_at: Date | null }>(
        'SELECT revoked_at FROM api_keys WHERE id = $1',
        [data.apiKeyId],
      );
      expect(key!.revoked_at).toBeNull();
    });

    it('refuses every write of a read-only session, server-side, and changes nothing', async () => {
      const reader = await DashboardClient.signIn(await signInLink(org));
      const writes: [string, Record<string, string>][] = [
        ['/dashboard/webhook', { url: 'https://hooks.example.com/x', secret: 'a-secret-of-20-chars' }],
        ['/dashboard/webhook/reveal', {}],
        ['/dashboard/webhook/test', { eventType: 'Users' }],
        [`/dashboard/credentials/api-keys/${data.apiKeyId}/revoke`, {}],
        [`/dashboard/credentials/oauth-clients/${data.clientId}/revoke`, {}],
        ['/dashboard/sign-out-everyone', {}],
      ];
      for (const [path, fields] of writes) {
        const response = await reader.post(path, fields);
        expect([path, response.status]).toEqual([path, 403]);
        expect(response.html).toContain('this session does not have the');
        expect(response.html).toContain('This session was not given the permission this needs.');
      }
      const [key] = await api.rows<{ revoked_at: Date | null }>(
        'SELECT revoked_at FROM api_keys WHERE id = $1',
        [data.apiKeyId],
      );
      expect(key!.revoked_at).toBeNull();
      expect(await api.rows("SELECT 1 FROM audit_log WHERE action = 'webhook.secret-reveal'")).toEqual([]);
      expect((await reader.get('/dashboard/')).status).toBe(200);
    });
  });
});
