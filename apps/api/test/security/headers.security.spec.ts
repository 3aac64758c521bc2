// The security headers the app promises (docs/decisions.md, "Web pages: security headers and CSRF"), on every answer
// of every route of the web areas, read from the controllers so that a new page is checked as it comes:
// signed in or not, GET or form POST, page, redirect, error page or asset. And the sign-in answers of the
// console, the admin api and the dashboard: their cookies HttpOnly and SameSite=Strict, never cached.
import { RequestMethod } from '@nestjs/common';

import { webPageRoutes } from '../../src/web/web-areas.js';
import { ApiFixture } from '../support/app-fixture.js';
import { ConsoleClient } from '../support/console-client.js';
import { ALL_PERMISSIONS, DashboardClient, signInLink } from '../support/dashboard-session.js';

jest.setTimeout(60_000);

interface Answer {
  readonly what: string;
  readonly status: number;
  readonly headers: Headers;
}

/** A Content-Security-Policy as its directives, each with its sources. */
function directives(policy: string | null): Record<string, string[]> {
  return Object.fromEntries(
    (policy ?? '')
      .split(';')
      .map((directive) => directive.trim().split(/\s+/))
      .filter(([name]) => name)
      .map(([name, ...sources]) => [name!, sources]),
  );
}

/** Who fetches: the headers a request carries (a session cookie, or none). */
async function fetchAs(
  baseUrl: string,
  method: 'GET' | 'POST',
  path: string,
  cookie?: string,
): Promise<Answer> {
  const response = await fetch(baseUrl + path, {
    method,
    redirect: 'manual',
    headers: {
      ...(cookie ? { cookie } : {}),
      ...(method === 'POST' ? { origin: baseUrl, 'content-type': 'application/x-www-form-urlencoded' } : {}),
    },
    ...(method === 'POST' ? { body: '' } : {}),
  });
  await response.arrayBuffer();
  return {
    what: `${method} ${path}${cookie ? ' (signed in)' : ''}`,
    status: response.status,
    headers: response.headers,
  };
}

/** The attributes of the Set-Cookie line that sets `name`, lower-cased, `name` itself left out. */
function cookieAttributes(headers: Headers, name: string): string[] {
  const line = headers.getSetCookie().find((value) => value.startsWith(`${name}=`));
  if (!line) throw new Error(`no ${name} cookie in ${JSON.stringify(headers.getSetCookie())}`);
  return line
    .split(';')
    .slice(1)
    .map((attribute) => attribute.trim().toLowerCase());
}

