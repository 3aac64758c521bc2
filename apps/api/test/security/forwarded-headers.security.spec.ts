// Forged X-Forwarded-For, -Host and -Proto: believed only from a proxy TRUST_PROXY names. From anyone else
// they neither buy a fresh throttling budget, nor put another address in the audit log, nor move the links
// the api hands out to another site.
import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';

import { ConfigError, loadConfig } from '../../src/config/config.js';
import { ApiFixture, type OrgSession } from '../support/app-fixture.js';
import type { EnrolledOperator } from '../support/enrolled-operator.js';

const LIMIT = 5;
const LIMITS = { SIGN_IN_ADDRESS_LIMIT: String(LIMIT), TOKEN_RATE_LIMIT_PER_MINUTE: String(LIMIT) };

/** A sign-in with a wrong password for a new account each time, so only the address budget counts. */
const guess = (api: ApiFixture, n: number, forwardedFor: string) =>
  api.request('POST', '/api/v1/admin/session', {
    body: { email: `guess-${n}@ops.test`, password: 'guessing password', code: '000000' },
    headers: { 'x-forwarded-for': forwardedFor },
  });

/** A token request for an unknown client each time, so only the address budget counts. */
const tokenGuess = (api: ApiFixture, n: number, forwardedFor: string) =>
  api.request('POST', '/api/v1/oauth/token', {
    rawBody: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: `cl_guess${n}`,
      client_secret: 'sk_guess',
      scope: 'BASE_MODULE:READ',
    }).toString(),
    contentType: 'application/x-www-form-urlencoded',
    headers: { 'x-forwarded-for': forwardedFor },
  });

/** The address the audit log recorded for `operator`'s latest sign-in. */
async function auditedAddress(api: ApiFixture, operator: EnrolledOperator): Promise<unknown> {
  const [row] = await api.rows<{ details: { address?: string } }>(
    `SELECT a.details FROM audit_log a JOIN operators o ON o.id = a.operator_id
      WHERE a.action = 'operator.sign-in' AND o.email = $1 ORDER BY a.id DESC LIMIT 1`,
    [operator.email],
  );
  return row?.details.address;
}

async function signInFrom(api: ApiFixture, operator: EnrolledOperator, forwardedFor: string) {
  return api.request('POST', '/api/v1/admin/session', {
    body: { email: operator.email, password: operator.password, code: await operator.code() },
    headers: { 'x-forwarded-for': forwardedFor },
  });
}

