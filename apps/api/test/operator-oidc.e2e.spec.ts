// Single sign-on against a real OpenID provider (oidc-provider) on loopback: the authorization code flow
// with PKCE through the api's redirects, as a browser follows them (cookies kept per origin), the
// operator found by a verified e-mail then by the linked identity, and refusals.
import { once } from 'node:events';
import { createServer, request as httpRequest } from 'node:http';

import { ApiFixture } from './support/app-fixture.js';
import { freePort, type OidcPerson, startOidcProvider, TEST_CLIENT } from './support/oidc-provider.js';

/** A browser's cookies, per origin; follows redirects by hand, as a browser would. */
class Browser {
  private readonly jars = new Map<string, Map<string, string>>();

  async visit(
    start: string,
  ): Promise<{ url: string; status: number; text: string; cookies: Map<string, string> }> {
    let url = start;
    for (let hops = 0; hops < 20; hops++) {
      const origin = new URL(url).origin;
      const jar = this.jars.get(origin) ?? new Map<string, string>();
      this.jars.set(origin, jar);
      const cookie = [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
      const response = await fetch(url, { redirect: 'manual', headers: cookie ? { cookie } : {} });
      for (const line of response.headers.getSetCookie()) {
        const [pair = ''] = line.split(';');
        const [name = '', value = ''] = pair.split('=');
        if (/max-age=0/i.test(line) || value === '') jar.delete(name);
        else jar.set(name, value);
      }
      const location = response.headers.get('location');
      const text = await response.text();
      if (response.status < 300 || response.status >= 400 || !location) {
        return { url, status: response.status, text, cookies: this.jars.get(new URL(start).origin)! };
      }
      url = new URL(location, url).href;
    }
    throw new Error('too many redirects');
  }
}

describe('single sign-on through OpenID Connect', () => {
  let api: ApiFixture;
  let idp: { issuer: string; close: () => void };
  let issuer: string;
  /** Who signs in at the provider next. */
  let person: OidcPerson;

  beforeAll(async () => {
    // The api's address must be known for the client's redirect URI: take a port first.
    const apiPort = await freePort();
    const redirectUri = `http://127.0.0.1:${apiPort}/api/v1/admin/sign-in/oidc/callback`;
    idp = await startOidcProvider(redirectUri, () => person);
    issuer = idp.issuer;
    api = await ApiFixture.start(
      {
        PORT: String(apiPort),
        OIDC_ISSUER: issuer,
        OIDC_CLIENT_ID: TEST_CLIENT.id,
        OIDC_CLIENT_SECRET: TEST_CLIENT.secret,
        OIDC_REDIRECT_URI: redirectUri,
      },
      { port: apiPort },
    );
  });
  afterAll(async () => {
    await api.close();
    idp.close();
  });

  const signIn = () => new Browser().visit(`${api.baseUrl}/api/v1/admin/sign-in/oidc`);
  const as = (cookies: Map<string, string>) => ({
    headers: { cookie: `svc_operator_session=${cookies.get('svc_operator_session') ?? ''}` },
  });

  it('links the operator by their verified e-mail, then by the identity; a session cookie for the console', async () => {
    const created = await api.admin<{ id: string }>('POST', '/api/v1/admin/operators', {
      body: { email: 'sso@ops.test', name: 'Sso', role: 'KYC_REVIEWER' },
    });
    person = { email: 'SSO@ops.test', emailVerified: true };
    const first = await signIn();
    // The console's home, signed in (this client sends the cookie on the redirect, as no SameSite rule
    // stops it; a browser's case is in console.browser.spec.ts).
    expect({ url: first.url, status: first.status }).toEqual({ url: `${api.baseUrl}/console/`, status: 200 });
    expect(first.text).toContain('sso@ops.test · KYC_REVIEWER');
    const me = await api.request<{
      operator: { email: string; singleSignOn: boolean };
      stepUpUntil: null;
      csrfToken: string;
    }>('GET', '/api/v1/admin/session', as(first.cookies));
    expect(me.status).toBe(200);
    expect(me.body.data).toMatchObject({
      operator: { email: 'sso@ops.test', singleSignOn: true },
      stepUpUntil: null,
    });
    const [row] = await api.rows<{ oidc_issuer: string; oidc_subject: string }>(
      'SELECT oidc_issuer, oidc_subject FROM operators WHERE id = $1',
      [created.body.data!.id],
    );
    expect(row).toEqual({ oidc_issuer: issuer, oidc_subject: 'idp-SSO@ops.test' });
    expect(
      await api.rows(
        "SELECT actor, details->>'method' AS method FROM audit_log WHERE action = 'operator.sign-in'",
      ),
    ).toEqual([{ actor: 'sso@ops.test', method: 'oidc' }]);

    // Single sign-on vouches for the person, not for a second factor of ours: sensitive actions ask for one.
    const issue = await api.request('POST', '/api/v1/admin/tokens', {
      body: {},
      headers: { ...as(first.cookies).headers, 'x-csrf-token': me.body.data!.csrfToken },
    });
    expect(issue.status).toBe(401);
    expect(issue.body.error).toContain('step_up_required');

    // Later sign-ins find the linked identity, whatever e-mail the provider says now.
    person = { email: 'SSO@ops.test', emailVerified: false };
    const again = await signIn();
    expect((await api.request('GET', '/api/v1/admin/session', as(again.cookies))).status).toBe(200);
  });

  it('refuses an unknown person, an unverified e-mail, and a callback without its flow', async () => {
    person = { email: 'stranger@ops.test', emailVerified: true };
    const stranger = await signIn();
    expect(stranger.status).toBe(403);
    expect(stranger.cookies.has('svc_operator_session')).toBe(false);

    await api.admin('POST', '/api/v1/admin/operators', {
      body: { email: 'unverified@ops.test', name: 'U', role: 'SUPPORT' },
    });
    person = { email: 'unverified@ops.test', emailVerified: false };
    expect((await signIn()).status).toBe(403);

    const forged = await fetch(`${api.baseUrl}/api/v1/admin/sign-in/oidc/callback?code=x&state=y`);
    expect(forged.status).toBe(400);
    expect(((await forged.json()) as { error: string }).error).toContain(
      'the sign-in flow is unknown or expired',
    );
  });
});

describe('single sign-on behind a reverse proxy TRUST_PROXY does not name', () => {
  let api: ApiFixture;
  let idp: { issuer: string; close: () => void };
  let proxy: ReturnType<typeof createServer>;
  let publicUrl: string;

  beforeAll(async () => {
    // People reach the api through a proxy on its own port that passes the requests on with a host name of
    // its own (as nginx with `proxy_set_header Host`): the api never sees the redirect URI's host.
    const [apiPort, proxyPort] = [await freePort(), await freePort()];
    publicUrl = `http://127.0.0.1:${proxyPort}`;
    proxy = createServer((incoming, outgoing) => {
      const upstream = httpRequest(
        {
          host: '127.0.0.1',
          port: apiPort,
          method: incoming.method,
          path: incoming.url,
          headers: { ...incoming.headers, host: 'api.internal.test' },
        },
        (answer) => {
          outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(outgoing);
        },
      );
      incoming.pipe(upstream);
    }).listen(proxyPort, '127.0.0.1');
    await once(proxy, 'listening');
    const redirectUri = `${publicUrl}/api/v1/admin/sign-in/oidc/callback`;
    idp = await startOidcProvider(redirectUri, () => ({ email: 'proxied@ops.test', emailVerified: true }));
    api = await ApiFixture.start(
      {
        PUBLIC_URL: publicUrl,
        OIDC_ISSUER: idp.issuer,
        OIDC_CLIENT_ID: TEST_CLIENT.id,
        OIDC_CLIENT_SECRET: TEST_CLIENT.secret,
        OIDC_REDIRECT_URI: redirectUri,
      },
      { port: apiPort },
    );
  });
  afterAll(async () => {
    await api.close();
    idp.close();
    proxy.close();
  });

  it('hands the provider back the redirect URI the flow started with, whatever host the api was called by', async () => {
    await api.admin('POST', '/api/v1/admin/operators', {
      body: { email: 'proxied@ops.test', name: 'Proxied', role: 'SUPPORT' },
    });
    const signedIn = await new Browser().visit(`${publicUrl}/api/v1/admin/sign-in/oidc`);
    expect({ url: signedIn.url, status: signedIn.status }).toEqual({
      url: `${publicUrl}/console/`,
      status: 200,
    });
    expect(signedIn.cookies.has('svc_operator_session')).toBe(true);
    expect(
      await api.rows(
        "SELECT actor, details->>'method' AS method FROM audit_log WHERE action = 'operator.sign-in'",
      ),
    ).toEqual([{ actor: 'proxied@ops.test', method: 'oidc' }]);
  });
});
