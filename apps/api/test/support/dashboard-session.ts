// Dashboard sessions for the tests: a sign-in link asked for as the organisation's backend does, and a
// signed-in HTTP client (a cookie and the pages' CSRF token) for tests that need no browser.
import type { Scope } from '@svc/protocol';

import type { OrgSession, TestResponse } from './app-fixture.js';

export type Permission = 'MANAGE_WEBHOOKS' | 'REVEAL_SECRET' | 'MANAGE_CREDENTIALS';
export type Page = 'OVERVIEW' | 'WEBHOOK' | 'EVENTS' | 'USERS' | 'ORDERS' | 'CREDENTIALS' | 'CATALOGUE';

export const ALL_PERMISSIONS: readonly Permission[] = [
  'MANAGE_WEBHOOKS',
  'REVEAL_SECRET',
  'MANAGE_CREDENTIALS',
];

/** Every scope, as READWRITE of each module: what a link with every permission and page needs. */
export const READWRITE_SCOPES: readonly Scope[] = ['BASE_MODULE:READWRITE', 'MANAGE_USERS:READWRITE'];

/** One token per organisation: the token endpoint's rate limit would refuse one per link. */
const tokens = new WeakMap<OrgSession, Promise<string>>();

/**
 * A sign-in link for `org` (POST /api/v1/dashboard/sessions/, with a bearer token of its OAuth client
 * holding every scope: two identical signed requests in one second would be a replay). The session stands
 * on that client: revoking it ends the session.
 */
export async function signInLink(
  org: OrgSession,
  body: { permissions?: readonly Permission[]; pages?: readonly Page[]; lifetimeSeconds?: number } = {},
): Promise<string> {
  if (!tokens.has(org)) tokens.set(org, org.token(READWRITE_SCOPES));
  const token = await tokens.get(org)!;
  const response = await org.fixture.request<{ url: string }>('POST', '/api/v1/dashboard/sessions/', {
    body,
    headers: { authorization: `Bearer ${token}` },
  });
  if (response.status !== 200 || !response.body.data) throw new Error(`no sign-in link: ${response.text}`);
  return response.body.data.url;
}

export interface PageAnswer {
  readonly status: number;
  readonly headers: Headers;
  readonly html: string;
}

/** The dashboard over plain HTTP, as a browser would use it: the session cookie, forms with their token. */
export class DashboardClient {
  private constructor(
    readonly baseUrl: string,
    readonly cookie: string,
  ) {}

  /** Opens `link` and presses the sign-in button; fails unless a session cookie comes back. */
  static async signIn(link: string): Promise<DashboardClient> {
    const url = new URL(link);
    const response = await fetch(`${url.origin}/dashboard/sign-in`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: url.origin },
      body: new URLSearchParams({ token: url.searchParams.get('token') ?? '' }).toString(),
    });
    const cookie = response.headers.getSetCookie().find((value) => value.startsWith('svc_dashboard='));
    if (response.status !== 303 || !cookie)
      throw new Error(`sign-in failed: ${response.status} ${await response.text()}`);
    return new DashboardClient(url.origin, cookie.split(';')[0] ?? '');
  }

  /** The same session on another api instance (the same database). */
  at(baseUrl: string): DashboardClient {
    return new DashboardClient(baseUrl, this.cookie);
  }

  async get(path: string): Promise<PageAnswer> {
    const response = await fetch(this.baseUrl + path, {
      headers: { cookie: this.cookie },
      redirect: 'manual',
    });
    return { status: response.status, headers: response.headers, html: await response.text() };
  }

  /** A form post; `csrf: true` fetches a token from `from` first (the page that has the form). */
  async post(
    path: string,
    fields: Record<string, string> = {},
    options: { csrf?: boolean; from?: string } = {},
  ): Promise<PageAnswer> {
    const body = new URLSearchParams(fields);
    if (options.csrf !== false) body.set('_csrf', await this.csrfToken(options.from ?? '/dashboard/'));
    const response = await fetch(this.baseUrl + path, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        cookie: this.cookie,
        origin: this.baseUrl,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: body.toString(),
    });
    return { status: response.status, headers: response.headers, html: await response.text() };
  }

  /** The CSRF token in the forms of `path`. */
  async csrfToken(path = '/dashboard/'): Promise<string> {
    const page = await this.get(path);
    const token = /name="_csrf" value="([^"]+)"/.exec(page.html)?.[1];
    if (!token) throw new Error(`no CSRF token on ${path} (${page.status})`);
    return token;
  }
}

