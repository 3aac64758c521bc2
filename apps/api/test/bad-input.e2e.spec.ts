// Bad input refused with a clear 4xx and nothing written: prototype keys, bytes that are not UTF-8, and
// bodies of a type or charset the route does not take; errors of the HTTP layer itself in the envelope;
// a database lost mid-request is a 503.
import { connect } from 'node:net';

import type { Venue } from '../src/orders/venue.js';
import { ApiFixture, type OrgSession } from './support/app-fixture.js';

describe('bad input', () => {
  let api: ApiFixture;
  let org: OrgSession;

  beforeAll(async () => {
    api = await ApiFixture.start();
    org = await api.createOrg();
  });
  afterAll(() => api.close());

  const stored = async () => ({
    users: (await api.rows('SELECT org_user_id FROM users ORDER BY id')).length,
    webhooks: await api.rows('SELECT url, status FROM webhook_endpoints ORDER BY id'),
    events: (await api.rows('SELECT id FROM events')).length,
  });

  it.each(['__proto__', 'constructor', 'prototype'])(
    'the key %s anywhere in a JSON body is a 400 naming it',
    async (key) => {
      const before = await stored();
      const response = await org.bearer('POST', '/api/v1/user/', {
        rawBody: `{"orgUserId":"proto-user","kyc":false,"tnc":true,"extra":[{"${key}":{"a":1}}]}`,
      });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        code: 400,
        data: null,
        error: `Bad Request: body: the key "${key}" is not accepted anywhere in a body`,
      });
      expect(await stored()).toEqual(before);
    },
  );

  it('a body that is not UTF-8 is a 400, not replaced characters', async () => {
    const before = await stored();
    const token = await org.token(['MANAGE_USERS:WRITE']);
    const body = Buffer.concat([
      Buffer.from('{"orgUserId":"bad-'),
      Buffer.from([0xff, 0xfe]),
      Buffer.from('"}'),
    ]);
    const response = await fetch(`${api.baseUrl}/api/v1/user/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body,
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      code: 400,
      data: null,
      error: 'Bad Request: body is not valid UTF-8',
    });
    expect(await stored()).toEqual(before);
  });

  it.each([
    [
      'a form body to the webhooks route',
      'application/x-www-form-urlencoded',
      'url=https%3A%2F%2Fx.example&secret=s',
    ],
    ['a multipart body to the webhooks route', 'multipart/form-data; boundary=b', '--b--\r\n'],
    ['JSON in another charset', 'application/json; charset=latin1', '{"url":"https://x.example/h"}'],
  ])('%s is a 415 and writes nothing', async (_name, contentType, rawBody) => {
    const before = await stored();
    const response = await org.bearer('POST', '/api/v1/webhooks/', { rawBody, contentType });
    expect(response.status).toBe(415);
    expect(response.body).toMatchObject({ code: 415, data: null });
    expect(response.body.error).toMatch(/^Unsupported Media Type: /);
    expect(await stored()).toEqual(before);
  });

  it('JSON declared as UTF-8 is taken', async () => {
    const response = await org.bearer('POST', '/api/v1/user/', {
      rawBody: '{"orgUserId":"utf8-user","kyc":false,"tnc":true}',
      contentType: 'application/json; charset=UTF-8',
    });
    expect(response.status).toBe(200);
  });
});

/** Sends `request` as raw bytes and reads the whole answer (the server closes the connection). */
function rawHttp(baseUrl: string, request: string | Buffer): Promise<string> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(request));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.on('error', reject);
    socket.setTimeout(10_000, () => socket.destroy(new Error('no answer')));
  });
}

/** The status line and the JSON body of a raw answer. */
function parseRaw(answer: string): { status: number; body: unknown } {
  const [head = '', body = ''] = answer.split('\r\n\r\n');
  return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]), body: JSON.parse(body) as unknown };
}

describe('framework-level errors, in the envelope', () => {
  let api: ApiFixture;
  let org: OrgSession;

  beforeAll(async () => {
    api = await ApiFixture.start();
    org = await api.createOrg();
  });
  afterAll(() => api.close());

  it('headers over the limit are a 431', async () => {
    const answer = await rawHttp(
      api.baseUrl,
      `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    expect(parseRaw(answer)).toEqual({
      status: 431,
      body: {
        code: 431,
        data: null,
        error: 'Request Header Fields Too Large: the request headers are over the size limit',
      },
    });
  });

  it('malformed HTTP is a 400', async () => {
    const answer = await rawHttp(api.baseUrl, 'GET /healthz HTTP/1.1\r\nHost x\r\n\r\n');
    expect(parseRaw(answer)).toEqual({
      status: 400,
      body: { code: 400, data: null, error: 'Bad Request: malformed HTTP request' },
    });
  });

  it.each(['TRACE', 'OPTIONS'])('%s is a 405 naming the methods served', async (method) => {
    // Raw: fetch itself refuses to send TRACE.
    const answer = await rawHttp(
      api.baseUrl,
      `${method} /api/v1/org/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
    );
    expect(answer).toMatch(/\r\nallow: GET, HEAD, POST, PUT, PATCH, DELETE\r\n/i);
    expect(parseRaw(answer)).toEqual({
      status: 405,
      body: { code: 405, data: null, error: `Method Not Allowed: ${method} is not served` },
    });
  });

  it('an error text that echoes input is capped: a 900 KB unknown key answers a short text', async () => {
    const key = 'k'.repeat(900_000);
    const response = await org.bearer('POST', '/api/v1/user/', {
      rawBody: `{"orgUserId":"long-key","kyc":false,"tnc":true,"${key}":1}`,
    });
    expect(response.status).toBe(400);
    expect(response.text.length).toBeLessThan(1_200);
    expect(response.body.error).toMatch(/^Bad Request: k{100}…: property k{100}… should not exist$/);
    expect(await api.rows("SELECT 1 FROM users WHERE org_user_id = 'long-key'")).toEqual([]);
  });
});

describe('the database lost in the middle of a request', () => {
  let api: ApiFixture;
  let org: OrgSession;
  // The order's transaction reaches the venue with the user locked; the venue then cuts PostgreSQL off.
  let cutDuringOrder = false;
  const cuttingVenue: Venue = {
    execute: async (order) => {
      if (cutDuringOrder) await api.databaseProxy?.cut();
      return { price: order.markPrice };
    },
  };

  beforeAll(async () => {
    api = await ApiFixture.start({}, { throughProxy: true, venue: cuttingVenue });
    org = await api.createOrg();
    await api.admin('PUT', '/api/v1/admin/prices/BTC_EUR/', { body: { price: 50000 } });
    await api.admin('PATCH', `/api/v1/admin/orgs/${org.orgId}/policy/`, { body: { enabledAssets: ['BTC'] } });
    await org.bearer('POST', '/api/v1/user/', { body: { orgUserId: 'cut-user', kyc: true, tnc: true } });
  });
  afterAll(() => api.close());

  it('is a 503 with Retry-After, never a 500, and the order is not written', async () => {
    cutDuringOrder = true;
    try {
      const response = await org.bearer('POST', '/api/v1/orders/', {
        body: {
          orgUserId: 'cut-user',
          clientOrderId: '6f0e8b1e-5f0c-4d57-9a53-3a3c1e0c9d11',
          symbol: 'BTC_EUR',
          side: 'BUY',
          type: 'MARKET',
          quantity: 0.01,
        },
      });
      expect(response.status).toBe(503);
      expect(response.body).toEqual({
        code: 503,
        data: null,
        error: 'Service Unavailable: the database cannot be reached, retry later',
      });
      expect(response.headers.get('retry-after')).toBe('5');
    } finally {
      cutDuringOrder = false;
      await api.databaseProxy?.restore();
    }
    expect(await api.rows('SELECT id FROM orders')).toEqual([]);
  });
});
