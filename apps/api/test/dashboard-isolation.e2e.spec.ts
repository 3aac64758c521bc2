// The dashboard over plain HTTP against the real api: isolation between organisations on every
// page and form, the security headers of the web stack, and when credentials were last used. Sign-in and
// sessions are in dashboard-sessions.e2e.spec.ts; what people see and do in dashboard.browser.spec.ts.
import { ApiFixture, type OrgSession } from './support/app-fixture.js';
import {
  ALL_PERMISSIONS,
  DashboardClient,
  seedOrganisation,
  type SeededData,
  signInLink,
} from './support/dashboard-session.js';

const CSP =
  "default-src 'self';script-src 'self';worker-src 'self';style-src 'self';img-src 'self' data:;object-src 'none';frame-ancestors 'none';base-uri 'none';form-action 'self'";

// Two organisations seeded through the api take a while on a loaded machine.
jest.setTimeout(60_000);

/** Every page of the dashboard, with `data`'s ids where a page names one. */
const pages = (data: SeededData) => [
  '/dashboard/',
  '/dashboard/webhook',
  '/dashboard/users',
  `/dashboard/users/${data.applicant}`,
  '/dashboard/orders',
  `/dashboard/orders/${data.orderId}`,
  '/dashboard/credentials',
  '/dashboard/catalogue',
  '/dashboard/events',
  '/dashboard/events?status=PENDING&entity=Orders',
  `/dashboard/events/${data.eventId}`,
];

/** A page fetched without a session. */
async function signedOut(url: string): Promise<{ status: number; headers: Headers; html: string }> {
  const response = await fetch(url);
  return { status: response.status, headers: response.headers, html: await response.text() };
}

