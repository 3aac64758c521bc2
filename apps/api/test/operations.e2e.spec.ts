// Operations end to end (docs/api-guide.md#errors, docs/decisions.md, "Operations"): the OpenAPI document and
// UI, metrics, request ids and redacted logs, and the envelope on every failure, including an unexpected
// error and a lost database.
import { Writable } from 'node:stream';

import { RequestMethod } from '@nestjs/common';
import { PATH_METADATA } from '@nestjs/common/constants.js';
import { ModulesContainer } from '@nestjs/core';
import type { OpenAPIObject } from '@nestjs/swagger';
import { isEnvelope } from '@svc/protocol';

import { SECURITY_SCHEMES, WEB_PAGES_METADATA } from '../src/auth/decorators.js';
import { routeRuleOf, securityOf } from '../src/auth/route-rule.js';
import { ApiFixture, type OrgSession, type TestResponse } from './support/app-fixture.js';
import { servedRoutes } from './support/served-routes.js';
import { webPageRoutes } from '../src/web/web-areas.js';
import { INTERNAL_DETAIL, TestRoutesModule } from './support/test-routes.module.js';

/** A pino destination that keeps every line. */
class CapturedLog extends Writable {
  private readonly chunks: string[] = [];

  override _write(chunk: Buffer, _encoding: string, callback: () => void): void {
    this.chunks.push(chunk.toString('utf8'));
    callback();
  }

  get text(): string {
    return this.chunks.join('');
  }

  get lines(): Record<string, unknown>[] {
    return this.text
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  }
}

const form = (fields: Record<string, string>) => ({
  rawBody: new URLSearchParams(fields).toString(),
  contentType: 'application/x-www-form-urlencoded',
});

/** An error answer: the envelope with `code` equal to the status, and the request id returned. */
function expectErrorEnvelope(response: TestResponse, status: number, error?: string | RegExp): void {
  expect(response.status).toBe(status);
  expect(Object.keys(response.body)).toEqual(['code', 'data', 'error']);
  expect(response.body).toMatchObject({ code: status, data: null });
  if (typeof error === 'string') expect(response.body.error).toBe(error);
  else if (error) expect(response.body.error).toMatch(error);
  expect(response.headers.get('x-request-id')).toBeTruthy();
}

