// Retries, backoff and timeouts. The failures are provoked by a local node:http server of this test (the
// real api does not answer 429/5xx, stall or reset on demand); it answers like the api (the envelope,
// X-Request-Id) and records what it received, signatures included.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import {
  SvcClient,
  SvcNetworkError,
  SvcRateLimitError,
  SvcServerError,
  SvcTimeoutError,
  type CommonOptions,
} from '../src/index.js';

interface Received {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
  readonly at: number;
}

type Behaviour = (request: Received, response: ServerResponse, count: number) => void;

const ok = (response: ServerResponse, data: unknown) => {
  response.writeHead(200, { 'content-type': 'application/json', 'x-request-id': 'req-ok' });
  response.end(JSON.stringify({ code: 200, data, error: null }));
};
const fail = (response: ServerResponse, status: number, headers: Record<string, string> = {}) => {
  response.writeHead(status, {
    'content-type': 'application/json',
    'x-request-id': `req-${status}`,
    ...headers,
  });
  response.end(JSON.stringify({ code: status, data: null, error: `Failure ${status}` }));
};

describe('retries against a misbehaving server', () => {
  let server: Server;
  let baseUrl: string;
  let behaviour: Behaviour;
  let received: Received[];

  beforeAll(async () => {
    server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      request.on('end', () => {
        const entry = {
          method: request.method ?? '',
          url: request.url ?? '',
          headers: request.headers,
          body,
          at: Date.now(),
        };
        received.push(entry);
        behaviour(entry, response, received.length);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  beforeEach(async () => {
    received = [];
    // No kept-alive connection from a previous test (some end by cutting theirs) may carry this one.
    server.closeAllConnections();
    await new Promise((resolve) => setTimeout(resolve, 20));
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const client = (options: Partial<CommonOptions> = {}) =>
    new SvcClient({
      baseUrl,
      apiKey: 'pk_test',
      apiSecret: 'sk_test',
      retry: { initialDelayMs: 20, maxDelayMs: 100 },
      ...options,
    });

  it('a GET that meets 503 and 502 is retried, each attempt signed afresh, until it succeeds', async () => {
    behaviour = (_request, response, count) =>
      count < 3 ? fail(response, count === 1 ? 503 : 502) : ok(response, { orgId: 7 });
    const org = await client().org.get();
    expect(org).toEqual({ orgId: 7 });
    expect(received).toHaveLength(3);
    const signatures = new Set(received.map((r) => r.headers['x-signature']));
    expect(signatures.size).toBe(3);
  });

  it('gives up after maxRetries with an SvcServerError carrying the status, text, request id and attempts', async () => {
    behaviour = (_request, response) => fail(response, 500);
    const error = await client({ maxRetries: 3 })
      .org.get()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SvcServerError);
    expect(error).toMatchObject({ status: 500, errorText: 'Failure 500', requestId: 'req-500', attempts: 4 });
    expect(received).toHaveLength(4);
  });

  it('backs off exponentially with jitter between attempts', async () => {
    behaviour = (_request, response) => fail(response, 503);
    await client({ maxRetries: 3, retry: { initialDelayMs: 100, maxDelayMs: 1000 } })
      .org.get()
      .catch(() => undefined);
    const gaps = received.slice(1).map((r, i) => r.at - received[i]!.at);
    // Equal jitter: between half and all of 100, 200, 400 ms.
    expect(gaps[0]).toBeGreaterThanOrEqual(45);
    expect(gaps[1]).toBeGreaterThanOrEqual(95);
    expect(gaps[2]).toBeGreaterThanOrEqual(195);
    expect(gaps[2]).toBeLessThan(1000);
  });

  it('honours Retry-After on a 429, and RateLimitError has retryAfter when it gives up', async () => {
    behaviour = (_request, response, count) =>
      count === 1 ? fail(response, 429, { 'retry-after': '1' }) : ok(response, {});
    await client().org.get();
    expect(received).toHaveLength(2);
    expect(received[1]!.at - received[0]!.at).toBeGreaterThanOrEqual(950);

    received = [];
    behaviour = (_request, response) => fail(response, 429, { 'retry-after': '0' });
    const error = await client({ maxRetries: 1 })
      .org.get()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SvcRateLimitError);
    expect((error as SvcRateLimitError).retryAfter).toBe(0);
    expect(received).toHaveLength(2);
  });

  it('does not wait for a Retry-After beyond maxRetryAfterMs: the 429 is thrown at once', async () => {
    behaviour = (_request, response) => fail(response, 429, { 'retry-after': '3600' });
    const started = Date.now();
    const error = await client()
      .org.get()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SvcRateLimitError);
    expect((error as SvcRateLimitError).retryAfter).toBe(3600);
    expect(received).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('a connection reset is an SvcNetworkError, retried for a GET', async () => {
    behaviour = (request, response, count) => {
      if (count === 1) response.socket?.destroy();
      else ok(response, { reset: request.url });
    };
    expect(await client().org.get()).toEqual({ reset: '/api/v1/org/' });
    expect(received).toHaveLength(2);

    received = [];
    behaviour = (_request, response) => response.socket?.destroy();
    const error = await client({ maxRetries: 1 })
      .org.get()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SvcNetworkError);
    expect((error as SvcNetworkError).status).toBeUndefined();
    expect(received).toHaveLength(2);
  });

  it('a server that does not answer in time is an SvcTimeoutError, retried for a GET', async () => {
    behaviour = () => undefined; // never answers
    const started = Date.now();
    const error = await client({ timeoutMs: 200, maxRetries: 1 })
      .org.get()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SvcTimeoutError);
    expect((error as SvcTimeoutError).timeoutMs).toBe(200);
    expect(received).toHaveLength(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(400);
    expect(Date.now() - started).toBeLessThan(2000);
    server.closeAllConnections();
  });

  it('a body that stalls after the headers is a timeout too', async () => {
    behaviour = (_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"code":200,');
    };
    const error = await client({ timeoutMs: 200, maxRetries: 0 })
      .org.get()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SvcTimeoutError);
    server.closeAllConnections();
  });

  it('a write is retried with one Idempotency-Key on every attempt, re-signed each time; a GET carries none', async () => {
    behaviour = (request, response, count) =>
      count < 3 ? response.socket?.destroy() : ok(response, JSON.parse(request.body));
    await client().users.create({ orgUserId: 'u-1', kyc: false, tnc: true });
    expect(received).toHaveLength(3);
    const keys = new Set(received.map((r) => r.headers['idempotency-key']));
    expect(keys.size).toBe(1);
    expect([...keys][0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(received.map((r) => r.headers['x-signature'])).size).toBe(3);

    received = [];
    behaviour = (_request, response) => ok(response, {});
    await client().users.create({ orgUserId: 'u-2', kyc: false, tnc: true });
    await client().org.get();
    expect(received[0]!.headers['idempotency-key']).not.toBe([...keys][0]);
    expect(received[1]!.headers['idempotency-key']).toBeUndefined();
  });

  it("sends the caller's own key, and waits out a 409 idempotency_key_in_use before repeating", async () => {
    behaviour = (_request, response, count) => {
      if (count > 1) {
        ok(response, { orgUserId: 'u-1' });
        return;
      }
      response.writeHead(409, { 'content-type': 'application/json', 'retry-after': '0' });
      response.end(
        JSON.stringify({ code: 409, data: null, error: 'Conflict: idempotency_key_in_use: still running' }),
      );
    };
    await client().users.create({ orgUserId: 'u-1', kyc: false, tnc: true }, { idempotencyKey: 'order-77' });
    expect(received.map((r) => r.headers['idempotency-key'])).toEqual(['order-77', 'order-77']);

    received = [];
    behaviour = (_request, response) => fail(response, 409);
    await expect(client().users.create({ orgUserId: 'u-1', kyc: false, tnc: true })).rejects.toThrow();
    expect(received).toHaveLength(1);
  });

  it('order creation is retried with the same body (the same clientOrderId), re-signed each time', async () => {
    behaviour = (request, response, count) =>
      count < 3 ? response.socket?.destroy() : ok(response, JSON.parse(request.body));
    const order = await client().orders.create({
      orgUserId: 'u-1',
      symbol: 'BTC_EUR',
      side: 'BUY',
      type: 'MARKET',
      quoteQuantity: 100,
    });
    expect(received).toHaveLength(3);
    const bodies = new Set(received.map((r) => r.body));
    expect(bodies.size).toBe(1);
    const sent = JSON.parse(received[0]!.body) as { clientOrderId: string };
    expect(sent.clientOrderId).toMatch(/^[0-9a-f-]{36}$/);
    expect(order).toMatchObject({ clientOrderId: sent.clientOrderId });
    expect(new Set(received.map((r) => r.headers['x-signature'])).size).toBe(3);
  });

  it('an answer that is not the envelope is an SvcServerError, not a crash', async () => {
    behaviour = (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end('<html>proxy</html>');
    };
    const error = await client({ maxRetries: 0 })
      .org.get()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SvcServerError);
    expect((error as Error).message).toMatch(/not a success envelope: <html>proxy<\/html>/);
  });

  it('uses the fetch it is given, and per-call options override the client', async () => {
    behaviour = (_request, response) => fail(response, 503);
    const calls: string[] = [];
    const custom = client({
      maxRetries: 5,
      fetch: (url, init) => {
        calls.push(`${init.method ?? ''} ${url}`);
        return fetch(url, init);
      },
    });
    await expect(custom.org.get({ maxRetries: 1 })).rejects.toBeInstanceOf(SvcServerError);
    expect(calls).toEqual([`GET ${baseUrl}/api/v1/org/`, `GET ${baseUrl}/api/v1/org/`]);
  });

  it('an aborted call stops at once, without retrying', async () => {
    behaviour = () => undefined;
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('caller gave up')), 100);
    await expect(client().org.get({ signal: controller.signal })).rejects.toThrow('caller gave up');
    expect(received).toHaveLength(1);
    server.closeAllConnections();
  });
});