describe('the dashboard between organisations', () => {
  let api: ApiFixture;
  let org: OrgSession;
  let other: OrgSession;
  let data: SeededData;
  let otherData: SeededData;

  beforeAll(async () => {
    api = await ApiFixture.start();
    org = await api.createOrg({ name: 'Alpha Brokers' });
    other = await api.createOrg({ name: 'Beta Savings' });
    data = await seedOrganisation(org, 'alpha');
    otherData = await seedOrganisation(other, 'beta');
  });

  afterAll(async () => {
    await api.close();
  });

  describe('isolation between organisations', () => {
    it("shows a session only its own organisation's data on every page", async () => {
      const client = await DashboardClient.signIn(await signInLink(org));
      for (const path of pages(data)) {
        const page = await client.get(path);
        expect([path, page.status]).toEqual([path, 200]);
        expect(page.html).not.toContain('Beta Savings');
        expect(page.html).not.toContain('beta-');
      }
      expect((await client.get('/dashboard/users')).html).toContain(data.trader);
    });

    it("answers 404 for another organisation's ids in the pages' URLs and forms, and changes nothing of theirs", async () => {
      const client = await DashboardClient.signIn(
        await signInLink(org, { permissions: [...ALL_PERMISSIONS] }),
      );
      for (const path of [
        `/dashboard/users/${otherData.trader}`,
        `/dashboard/users/${otherData.applicant}`,
        `/dashboard/orders/${otherData.orderId}`,
        '/dashboard/orders/999999999',
      ]) {
        const page = await client.get(path);
        expect([path, page.status]).toEqual([path, 404]);
        expect(page.html).toContain('Not found');
        expect(page.html).not.toContain('Beta Savings');
      }
      for (const path of [
        `/dashboard/credentials/api-keys/${otherData.apiKeyId}/revoke`,
        `/dashboard/credentials/oauth-clients/${otherData.clientId}/revoke`,
      ]) {
        expect([path, (await client.post(path, {}, { from: '/dashboard/credentials' })).status]).toEqual([
          path,
          404,
        ]);
      }
      const revoked = await api.rows('SELECT 1 FROM api_keys WHERE org_id = $1 AND revoked_at IS NOT NULL', [
        other.orgId,
      ]);
      expect(revoked).toEqual([]);
      const clientsRevoked = await api.rows(
        'SELECT 1 FROM oauth_clients WHERE org_id = $1 AND revoked_at IS NOT NULL',
        [other.orgId],
      );
      expect(clientsRevoked).toEqual([]);
      expect((await client.get(`/dashboard/orders?orgUserId=${otherData.trader}`)).html).toContain(
        'No order matches.',
      );
      expect((await client.get(`/dashboard/users?q=beta&userStatus=&kyc=`)).html).toContain(
        'No user matches.',
      );
      expect((await client.get(`/dashboard/users?q=alpha-t&userStatus=&kyc=`)).html).toContain(data.trader);
    });
  });

  describe('the events pages between organisations and permissions', () => {
    /** A COMPLETED recovery of `orgId`, written as the worker leaves one. */
    const recoveryOf = async (orgId: number) =>
      (
        await api.rows<{ id: string }>(
          `INSERT INTO webhook_recoveries (org_id, since, status, completed_at)
           VALUES ($1, now() - interval '1 hour', 'COMPLETED', now()) RETURNING id`,
          [orgId],
        )
      )[0]!.id;
    const jobs = async () =>
      (
        await api.rows<{ n: number }>(
          `SELECT (SELECT count(*)::int FROM pgboss.job WHERE name = 'webhook-recovery') +
                  (SELECT count(*)::int FROM webhook_redeliveries) AS n`,
        )
      )[0]!.n;

    it("lists only the session's own events, and answers 404 for another organisation's event and recovery", async () => {
      const client = await DashboardClient.signIn(
        await signInLink(org, { permissions: [...ALL_PERMISSIONS] }),
      );
      const list = await client.get('/dashboard/events');
      expect(list.html).toContain(data.eventId);
      expect(list.html).not.toContain(otherData.eventId);
      const ours = await client.get(`/dashboard/events/${data.eventId}`);
      expect(ours.status).toBe(200);
      expect(ours.html).toContain(`&quot;orgId&quot;:${org.orgId}`);
      const theirRecovery = await recoveryOf(other.orgId);
      const ourRecovery = await recoveryOf(org.orgId);
      expect((await client.get(`/dashboard/events/recoveries/${ourRecovery}`)).status).toBe(200);
      for (const path of [
        `/dashboard/events/${otherData.eventId}`,
        `/dashboard/events/${otherData.eventId}?cursor=MQ`,
        `/dashboard/events/recoveries/${theirRecovery}`,
        `/dashboard/events/${crypto.randomUUID()}`,
      ]) {
        const page = await client.get(path);
        expect([path, page.status]).toEqual([path, 404]);
        expect(page.html).not.toContain('Beta Savings');
      }
      expect((await client.get('/dashboard/events/not-a-uuid')).status).toBe(400);
      const before = await jobs();
      const redeliver = await client.post(
        `/dashboard/events/${otherData.eventId}/redeliver`,
        {},
        { from: '/dashboard/events' },
      );
      expect(redeliver.status).toBe(404);
      // Recovery is the session's own organisation's: without an ACTIVE webhook it is refused (409) on the page.
      const recover = await client.post(
        '/dashboard/events/recover',
        { since: new Date(Date.now() - 3600_000).toISOString() },
        { from: '/dashboard/events' },
      );
      expect(recover.status).toBe(409);
      expect(recover.html).toContain('no active webhook is registered');
      expect(await jobs()).toBe(before);
      await expect(api.rows("SELECT 1 FROM webhook_recoveries WHERE status <> 'COMPLETED'")).resolves.toEqual(
        [],
      );
    });

    it('shows a read-only session no redeliver or recover button, and refuses its posts (403) without writing', async () => {
      const client = await DashboardClient.signIn(await signInLink(org));
      const page = await client.get(`/dashboard/events/${data.eventId}`);
      expect(page.html).not.toContain('Redeliver this event');
      expect(page.html).not.toContain('action="/dashboard/events/recover"');
      expect(page.html).toContain('This session may only read');
      expect((await client.get('/dashboard/events')).html).not.toContain('Recover failed events</button>');
      const before = await jobs();
      for (const [path, fields] of [
        [`/dashboard/events/${data.eventId}/redeliver`, {}],
        ['/dashboard/events/recover', { since: new Date(Date.now() - 3600_000).toISOString() }],
      ] as const) {
        const answer = await client.post(path, fields, { from: `/dashboard/events/${data.eventId}` });
        expect([path, answer.status]).toEqual([path, 403]);
        expect(answer.html).toContain('does not have the MANAGE_WEBHOOKS permission');
      }
      expect(await jobs()).toBe(before);
    });
  });

  describe('the web stack', () => {
    it('sends the Content-Security-Policy and the other security headers on every page, error pages and assets', async () => {
      const client = await DashboardClient.signIn(await signInLink(org));
      const answers = [
        ...(await Promise.all(pages(data).map((path) => client.get(path)))),
        await client.get('/dashboard/no-such-page'),
        await client.get('/assets/web.css'),
        await signedOut(`${api.baseUrl}/dashboard/`),
      ];
      for (const answer of answers) {
        expect(answer.headers.get('content-security-policy')).toBe(CSP);
        expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
        expect(answer.headers.get('referrer-policy')).toBe('same-origin');
      }
      const page = await client.get('/dashboard/');
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(page.headers.get('cache-control')).toBe('no-store');
      expect(page.html).not.toMatch(/<script(?![^>]*\ssrc=)/);
      expect(page.html).not.toMatch(/\sstyle=|\son[a-z]+=/);
      const missing = await client.get('/dashboard/no-such-page');
      expect(missing.status).toBe(404);
      expect(missing.headers.get('content-type')).toBe('text/html; charset=utf-8');
    });

    it('leaves the JSON api and /docs without the pages’ policy, and the pages out of the OpenAPI document', async () => {
      const org_ = await org.signed('GET', '/api/v1/org/');
      expect(org_.headers.get('content-security-policy')).toBeNull();
      const document = (await (await fetch(`${api.baseUrl}/openapi.json`)).json()) as {
        paths: Record<string, unknown>;
      };
      expect(Object.keys(document.paths).filter((path) => path.includes('dashboard'))).toEqual([
        '/api/v1/dashboard/sessions',
        '/api/v1/dashboard/sessions/revoke',
      ]);
    });

    it('records when each API key and OAuth client was last used, and the credentials page shows it', async () => {
      const fresh = await api.createOrg();
      const used = async () =>
        (
          await api.rows<{ key: Date | null; client: Date | null }>(
            `SELECT (SELECT last_used_at FROM api_keys WHERE org_id = $1) AS key,
                    (SELECT last_used_at FROM oauth_clients WHERE org_id = $1) AS client`,
            [fresh.orgId],
          )
        )[0]!;
      expect(await used()).toEqual({ key: null, client: null });
      expect((await fresh.signed('GET', '/api/v1/org/')).status).toBe(200);
      expect((await fresh.bearer('GET', '/api/v1/org/', { scopes: ['BASE_MODULE:READ'] })).status).toBe(200);
      const { key, client } = await used();
      expect(Date.now() - key!.getTime()).toBeLessThan(10_000);
      expect(Date.now() - client!.getTime()).toBeLessThan(10_000);
      const listed = await api.admin<{ items: { lastUsedAt: string | null }[] }>(
        'GET',
        `/api/v1/admin/orgs/${fresh.orgId}/api-keys/`,
      );
      expect(listed.body.data!.items[0]!.lastUsedAt).toBe(key!.toISOString());
      const page = await (
        await DashboardClient.signIn(await signInLink(fresh))
      ).get('/dashboard/credentials');
      expect(page.html).toContain(`datetime="${key!.toISOString()}"`);
    });
  });
});
