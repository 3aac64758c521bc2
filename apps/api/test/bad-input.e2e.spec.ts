// Bad input refused with a clear 4xx and nothing written: prototype keys, bytes that are not UTF-8, and
// bodies of a type or charset the route does not take.
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