describe('security headers', () => {
  let api: ApiFixture;
  let consoleCookie: string;
  let dashboardCookie: string;

  beforeAll(async () => {
    api = await ApiFixture.start();
    const operator = await api.enrolOperator('ADMIN');
    consoleCookie = (await ConsoleClient.signIn(api, operator)).cookie;
    const org = await api.createOrg();
    dashboardCookie = (await DashboardClient.signIn(await signInLink(org, { permissions: ALL_PERMISSIONS })))
      .cookie;
  });

  afterAll(async () => {
    await api.close();
  });

  describe('on every answer of the web areas', () => {
    let answers: Answer[];

    beforeAll(async () => {
      const routes = webPageRoutes(api.app).filter(
        (route) => route.method === RequestMethod.GET || route.method === RequestMethod.POST,
      );
      // Every area's routes, so that a page added later is covered without touching this test.
      expect(routes.some((route) => route.path.startsWith('dashboard'))).toBe(true);
      expect(routes.some((route) => route.path.startsWith('console'))).toBe(true);
      const requests: [method: 'GET' | 'POST', path: string][] = [
        ...routes.map(
          (route) =>
            [
              route.method === RequestMethod.GET ? 'GET' : 'POST',
              `/${route.path.replace(/:[A-Za-z]+/g, '1')}`,
            ] as ['GET' | 'POST', string],
        ),
        ['GET', '/dashboard/no-such-page'],
        ['GET', '/console/no-such-page'],
        ['GET', '/assets/web.css'],
        ['GET', '/assets/tables.css'],
        ['GET', '/assets/forms.css'],
        ['GET', '/assets/charts.css'],
        ['GET', '/assets/web.js'],
        ['GET', '/assets/no-such-file.js'],
      ];
      answers = [];
      // One at a time: the api's sign-in throttle and the machine's two cores take them better so.
      for (const [method, path] of requests) {
        answers.push(await fetchAs(api.baseUrl, method, path));
        const cookie = path.startsWith('/console') ? consoleCookie : dashboardCookie;
        answers.push(await fetchAs(api.baseUrl, method, path, cookie));
      }
    });

    it('asked for every kind of answer: pages, redirects, refusals and missing pages', () => {
      expect(answers.length).toBeGreaterThan(100);
      const statuses = new Set(answers.map((answer) => answer.status));
      for (const status of [200, 303, 403, 404]) expect(statuses).toContain(status);
    });

    it('sends a Content-Security-Policy with no inline or evaluated script, and no framing', () => {
      for (const { what, headers } of answers) {
        const policy = directives(headers.get('content-security-policy'));
        expect({ what, policy }).toEqual({
          what,
          policy: {
            'default-src': ["'self'"],
            'script-src': ["'self'"],
            'worker-src': ["'self'"],
            'style-src': ["'self'"],
            'img-src': ["'self'", 'data:'],
            'object-src': ["'none'"],
            'frame-ancestors': ["'none'"],
            'base-uri': ["'none'"],
            'form-action': ["'self'"],
          },
        });
        expect(headers.get('content-security-policy')).not.toMatch(/unsafe-(inline|eval|hashes)|\*/);
      }
    });

    it('sends nosniff, HSTS, the same-origin policies and no referrer to other sites', () => {
      for (const { what, headers } of answers) {
        expect({
          what,
          nosniff: headers.get('x-content-type-options'),
          hsts: headers.get('strict-transport-security'),
          referrer: headers.get('referrer-policy'),
          opener: headers.get('cross-origin-opener-policy'),
          resources: headers.get('cross-origin-resource-policy'),
          poweredBy: headers.get('x-powered-by'),
        }).toEqual({
          what,
          nosniff: 'nosniff',
          hsts: expect.stringMatching(/^max-age=\d{7,}; includeSubDomains$/) as unknown,
          referrer: 'same-origin',
          opener: 'same-origin',
          resources: 'same-origin',
          poweredBy: null,
        });
      }
    });

    it('never lets a page be cached', () => {
      const pages = answers.filter((answer) => answer.headers.get('content-type')?.startsWith('text/html'));
      expect(pages.length).toBeGreaterThan(answers.length / 2);
      for (const { what, headers } of pages) {
        expect({ what, cacheControl: headers.get('cache-control') }).toEqual({
          what,
          cacheControl: 'no-store',
        });
      }
    });
  });

  describe('on the sign-in answers', () => {
    it("the console's form: an HttpOnly, SameSite=Strict session cookie for the whole site", async () => {
      const operator = await api.enrolOperator('SUPPORT');
      const response = await fetch(`${api.baseUrl}/console/sign-in`, {
        method: 'POST',
        redirect: 'manual',
        headers: { origin: api.baseUrl, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          email: operator.email,
          password: operator.password,
          code: await operator.code(),
        }).toString(),
      });
      expect(response.status).toBe(303);
      expect(cookieAttributes(response.headers, 'svc_operator_session')).toEqual([
        expect.stringMatching(/^max-age=\d+$/),
        'path=/',
        expect.stringMatching(/^expires=.+ gmt$/),
        'httponly',
        'samesite=strict',
      ]);
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(directives(response.headers.get('content-security-policy'))['frame-ancestors']).toEqual([
        "'none'",
      ]);
      const [row] = await api.rows<{ n: number }>(
        'SELECT count(*)::int AS n FROM operator_sessions WHERE operator_id = $1',
        [operator.id],
      );
      expect(row?.n).toBe(1);
    });

    it("the admin api's: the same cookie, and an answer that is never cached", async () => {
      const operator = await api.enrolOperator('SUPPORT');
      const response = await api.request('POST', '/api/v1/admin/session', {
        body: { email: operator.email, password: operator.password, code: await operator.code() },
      });
      expect(response.status).toBe(200);
      expect(cookieAttributes(response.headers, 'svc_operator_session')).toEqual([
        expect.stringMatching(/^max-age=\d+$/),
        'path=/',
        expect.stringMatching(/^expires=.+ gmt$/),
        'httponly',
        'samesite=strict',
      ]);
      expect(response.headers.get('cache-control')).toBe('no-store');
    });

    it("the dashboard's: an HttpOnly, SameSite=Strict cookie sent to /dashboard only", async () => {
      const link = new URL(await signInLink(await api.createOrg()));
      const response = await fetch(`${link.origin}/dashboard/sign-in`, {
        method: 'POST',
        redirect: 'manual',
        headers: { origin: link.origin, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token: link.searchParams.get('token') ?? '' }).toString(),
      });
      expect(response.status).toBe(303);
      expect(cookieAttributes(response.headers, 'svc_dashboard')).toEqual([
        expect.stringMatching(/^max-age=\d+$/),
        'path=/dashboard',
        expect.stringMatching(/^expires=.+ gmt$/),
        'httponly',
        'samesite=strict',
      ]);
      expect(response.headers.get('cache-control')).toBe('no-store');
    });

    it("the token endpoint's: never cached", async () => {
      const org = await api.createOrg();
      const response = await api.request('POST', '/api/v1/oauth/token', {
        rawBody: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: org.clientId,
          client_secret: org.clientSecret,
          scope: 'BASE_MODULE:READ',
        }).toString(),
        contentType: 'application/x-www-form-urlencoded',
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(response.headers.get('pragma')).toBe('no-cache');
    });
  });
});