export type { TestResponse };

/** What seedOrganisation made: ids to look for on the pages (and to try from another organisation). */
export interface SeededData {
  readonly trader: string;
  readonly applicant: string;
  readonly orderId: number;
  readonly apiKeyId: string;
  readonly clientId: string;
  /** The organisation's latest event (its trader's order). */
  readonly eventId: string;
}

const PDF = Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\ntrailer << >>\n%%EOF\n', 'latin1');

/**
 * Data for every page, made through the api as an organisation and its operator would: a trader with a
 * filled order and a position, an applicant whose KYC was uploaded, submitted and sent back with a request
 * for information, and the organisation's credentials.
 */
export async function seedOrganisation(org: OrgSession, prefix: string): Promise<SeededData> {
  const api = org.fixture;
  await api.rows(
    "INSERT INTO prices (symbol, price) VALUES ('BTC_EUR', '50000') ON CONFLICT (symbol) DO NOTHING",
  );
  const policy = await api.admin('PATCH', `/api/v1/admin/orgs/${org.orgId}/policy/`, {
    body: {
      enabledAssets: ['BTC', 'ETH'],
      commissionRate: 0.0015,
      vatRate: 0.21,
      quoteLimit: { EUR: 25000 },
    },
  });
  if (policy.status !== 200) throw new Error(`policy: ${policy.text}`);
  const trader = `${prefix}-trader`;
  const applicant = `${prefix}-applicant`;
  await expectOk(org.bearer('POST', '/api/v1/user/', { body: { orgUserId: trader, kyc: true, tnc: true } }));
  await expectOk(
    org.bearer('POST', '/api/v1/user/', { body: { orgUserId: applicant, kyc: false, tnc: true } }),
  );
  const order = await expectOk<{ id: number }>(
    org.bearer('POST', '/api/v1/orders/', {
      body: {
        orgUserId: trader,
        clientOrderId: crypto.randomUUID(),
        symbol: 'BTC_EUR',
        side: 'BUY',
        type: 'MARKET',
        quantity: 0.01,
      },
    }),
  );
  const form = new FormData();
  form.append('docCategory', 'IDENTITY');
  form.append('docSubCategory', 'PASSPORT');
  form.append('file', new Blob([new Uint8Array(PDF)], { type: 'application/pdf' }), 'passport.pdf');
  const upload = await fetch(`${api.baseUrl}/api/v1/user/${applicant}/kyc/documents`, {
    method: 'POST',
    headers: { authorization: `Bearer ${await org.token(['MANAGE_USERS:WRITE'])}` },
    body: form,
  });
  if (upload.status !== 200) throw new Error(`upload: ${await upload.text()}`);
  await expectOk(
    org.bearer('POST', `/api/v1/user/${applicant}/kyc/form`, {
      body: {
        firstName: 'Ada',
        lastName: 'Lovelace',
        dateOfBirth: '1990-04-01',
        nationality: 'GB',
        address: { line1: '1 Main Street', city: 'London', postalCode: 'N1 1AA', country: 'GB' },
      },
    }),
  );
  await expectOk(
    api.admin('POST', `/api/v1/admin/orgs/${org.orgId}/users/${applicant}/kyc/request-information`, {
      body: { message: 'Please upload a clearer passport photo' },
    }),
  );
  const [key] = await api.rows<{ id: string }>('SELECT id FROM api_keys WHERE org_id = $1', [org.orgId]);
  const [client] = await api.rows<{ id: string }>('SELECT id FROM oauth_clients WHERE org_id = $1', [
    org.orgId,
  ]);
  const [event] = await api.rows<{ id: string }>(
    'SELECT id FROM events WHERE org_id = $1 ORDER BY created_at DESC, position DESC LIMIT 1',
    [org.orgId],
  );
  return {
    trader,
    applicant,
    orderId: order.id,
    apiKeyId: key!.id,
    clientId: client!.id,
    eventId: event!.id,
  };
}

async function expectOk<T = unknown>(pending: Promise<TestResponse<T>>): Promise<T> {
  const response = await pending;
  if (response.status !== 200 || response.body.data === undefined || response.body.data === null) {
    throw new Error(`expected 200, got ${response.status}: ${response.text}`);
  }
  return response.body.data;
}
