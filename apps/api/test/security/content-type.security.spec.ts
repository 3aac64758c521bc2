// Every body is refused that is not what it claims: a type a route does not take, a malformed media type
// or a body without one is a 415 on every route that takes a body (enumerated from the app), before any
// parser or handler runs; and a key named like an Object.prototype member is refused like any unknown field
// (docs/api-guide.md#errors).
import { randomUUID } from 'node:crypto';

import { ApiFixture, type OrgSession } from '../support/app-fixture.js';
import { servedRoutes } from '../support/served-routes.js';

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

describe('content types and body keys', () => {
  let api: ApiFixture;
  let org: OrgSession;

  beforeAll(async () => {
    api = await ApiFixture.start();
    org = await api.createOrg();
  });

  afterAll(async () => {
    await api.close();
  });

  /**
   * Rows in every table of the api's schema and queued jobs: what any write would change. A signed
   * request's signature is claimed (used_signatures) before its body is judged, so that table is left out.
   */
  async function everyRowCount(): Promise<Record<string, number>> {
    const tables = await api.rows<{ name: string }>(
      `SELECT table_name AS name FROM information_schema.tables
        WHERE table_schema = 'public' AND table_name <> 'used_signatures' ORDER BY 1`,
    );
    const counts: Record<string, number> = {};
    for (const { name } of tables) {
      const [row] = await api.rows<{ n: number }>(`SELECT count(*)::int AS n FROM "${name}"`);
      counts[name] = row!.n;
    }
    const [jobs] = await api.rows<{ n: number }>('SELECT count(*)::int AS n FROM pgboss.job');
    counts['pgboss.job'] = jobs!.n;
    return counts;
  }

  /** Every route the app serves that takes a body, with its parameters filled in. */
  function routesTakingABody(): { method: string; path: string }[] {
    return servedRoutes(api)
      .map((route) => route.split(' ') as [string, string])
      .filter(([method]) => BODY_METHODS.has(method))
      .map(([method, pattern]) => ({ method, path: pattern.replace(/:[^/]+/g, 'x') }));
  }

  /** Sends `body` as bytes (fetch adds no type of its own to bytes), with `contentType` if given. */
  async function send(
    method: string,
    path: string,
    body: string,
    contentType: string | undefined,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; text: string }> {
    const response = await fetch(api.baseUrl + path, {
      method,
      headers: { ...(contentType === undefined ? {} : { 'content-type': contentType }), ...headers },
      body: new TextEncoder().encode(body),
    });
    return { status: response.status, text: await response.text() };
  }

  it('finds the routes that take a body from the app itself', () => {
    const routes = routesTakingABody().map((route) => `${route.method} ${route.path}`);
    expect(routes.length).toBeGreaterThan(20);
    expect(routes).toEqual(
      expect.arrayContaining([
        'POST /api/v1/user',
        'POST /api/v1/oauth/token',
        'POST /api/v1/oauth/test',
        'POST /api/v1/user/x/kyc/documents',
      ]),
    );
  });

  it.each([
    ['JSON sent as text/plain', 'text/plain', 'text/plain'],
    ['JSON sent as text/plain; charset=utf-8', 'text/plain; charset=utf-8', 'text/plain'],
    ['a malformed media type', 'application/json;;;', 'application/json;;;'],
    ['a parameter without a value', 'application/json; charset', 'application/json; charset'],
    ['two types in one header', 'application/json, text/plain', 'application/json, text/plain'],
    ['XML', 'application/xml', 'application/xml'],
    ['a body without a Content-Type', undefined, 'Content-Type'],
  ])(
    '%s is a 415 naming it on every route that takes a body, and nothing is written',
    async (_name, type, named) => {
      const before = await everyRowCount();
      const refused: string[] = [];
      for (const { method, path } of routesTakingABody()) {
        const answer = await send(method, path, '{"orgUserId":"not-created","kyc":true,"tnc":true}', type);
        if (answer.status !== 415 || !answer.text.includes(named)) {
          refused.push(`${method} ${path}: ${answer.status} ${answer.text.slice(0, 200)}`);
        }
      }
      expect(refused).toEqual([]);
      expect(await everyRowCount()).toEqual(before);
    },
  );

  it('answers the echo the 415 instead of an empty object for JSON sent as text/plain', async () => {
    const token = await org.token(['BASE_MODULE:WRITE']);
    const answer = await send('POST', '/api/v1/oauth/test', '{"hello":"world"}', 'text/plain', {
      authorization: `Bearer ${token}`,
    });
    expect(answer.status).toBe(415);
    expect(JSON.parse(answer.text)).toEqual({
      code: 415,
      data: null,
      error: 'Unsupported Media Type: "text/plain" is not accepted here: send application/json',
    });
  });

  it.each(['application/json', 'application/json; charset=UTF-8', 'Application/JSON ; charset="utf-8"'])(
    'takes JSON declared as %s',
    async (contentType) => {
      const orgUserId = `u-${randomUUID()}`;
      const response = await org.signed('POST', '/api/v1/user/', {
        rawBody: JSON.stringify({ orgUserId, kyc: false, tnc: true }),
        contentType,
      });
      expect(response.status).toBe(200);
      expect(await api.rows('SELECT 1 FROM users WHERE org_user_id = $1', [orgUserId])).toHaveLength(1);
    },
  );

  it('takes a POST without a body and without a Content-Type as before', async () => {
    const token = await org.token(['BASE_MODULE:WRITE']);
    const response = await fetch(`${api.baseUrl}/api/v1/oauth/test`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.status).toBe(200);
  });

  describe('keys named like Object.prototype members', () => {
    it.each([
      ['toString', '"x"', 'toString: property toString should not exist'],
      ['hasOwnProperty', 'true', 'hasOwnProperty: property hasOwnProperty should not exist'],
      ['valueOf', '1', 'valueOf: property valueOf should not exist'],
      ['isPrototypeOf', 'null', 'isPrototypeOf: property isPrototypeOf should not exist'],
      ['constructor', '{}', 'body: the key "constructor" is not accepted anywhere in a body'],
      ['__proto__', '{"kyc":false}', 'body: the key "__proto__" is not accepted anywhere in a body'],
    ])(
      'creating a user with the key %s is a 400 naming it, and nothing is stored',
      async (key, value, message) => {
        const orgUserId = `u-${randomUUID()}`;
        const before = await everyRowCount();
        const response = await org.signed('POST', '/api/v1/user/', {
          rawBody: `{"orgUserId":"${orgUserId}","kyc":true,"tnc":true,${JSON.stringify(key)}:${value}}`,
        });
        expect(response.status).toBe(400);
        expect(response.body).toEqual({ code: 400, data: null, error: `Bad Request: ${message}` });
        expect(await api.rows('SELECT 1 FROM users WHERE org_user_id = $1', [orgUserId])).toEqual([]);
        expect(await everyRowCount()).toEqual(before);
      },
    );

    it('refuses them in a query too, where class-transformer would drop them alike', async () => {
      const response = await org.signed('GET', '/api/v1/user/?toString=1');
      expect(response.status).toBe(400);
      expect(response.body.error).toBe('Bad Request: toString: property toString should not exist');
    });

    it('refuses them nested, with the path', async () => {
      const before = await everyRowCount();
      const response = await api.admin('PATCH', `/api/v1/admin/orgs/${org.orgId}/policy/`, {
        rawBody: '{"quoteLimit":{"EUR":100,"toString":1}}',
      });
      expect(response.status).toBe(400);
      expect(response.body.error).toContain('quoteLimit.toString: property toString should not exist');
      expect(await everyRowCount()).toEqual(before);
    });
  });
});
