import { ADMIN_ROUTES, AdminClient, routeUrl } from './client.js';
import { CommandError } from './errors.js';

describe('routeUrl', () => {
  it('fills and encodes the path parameters, and sends only the defined query values', () => {
    expect(
      routeUrl(
        '/api/v1/admin/orgs/{orgId}/api-keys/{id}/revoke',
        { orgId: '7', id: 'a/b c' },
        { x: undefined },
      ),
    ).toBe('/api/v1/admin/orgs/7/api-keys/a%2Fb%20c/revoke');
    expect(routeUrl('/api/v1/admin/audit', {}, { orgId: '7', action: undefined, limit: '2' })).toBe(
      '/api/v1/admin/audit?orgId=7&limit=2',
    );
  });
  it('refuses a template whose parameter has no value', () => {
    expect(() => routeUrl('/api/v1/admin/orgs/{orgId}', {})).toThrow('no value for {orgId}');
  });
});

describe('AdminClient', () => {
  const answering = (status: number, body: string) => {
    const calls: { url: string; init: RequestInit }[] = [];
    const fetchFn: typeof fetch = (url, init = {}) => {
      calls.push({ url: url instanceof Request ? url.url : url.toString(), init });
      return Promise.resolve(new Response(body, { status }));
    };
    return { calls, client: new AdminClient('http://api.test', 'tok', fetchFn) };
  };

  it('sends the personal token and the JSON body, and answers the envelope data', async () => {
    const { calls, client } = answering(
      200,
      '{"code":200,"data":{"symbol":"BTC_EUR","price":5},"error":null}',
    );
    await expect(client.call(ADMIN_ROUTES.setPrice, { symbol: 'BTC_EUR' }, { price: 5 })).resolves.toEqual({
      symbol: 'BTC_EUR',
      price: 5,
    });
    expect(calls).toEqual([
      {
        url: 'http://api.test/api/v1/admin/prices/BTC_EUR',
        init: {
          method: 'PUT',
          headers: {
            authorization: 'Bearer tok',
            'content-type': 'application/json',
          },
          body: '{"price":5}',
        },
      },
    ]);
  });

  it('sends a GET request as a query, without a body', async () => {
    const { calls, client } = answering(200, '{"code":200,"data":{"items":[]},"error":null}');
    await client.call(ADMIN_ROUTES.listOrgs, {}, { limit: '2', cursor: undefined });
    expect(calls[0]!.url).toBe('http://api.test/api/v1/admin/orgs?limit=2');
    expect(calls[0]!.init.body).toBeUndefined();
  });

  it("throws the envelope's error with the HTTP status", async () => {
    const { client } = answering(
      400,
      '{"code":400,"data":null,"error":"Bad Request: price must be positive"}',
    );
    const error = await client.call(ADMIN_ROUTES.getPrice, { symbol: 'X' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CommandError);
    expect(error).toMatchObject({ message: 'Bad Request: price must be positive', status: 400 });
  });

  it('throws on an answer without the envelope, with its status and the start of its text', async () => {
    const { client } = answering(502, '<html>bad gateway</html>');
    await expect(client.call(ADMIN_ROUTES.getOrg, { orgId: '1' })).rejects.toMatchObject({
      status: 502,
      message:
        'GET http://api.test/api/v1/admin/orgs/1 answered HTTP 502 without the envelope: <html>bad gateway</html>',
    });
  });

  it('throws without a status when the api cannot be reached', async () => {
    const refused: typeof fetch = () =>
      Promise.reject(new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } }));
    const client = new AdminClient('http://api.test', 'tok', refused);
    const error = (await client
      .call(ADMIN_ROUTES.listAudit, {}, {})
      .catch((e: unknown) => e)) as CommandError;
    expect(error.status).toBeUndefined();
    expect(error.message).toMatch(/^cannot reach the api at http:\/\/api.test \(ECONNREFUSED\)/);
  });
});
