// One session cookie and one CSRF scheme for the console (whose session the admin api takes too) and the
// dashboard alike (docs/decisions.md, "Web pages: one session cookie and one CSRF scheme"): the cookie's
// attributes, the one loopback rule for Secure, clearing it, and a session's CSRF token taken in a form's
// `_csrf` field and in the X-CSRF-Token header alike, never another session's.
import { createHash } from 'node:crypto';

import { ApiFixture, type OrgSession } from '../support/app-fixture.js';
import { DashboardClient, signInLink } from '../support/dashboard-session.js';

describe('session cookie and CSRF', () => {
  let api: ApiFixture;
  let org: OrgSession;

  beforeAll(async () => {
    // The tests call as a reverse proxy would, which may say the scheme and host (X-Forwarded-Proto, -Host).
    api = await ApiFixture.start({ TRUST_PROXY: '127.0.0.1' });
    org = await api.createOrg({ name: 'Alpha Brokers' });
  });

  afterAll(() => api.close());

  /** How each area starts a session, as a browser behind `proxied` (scheme and host) would. */
  const areas = {
    console: {
      name: 'svc_operator_session',
      path: '/',
      lifetimeSeconds: 12 * 3600,
      async signIn(proxied: Record<string, string>): Promise<string> {
        // A new operator each time: the sign-in throttle counts an e-mail's attempts.
        const operator = await api.enrolOperator('SUPPORT');
        const response = await api.request('POST', '/api/v1/admin/session', {
          body: { email: operator.email, password: operator.password, code: await operator.code() },
          headers: proxied,
        });
        expect(response.status).toBe(200);
        return response.headers.get('set-cookie') ?? '';
      },
    },
    dashboard: {
      name: 'svc_dashboard',
      path: '/dashboard',
      lifetimeSeconds: 3600,
      async signIn(proxied: Record<string, string>): Promise<string> {
        const link = new URL(await signInLink(org));
        const origin = proxied['x-forwarded-host']
          ? `${proxied['x-forwarded-proto']}://${proxied['x-forwarded-host']}`
          : api.baseUrl;
        const response = await fetch(`${api.baseUrl}/dashboard/sign-in`, {
          method: 'POST',
          redirect: 'manual',
          headers: { 'content-type': 'application/x-www-form-urlencoded', origin, ...proxied },
          body: `token=${link.searchParams.get('token')}`,
        });
        expect(response.status).toBe(303);
        return response.headers.get('set-cookie') ?? '';
      },
    },
  } as const;

  describe.each(Object.entries(areas))('the %s session cookie', (_area, area) => {
    it('is HttpOnly, SameSite=Strict, on its path, for the session’s lifetime', async () => {
      const cookie = await area.signIn({});
      expect(cookie).toMatch(
        new RegExp(
          `^${area.name}=[A-Za-z0-9_-]{43,47}; Max-Age=(\\d+); Path=${area.path}; Expires=[^;]+ GMT; HttpOnly; SameSite=Strict$`,
        ),
      );
      const maxAge = Number(/Max-Age=(\d+)/.exec(cookie)![1]);
      expect(Math.abs(maxAge - area.lifetimeSeconds)).toBeLessThan(5);
      const expires = Date.parse(/Expires=([^;]+)/.exec(cookie)![1]!);
      expect(Math.abs(expires - (Date.now() + area.lifetimeSeconds * 1000))).toBeLessThan(5000);
    });

    it('is Secure unless the request came over plain http to this machine (*.localhost included)', async () => {
      const secure = (cookie: string) => /; Secure;/.test(cookie);
      expect(secure(await area.signIn({}))).toBe(false);
      expect(
        secure(await area.signIn({ 'x-forwarded-proto': 'http', 'x-forwarded-host': 'svc.localhost' })),
      ).toBe(false);
      expect(
        secure(await area.signIn({ 'x-forwarded-proto': 'https', 'x-forwarded-host': 'localhost' })),
      ).toBe(true);
      expect(
        secure(await area.signIn({ 'x-forwarded-proto': 'https', 'x-forwarded-host': 'ops.example.com' })),
      ).toBe(true);
      expect(
        secure(await area.signIn({ 'x-forwarded-proto': 'http', 'x-forwarded-host': 'ops.example.com' })),
      ).toBe(true);
    });
  });

  it('clears either cookie alike at sign-out, and the session ends', async () => {
    const held = await api.signIn(await api.enrolOperator('SUPPORT'));
    const out = await api.request('DELETE', '/api/v1/admin/session', {
      headers: { cookie: held.cookie, 'x-csrf-token': held.csrfToken },
    });
    expect(out.status).toBe(200);
    expect(out.headers.get('set-cookie')).toBe(
      'svc_operator_session=; Max-Age=0; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Strict',
    );
    expect(
      (await api.request('GET', '/api/v1/admin/session', { headers: { cookie: held.cookie } })).status,
    ).toBe(401);

    const client = await DashboardClient.signIn(await signInLink(org));
    const signedOut = await client.post('/dashboard/sign-out');
    expect(signedOut.status).toBe(303);
    expect(signedOut.headers.get('set-cookie')).toBe(
      'svc_dashboard=; Max-Age=0; Path=/dashboard; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Strict',
    );
    expect((await client.get('/dashboard/')).status).toBe(401);
  });

  it('takes a console session’s CSRF token in the header or the form, whichever it was given for', async () => {
    const held = await api.signIn(await api.enrolOperator('SUPPORT'));
    const pageToken = /name="_csrf" value="([^"]+)"/.exec(
      await (await fetch(`${api.baseUrl}/console/`, { headers: { cookie: held.cookie } })).text(),
    )?.[1];
    expect(pageToken).toBeDefined();

    // The page's token, sent by a script to the api.
    const stepUp = await api.request('POST', '/api/v1/admin/session/step-up', {
      body: { code: '000000' },
      headers: { cookie: held.cookie, 'x-csrf-token': pageToken! },
    });
    // Past the CSRF check (a 403): the code is what is wrong.
    expect(stepUp.status).toBe(401);

    // The api's token, sent in a console form (sign-out).
    const signOut = await fetch(`${api.baseUrl}/console/sign-out`, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        cookie: held.cookie,
        origin: api.baseUrl,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ _csrf: held.csrfToken }).toString(),
    });
    expect(signOut.status).toBe(303);
    expect(signOut.headers.get('location')).toBe('/console/signed-out');
    const tokenHash = createHash('sha256').update(held.cookie.split('=')[1]!).digest('hex');
    expect(
      await api.rows('SELECT revoked_at IS NOT NULL AS ended FROM operator_sessions WHERE token_hash = $1', [
        tokenHash,
      ]),
    ).toEqual([{ ended: true }]);
  });

  it('refuses a write without the session’s CSRF token or with another session’s, and writes nothing', async () => {
    const mine = await api.signIn(await api.enrolOperator('SUPPORT'));
    const theirs = await api.signIn(await api.enrolOperator('SUPPORT'));
    for (const token of [undefined, theirs.csrfToken, `${mine.csrfToken}x`]) {
      const api_ = await api.request('DELETE', '/api/v1/admin/session', {
        headers: { cookie: mine.cookie, ...(token === undefined ? {} : { 'x-csrf-token': token }) },
      });
      expect(api_.status).toBe(403);
      expect(api_.body.error).toBe(
        "Forbidden: a request with the session cookie must send the session's X-CSRF-Token",
      );
      const page = await fetch(`${api.baseUrl}/console/sign-out`, {
        method: 'POST',
        redirect: 'manual',
        headers: {
          cookie: mine.cookie,
          origin: api.baseUrl,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams(token === undefined ? {} : { _csrf: token }).toString(),
      });
      expect(page.status).toBe(403);
      expect(await page.text()).toContain(
        'the form was not sent from this console (its CSRF token is missing',
      );
    }
    // Still signed in.
    expect(
      (await api.request('GET', '/api/v1/admin/session', { headers: { cookie: mine.cookie } })).status,
    ).toBe(200);
  });
});