const FORGED_ORIGIN = { 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' };

describe('forwarded headers from a client (TRUST_PROXY unset)', () => {
  let api: ApiFixture;
  let org: OrgSession;
  beforeAll(async () => {
    api = await ApiFixture.start(LIMITS);
    org = await api.createOrg();
  });
  afterAll(() => api.close());
  beforeEach(() => api.rows('DELETE FROM attempt_counters'));

  it('a new X-Forwarded-For on every sign-in buys no fresh budget: the connection is throttled', async () => {
    const statuses: number[] = [];
    for (let n = 0; n <= LIMIT + 1; n++) statuses.push((await guess(api, n, `198.51.100.${n + 1}`)).status);
    expect(statuses).toEqual([...Array<number>(LIMIT).fill(401), 429, 429]);
    const keys = await api.rows<{ key: string }>(
      "SELECT key FROM attempt_counters WHERE key LIKE 'address:%' ORDER BY key",
    );
    expect(keys.map((row) => row.key)).toEqual(['address:127.0.0.1']);
  });

  it('a new X-Forwarded-For on every token request buys no fresh budget either', async () => {
    const statuses: number[] = [];
    for (let n = 0; n <= LIMIT + 1; n++) {
      statuses.push((await tokenGuess(api, n, `198.51.100.${n + 1}`)).status);
    }
    expect(statuses).toEqual([...Array<number>(LIMIT).fill(401), 429, 429]);
    expect(await api.rows('SELECT count(*)::int AS n FROM oauth_tokens')).toEqual([{ n: 0 }]);
  });

  it('the audit log records the address the connection came from, not the forged one', async () => {
    const ann = await api.enrolOperator('SUPPORT');
    const signedIn = await signInFrom(api, ann, '203.0.113.9');
    expect(signedIn.status).toBe(200);
    expect(await auditedAddress(api, ann)).toBe('127.0.0.1');
  });

  it('a forged X-Forwarded-Host and -Proto do not move the dashboard sign-in link', async () => {
    const response = await org.signed<{ url: string }>('POST', '/api/v1/dashboard/sessions/', {
      body: {},
      headers: FORGED_ORIGIN,
    });
    expect(response.status).toBe(200);
    expect(response.body.data!.url).toMatch(
      new RegExp(`^${api.baseUrl}/dashboard/sign-in\\?token=[A-Za-z0-9_-]{43}$`),
    );
  });

  it("nor /docs' server, where Try it out sends requests", async () => {
    const response = await fetch(`${api.baseUrl}/openapi.json`, { headers: FORGED_ORIGIN });
    const document = (await response.json()) as { servers: { url: string }[] };
    expect(document.servers.map((server) => server.url)).toEqual([api.baseUrl]);
  });

  it("nor take Secure off the console's session cookie by naming loopback", async () => {
    // Sent to a name that is not loopback: the cookie must be Secure, whatever X-Forwarded-Host says.
    const bea = await api.enrolOperator('SUPPORT');
    const body = JSON.stringify({ email: bea.email, password: bea.password, code: await bea.code() });
    const setCookie = await new Promise<string[] | undefined>((resolve, reject) => {
      const request = httpRequest(`${api.baseUrl}/api/v1/admin/session`, {
        method: 'POST',
        headers: {
          host: 'api.example.test',
          'content-type': 'application/json',
          'x-forwarded-host': 'localhost',
          'x-forwarded-proto': 'http',
        },
      });
      request.on('response', (response) => {
        response.resume();
        resolve(response.statusCode === 200 ? response.headers['set-cookie'] : undefined);
      });
      request.on('error', reject);
      request.end(body);
    });
    expect(setCookie).toEqual([expect.stringMatching(/^svc_operator_session=ses_.*; Secure/) as unknown]);
  });
});

describe('forwarded headers from a proxy TRUST_PROXY names', () => {
  let api: ApiFixture;
  let org: OrgSession;
  beforeAll(async () => {
    api = await ApiFixture.start({ ...LIMITS, TRUST_PROXY: '127.0.0.1' });
    org = await api.createOrg();
  });
  afterAll(() => api.close());
  beforeEach(() => api.rows('DELETE FROM attempt_counters'));

  it('throttles sign-ins by the forwarded address: each client its own budget', async () => {
    const statuses: number[] = [];
    for (let n = 0; n <= LIMIT; n++) statuses.push((await guess(api, n, '198.51.100.1')).status);
    expect(statuses).toEqual([...Array<number>(LIMIT).fill(401), 429]);
    expect((await guess(api, 99, '198.51.100.2')).status).toBe(401);
    const keys = await api.rows<{ key: string }>(
      "SELECT key FROM attempt_counters WHERE key LIKE 'address:%' ORDER BY key",
    );
    expect(keys.map((row) => row.key)).toEqual(['address:198.51.100.1', 'address:198.51.100.2']);
  });

  it('throttles token requests by the forwarded address', async () => {
    const statuses: number[] = [];
    for (let n = 0; n <= LIMIT; n++) statuses.push((await tokenGuess(api, n, '198.51.100.1')).status);
    expect(statuses).toEqual([...Array<number>(LIMIT).fill(401), 429]);
    expect((await tokenGuess(api, 99, '198.51.100.2')).status).toBe(401);
  });

  it('the audit log records the forwarded address', async () => {
    const ann = await api.enrolOperator('SUPPORT');
    expect((await signInFrom(api, ann, '203.0.113.9')).status).toBe(200);
    expect(await auditedAddress(api, ann)).toBe('203.0.113.9');
  });

  it('outside production without PUBLIC_URL, the link is on the forwarded host and scheme', async () => {
    const response = await org.signed<{ url: string }>('POST', '/api/v1/dashboard/sessions/', {
      body: {},
      headers: { 'x-forwarded-host': 'api.example.test', 'x-forwarded-proto': 'https' },
    });
    expect(response.body.data!.url).toMatch(/^https:\/\/api\.example\.test\/dashboard\/sign-in\?token=/);
  });
});

describe('PUBLIC_URL', () => {
  let api: ApiFixture;
  beforeAll(async () => {
    api = await ApiFixture.start({ PUBLIC_URL: 'https://api.example.test/', TRUST_PROXY: '127.0.0.1' });
  });
  afterAll(() => api.close());

  it('starts every link and /docs server, whatever a proxy forwards', async () => {
    const org = await api.createOrg();
    const link = await org.signed<{ url: string }>('POST', '/api/v1/dashboard/sessions/', {
      body: {},
      headers: FORGED_ORIGIN,
    });
    expect(link.body.data!.url).toMatch(/^https:\/\/api\.example\.test\/dashboard\/sign-in\?token=/);
    const response = await fetch(`${api.baseUrl}/openapi.json`, { headers: FORGED_ORIGIN });
    const document = (await response.json()) as { servers: { url: string }[] };
    expect(document.servers.map((server) => server.url)).toEqual(['https://api.example.test']);
  });
});

describe('the configuration of TRUST_PROXY and PUBLIC_URL', () => {
  const PRODUCTION = {
    NODE_ENV: 'production',
    DATABASE_URL: 'postgres://svc:svc@db:5432/svc',
    MASTER_KEY: randomBytes(32).toString('base64'),
  };
  /** The lines a refused configuration gives, or [] when it loads. */
  const problems = (env: Record<string, string>): readonly string[] => {
    try {
      loadConfig(env);
      return [];
    } catch (error) {
      if (error instanceof ConfigError) return error.problems;
      throw error;
    }
  };

  it('production refuses to start without PUBLIC_URL, and starts with it', () => {
    expect(problems(PRODUCTION)).toEqual([
      'PUBLIC_URL: required in production (where people reach the api, e.g. https://api.example.com: ' +
        'the links the api hands out start with it)',
    ]);
    expect(loadConfig({ ...PRODUCTION, PUBLIC_URL: 'https://api.example.com/' }).publicUrl).toBe(
      'https://api.example.com',
    );
  });

  it('believes no proxy by default, and exactly the addresses and networks TRUST_PROXY lists', () => {
    const test = { NODE_ENV: 'test', MASTER_KEY: PRODUCTION.MASTER_KEY };
    expect(loadConfig(test).trustProxy).toEqual([]);
    expect(loadConfig({ ...test, TRUST_PROXY: '' }).trustProxy).toEqual([]);
    expect(loadConfig({ ...test, TRUST_PROXY: ' 10.0.0.0/8, 127.0.0.1 ,::1,fd00::/8' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
      '::1',
      'fd00::/8',
    ]);
  });

  it.each(['true', 'nginx.internal', '10.0.0.0/33', '127.0.0.1,garbage'])(
    'refuses TRUST_PROXY=%s with one line naming it',
    (value) => {
      const lines = problems({ ...PRODUCTION, PUBLIC_URL: 'https://api.example.com', TRUST_PROXY: value });
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(
        /^TRUST_PROXY: "[^"]+" is not an IP network \(write it like 127\.0\.0\.0\/8 or ::1\/128\) \(got "[^"]+"\)$/,
      );
    },
  );
});