describe('operations', () => {
  const log = new CapturedLog();
  let api: ApiFixture;
  let org: OrgSession;

  beforeAll(async () => {
    api = await ApiFixture.start(
      {
        LOG_LEVEL: 'trace',
        BODY_LIMIT_BYTES: '4096',
        TOKEN_RATE_LIMIT_PER_MINUTE: '3',
        // The tests call as a reverse proxy would, which may name the client (X-Forwarded-For).
        TRUST_PROXY: '127.0.0.1',
      },
      { logTo: log, testModules: [TestRoutesModule] },
    );
    org = await api.createOrg();
  });
  afterAll(() => api.close());

  describe('OpenAPI', () => {
    // The token endpoint takes an OAuth client's credentials: HTTP Basic, or in the form.
    const TOKEN_SECURITY = [{ [SECURITY_SCHEMES.clientBasic]: [] }, {}];

    let document: OpenAPIObject;

    beforeAll(async () => {
      const response = await api.request('GET', '/openapi.json');
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      document = response.body as unknown as OpenAPIObject;
    });

    it('is raw OpenAPI 3.1 with the API key headers, the bearer token and the operator credentials as schemes', () => {
      expect(isEnvelope(document)).toBe(false);
      expect(document.openapi).toBe('3.1.0');
      const schemes = document.components?.securitySchemes ?? {};
      expect(schemes[SECURITY_SCHEMES.apiKey]).toMatchObject({
        type: 'apiKey',
        in: 'header',
        name: 'X-API-KEY',
      });
      expect(schemes[SECURITY_SCHEMES.timestamp]).toMatchObject({ type: 'apiKey', name: 'X-TIMESTAMP' });
      expect(schemes[SECURITY_SCHEMES.signature]).toMatchObject({ type: 'apiKey', name: 'X-SIGNATURE' });
      expect(schemes[SECURITY_SCHEMES.bearer]).toMatchObject({ type: 'oauth2' });
      expect(schemes[SECURITY_SCHEMES.admin]).toMatchObject({ type: 'http', scheme: 'bearer' });
      expect(schemes[SECURITY_SCHEMES.operatorToken]).toMatchObject({ type: 'http', scheme: 'bearer' });
      expect(schemes[SECURITY_SCHEMES.operatorSession]).toMatchObject({
        type: 'apiKey',
        in: 'cookie',
        name: 'svc_operator_session',
      });
    });

    it("lists every route the app serves but the operators' /metrics and the web pages, and nothing else", () => {
      // The web areas' pages and assets are not api routes (docs/decisions.md, "Web pages: server-rendered
      // HTML");
      // @fastify/static's /assets/* prints as `*`.
      const pages = new Set(
        webPageRoutes(api.app).map((route) => `${RequestMethod[route.method]} /${route.path}`),
      );
      const served = servedRoutes(api)
        .filter((route) => !route.startsWith('HEAD '))
        .filter((route) => !/^GET \/(docs\b|openapi\.json$|metrics$)/.test(route))
        .filter((route) => !pages.has(route) && route !== 'GET *');
      expect(pages.size).toBeGreaterThan(10);
      const documented = Object.entries(document.paths).flatMap(([path, item]) =>
        Object.keys(item)
          .filter((key) => key !== 'parameters')
          .map((method) => `${method.toUpperCase()} ${path.replace(/\{([^}]+)\}/g, ':$1')}`),
      );
      expect(documented.sort()).toEqual(served.sort());
      expect(served).toEqual(expect.arrayContaining(['GET /healthz', 'POST /api/v1/user']));
      expect(servedRoutes(api)).toContain('GET /metrics');
      expect(document.paths).not.toHaveProperty('/metrics');
    });

    it('gives each route the security its auth decorator declares, which is what the guard reads', () => {
      const operations = new Map(
        Object.values(document.paths).flatMap((item) =>
          Object.values(item).flatMap((operation: { operationId?: string; security?: unknown }) =>
            operation.operationId ? [[operation.operationId, operation] as const] : [],
          ),
        ),
      );
      let checked = 0;
      for (const { metatype, name, handlers } of controllers(api)) {
        // Pages (@WebPages) are out of the document; their sessions are tested in dashboard-sessions and
        // console-admin-roles.
        if (Reflect.getMetadata(WEB_PAGES_METADATA, metatype)) continue;
        for (const handler of handlers) {
          const rule = routeRuleOf(handler, metatype);
          const expected =
            rule.kind === 'public' && handler.name === 'token' ? TOKEN_SECURITY : securityOf(rule);
          const operation = operations.get(`${name.replace(/Controller$/, '')}_${handler.name}`);
          // /metrics is left out of the document on purpose (its own tests: metrics.e2e.spec.ts).
          if (name === 'MetricsController') {
            expect(operation).toBeUndefined();
            continue;
          }
          expect({ route: handler.name, security: operation?.security ?? document.security }).toEqual({
            route: handler.name,
            security: expected,
          });
          checked++;
        }
      }
      expect(checked).toBe(operations.size);
      // Spot checks of each kind.
      const security = (path: string, method: 'get' | 'post') => document.paths[path]?.[method]?.security;
      expect(security('/healthz', 'get')).toEqual([]);
      expect(security('/api/v1/oauth/token', 'post')).toEqual(TOKEN_SECURITY);
      expect(security('/api/v1/test/admin', 'get')).toEqual([
        { [SECURITY_SCHEMES.operatorToken]: [] },
        { [SECURITY_SCHEMES.operatorSession]: [] },
      ]);
      expect(security('/api/v1/admin/operators', 'post')).toEqual([
        { [SECURITY_SCHEMES.operatorToken]: [] },
        { [SECURITY_SCHEMES.operatorSession]: [] },
        { [SECURITY_SCHEMES.admin]: [] },
      ]);
      expect(security('/api/v1/user', 'post')).toEqual([
        { apiKey: [], apiTimestamp: [], apiSignature: [] },
        { bearer: ['MANAGE_USERS:WRITE'] },
      ]);
    });

    it('has every page say who may open it: a console role, a dashboard page or @Public()', () => {
      const undeclared: string[] = [];
      let pages = 0;
      for (const { metatype, name, handlers } of controllers(api)) {
        if (!Reflect.getMetadata(WEB_PAGES_METADATA, metatype)) continue;
        for (const handler of handlers) {
          if (Reflect.getMetadata(PATH_METADATA, handler) === undefined) continue;
          pages++;
          const rule = routeRuleOf(handler, metatype);
          if (!['public', 'console', 'dashboard'].includes(rule.kind))
            undeclared.push(`${name}.${handler.name}`);
        }
      }
      expect(pages).toBeGreaterThan(20);
      expect(undeclared).toEqual([]);
    });

    it('describes answers as the envelope, and a missing scope as {message, status}', () => {
      const createUser = document.paths['/api/v1/user']?.post;
      expect(createUser?.responses['200']).toMatchObject({
        content: {
          'application/json': {
            schema: {
              required: ['code', 'data', 'error'],
              properties: { data: { $ref: '#/components/schemas/User' }, error: { type: 'null' } },
            },
          },
        },
      });
      expect(createUser?.responses.default).toMatchObject({
        content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
      });
      expect(JSON.stringify(createUser?.responses['401'])).toContain('InsufficientScope');
      expect(document.components?.schemas).toHaveProperty('ErrorEnvelope');
    });

    it('/docs serves Swagger UI, whose Try it out calls this api where it listens', async () => {
      const response = await api.request('GET', '/docs');
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      expect(response.text).toContain('swagger-ui');
      const init = await api.request('GET', '/docs/swagger-ui-init.js');
      expect(init.text).toContain('"/api/v1/oauth/token"');
      // Not port 3000: the fixture's api listens on a port of its own.
      expect(init.text).toMatch(
        new RegExp(`"servers": *\\[\\s*\\{\\s*"url": *"${api.baseUrl.replace(/\./g, '\\.')}"`),
      );
      expect(document.servers).toEqual([{ url: api.baseUrl, description: 'This deployment' }]);
    });
  });

  describe('/metrics', () => {
    it('answers Prometheus text: process metrics and request durations by route pattern, never raw URLs', async () => {
      await org.signed('GET', '/api/v1/user/metrics-user-1');
      await api.request('GET', '/no/such/route/42');
      const response = await api.request('GET', '/metrics');
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
      expect(response.text).toMatch(/^# HELP /);
      expect(response.text).toContain('process_cpu_user_seconds_total');
      expect(response.text).toContain('nodejs_eventloop_lag_seconds');
      expect(response.text).toContain('# TYPE http_request_duration_seconds histogram');
      expect(response.text).toMatch(
        /^http_request_duration_seconds_count\{method="GET",route="\/api\/v1\/user\/:orgUserId",status_code="404"\} 1$/m,
      );
      expect(response.text).toMatch(
        /^http_request_duration_seconds_bucket\{le="\+Inf",method="GET",route="\(unmatched\)",status_code="404"\} 1$/m,
      );
      expect(response.text).not.toContain('metrics-user-1');
      expect(response.text).not.toContain('/no/such/route');
    });
  });

  describe('request ids and logs', () => {
    it('honours a sensible X-Request-Id, replaces any other, and returns it', async () => {
      const chosen = await api.request('GET', '/healthz', { headers: { 'x-request-id': 'edge-7f3a:1' } });
      expect(chosen.headers.get('x-request-id')).toBe('edge-7f3a:1');
      const odd = await api.request('GET', '/healthz', { headers: { 'x-request-id': 'no spaces, please' } });
      expect(odd.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
      const none = await api.request('GET', '/healthz');
      expect(none.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
      expect(none.headers.get('x-request-id')).not.toBe(odd.headers.get('x-request-id'));
    });

    it('logs one line per request with its id, method, URL and status, and no secret', async () => {
      const secrets: string[] = [org.clientSecret, org.apiSecret, org.apiKey, api.adminToken];
      const responses: TestResponse[] = [];
      const keep = (response: TestResponse) => {
        responses.push(response);
        return response;
      };

      const token = keep(
        await api.request(
          'POST',
          '/api/v1/oauth/token',
          form({
            grant_type: 'client_credentials',
            client_id: org.clientId,
            client_secret: org.clientSecret,
            scope: 'BASE_MODULE:READ',
          }),
        ),
      );
      expect(token.status).toBe(200);
      const accessToken = (token.body.data as { access_token: string }).access_token;
      secrets.push(accessToken);
      const basic = Buffer.from(`${org.clientId}:${org.clientSecret}`).toString('base64');
      secrets.push(basic);
      keep(
        await api.request('POST', '/api/v1/oauth/token', {
          ...form({ grant_type: 'client_credentials', scope: 'BASE_MODULE:READ' }),
          headers: { authorization: `Basic ${basic}` },
        }),
      );
      const wrong = 'cs_wrong-secret-that-must-not-be-logged';
      secrets.push(wrong);
      keep(
        await api.request(
          'POST',
          '/api/v1/oauth/token',
          form({
            grant_type: 'client_credentials',
            client_id: org.clientId,
            client_secret: wrong,
            scope: 'BASE_MODULE:READ',
          }),
        ),
      );
      expect(
        keep(
          await api.request('GET', '/api/v1/org/', { headers: { authorization: `Bearer ${accessToken}` } }),
        ).status,
      ).toBe(200);
      const signed = keep(
        await org.signed('POST', '/api/v1/user/', { body: { orgUserId: 'log-1', kyc: false, tnc: true } }),
      );
      expect(signed.status).toBe(200);
      expect(keep(await api.admin('GET', '/api/v1/test/admin')).status).toBe(200);
      const leaky = 'q-secret-4c1d';
      secrets.push(leaky);
      keep(await api.request('GET', `/healthz?client_secret=${leaky}&access_token=${leaky}&page=2`));

      const text = log.text;
      for (const secret of secrets) expect(text).not.toContain(secret);
      // The signature was sent too: no 64-digit hex in the log at all.
      expect(text).not.toMatch(/[0-9a-f]{64}/);

      const completed = log.lines.filter((line) => line.msg === 'request completed');
      for (const response of responses) {
        const id = response.headers.get('x-request-id');
        const lines = completed.filter((line) => line.reqId === id);
        expect(lines).toHaveLength(1);
        expect(lines[0]).toMatchObject({ statusCode: response.status });
        expect(typeof lines[0]?.method).toBe('string');
        expect(typeof lines[0]?.url).toBe('string');
      }
      const byUrl = (url: string) =>
        completed.find((line) => typeof line.url === 'string' && line.url.startsWith(url));
      expect(byUrl('/api/v1/org')).toMatchObject({ method: 'GET', route: '/api/v1/org', statusCode: 200 });
      expect(byUrl('/healthz?')).toMatchObject({
        url: '/healthz?client_secret=[redacted]&access_token=[redacted]&page=2',
      });
    });
  });

  describe('the envelope on every failure', () => {
    it('404 for an unknown route', async () => {
      const response = await api.request('GET', '/api/v1/nothing-here?x=1');
      expectErrorEnvelope(response, 404, 'Not Found: no route GET /api/v1/nothing-here');
    });

    it('400 naming the field and the rule, and nothing stored', async () => {
      const response = await org.signed('POST', '/api/v1/user/', {
        body: { orgUserId: 'bad-1', kyc: 'yes', tnc: true },
      });
      expectErrorEnvelope(response, 400, /kyc must be a boolean/);
      expect(await api.rows('SELECT 1 FROM users WHERE org_user_id = $1', ['bad-1'])).toHaveLength(0);
    });

    it('413 for a body over BODY_LIMIT_BYTES', async () => {
      const response = await api.request('POST', '/api/v1/user/', {
        body: { orgUserId: 'big', note: 'x'.repeat(4096) },
      });
      expectErrorEnvelope(response, 413, /^Payload Too Large/);
    });

    it('415 for a content type the api does not take', async () => {
      const response = await api.request('POST', '/api/v1/user/', {
        rawBody: '<user/>',
        contentType: 'application/xml',
      });
      expectErrorEnvelope(response, 415, /^Unsupported Media Type/);
    });

    it('429 with Retry-After when the token endpoint is asked too often', async () => {
      const other = await api.createOrg();
      // A caller of its own (forwarded by a trusted proxy), so the other tests' token requests do not count.
      const ask = () =>
        api.request('POST', '/api/v1/oauth/token', {
          ...form({
            grant_type: 'client_credentials',
            client_id: other.clientId,
            client_secret: 'x',
            scope: 'BASE_MODULE:READ',
          }),
          headers: { 'x-forwarded-for': '198.51.100.7' },
        });
      for (let i = 0; i < 3; i++) expect((await ask()).status).toBe(401);
      const refused = await ask();
      expectErrorEnvelope(refused, 429, /^Too Many Requests: retry in \d+ s$/);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    });

    it('500 with a generic text and an error id, the details only in the log', async () => {
      const response = await api.request('GET', '/api/v1/test/boom');
      expectErrorEnvelope(response, 500, /^Internal Server Error \(error id [0-9a-f-]{36}\)$/);
      expect(response.text).not.toContain('secret_table');
      expect(response.text).not.toContain('internal.ts');
      const errorId = /error id ([0-9a-f-]{36})/.exec(String(response.body.error))?.[1];
      const logged = log.lines.find((line) => line.errorId === errorId);
      expect(logged).toMatchObject({ msg: 'unhandled error', err: { message: INTERNAL_DETAIL } });
    });
  });
});

describe('PostgreSQL unreachable', () => {
  let api: ApiFixture;
  let org: OrgSession;

  beforeAll(async () => {
    api = await ApiFixture.start({}, { throughProxy: true });
    org = await api.createOrg();
  });
  afterAll(() => api.close());

  it('answers 503 with the envelope and Retry-After, and recovers when it is back', async () => {
    // Distinct queries, so that no two calls in the same second carry the same signature (a replay).
    expect((await org.signed('GET', '/api/v1/org/?call=1')).status).toBe(200);
    await api.databaseProxy?.cut();
    try {
      const ready = await api.request('GET', '/readyz');
      expectErrorEnvelope(ready, 503, /^Service Unavailable/);
      expect(ready.headers.get('retry-after')).toBe('5');
      const health = await api.request('GET', '/healthz');
      expect(health.status).toBe(200);
      const call = await org.signed('GET', '/api/v1/org/?call=2');
      expectErrorEnvelope(call, 503, 'Service Unavailable: the database cannot be reached, retry later');
      expect(call.headers.get('retry-after')).toBe('5');
    } finally {
      await api.databaseProxy?.restore();
    }
    expect((await api.request('GET', '/readyz')).status).toBe(200);
    expect((await org.signed('GET', '/api/v1/org/?call=3')).status).toBe(200);
  });
});

/** Every controller of the app with its route handlers. */
function controllers(api: ApiFixture) {
  return [...api.app.get(ModulesContainer).values()].flatMap((module) =>
    [...module.controllers.values()].map((wrapper) => {
      const metatype = wrapper.metatype as new (...args: never[]) => object;
      const prototype = metatype.prototype as Record<string, unknown>;
      const handlers = Object.getOwnPropertyNames(prototype)
        .filter((key) => key !== 'constructor')
        .map((key) => prototype[key])
        .filter((value): value is (...args: unknown[]) => unknown => typeof value === 'function')
        // Nest's route metadata: the handlers are the methods with a path.
        .filter((handler) => (Reflect.getMetadata('path', handler) as unknown) !== undefined);
      return { metatype, name: metatype.name, handlers };
    }),
  );
}
