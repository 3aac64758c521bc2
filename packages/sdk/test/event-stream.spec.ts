// client.events.stream() against a real Server-Sent Events server on loopback (test/support/sse-server.ts):
// events and heartbeats, a dropped connection resumed with Last-Event-ID, a silent connection replaced,
// 429 with Retry-After, refusals that end the stream, abort and break, and both kinds of credentials.
import { randomUUID } from 'node:crypto';

import {
  SvcClient,
  SvcNetworkError,
  SvcNotFoundError,
  SvcRateLimitError,
  SvcServerError,
  SvcTimeoutError,
  isEntityEvent,
  type EventStreamOptions,
  type ReconnectInfo,
  type StreamedEvent,
} from '../src/index.js';
import {
  orderEventBody,
  sleepMs,
  startSseServer,
  userEventBody,
  type SseServer,
} from './support/sse-server.js';

describe('client.events.stream() against a loopback event stream', () => {
  let server: SseServer;
  const ids: string[] = Array.from({ length: 5 }, () => randomUUID());
  const bodies = ids.map((_id, index) => userEventBody(`user-${index}`));

  beforeAll(async () => {
    server = await startSseServer();
  });
  afterAll(() => server.close());

  const signed = () =>
    new SvcClient({
      baseUrl: server.baseUrl,
      apiKey: 'pk_stream',
      apiSecret: 'sk_stream',
      retry: { initialDelayMs: 20, maxDelayMs: 50 },
    });

  /** The first `count` events of the stream, and what the reader said about reconnecting. */
  async function take(client: SvcClient, count: number, options: EventStreamOptions = {}) {
    const events: StreamedEvent[] = [];
    const reconnects: ReconnectInfo[] = [];
    for await (const event of client.events.stream({
      ...options,
      onReconnect: (info) => reconnects.push(info),
    })) {
      events.push(event);
      if (events.length === count) break;
    }
    return { events, reconnects };
  }

  it('hands out each event with its id, exact body text and typed event; heartbeats are skipped', async () => {
    server.script((stream) => {
      stream.open();
      stream.heartbeat();
      stream.event(ids[0]!, bodies[0]!);
      stream.heartbeat();
      stream.event(ids[1]!, orderEventBody(41));
    });
    const { events, reconnects } = await take(signed(), 2, { since: '2025-01-01T10:00:00+01:00' });
    expect(events.map((e) => e.id)).toEqual([ids[0], ids[1]]);
    expect(events[0]!.body).toBe(bodies[0]);
    expect(isEntityEvent(events[0]!.event, 'Users') && events[0]!.event.data.orgUserId).toBe('user-0');
    expect(isEntityEvent(events[1]!.event, 'Orders') && events[1]!.event.data.id).toBe(41);
    expect(reconnects).toEqual([]);
    const [request] = server.streams();
    expect(request!.method).toBe('GET');
    // `since` normalised to UTC; the request signed like every other.
    expect(request!.query.get('since')).toBe('2025-01-01T09:00:00.000Z');
    expect(request!.headers.accept).toBe('text/event-stream');
    expect(request!.headers['x-api-key']).toBe('pk_stream');
    expect(request!.headers['x-signature']).toMatch(/^[0-9a-f]{64}$/);
    expect(request!.headers['last-event-id']).toBeUndefined();
    // break closed the connection.
    await request!.closed;
  });

  it('resumes a dropped connection with Last-Event-ID: no event missed, none twice', async () => {
    server.script((stream, request, count) => {
      stream.open();
      if (count === 1) {
        stream.event(ids[0]!, bodies[0]!);
        stream.event(ids[1]!, bodies[1]!);
        // Half of the third event, then the connection is lost.
        stream.write(`id: ${ids[2]!}\ndata: ${bodies[2]!.slice(0, 20)}`);
        setTimeout(() => stream.drop(), 30);
        return;
      }
      // The server resumes after the id it is given.
      const from = ids.indexOf(String(request.headers['last-event-id'])) + 1;
      for (let i = from; i < ids.length; i++) stream.event(ids[i]!, bodies[i]!);
    });
    const { events, reconnects } = await take(signed(), 5, { since: new Date('2025-01-01T00:00:00Z') });
    expect(events.map((e) => e.id)).toEqual(ids);
    expect(events.map((e) => e.body)).toEqual(bodies);
    const [first, second] = server.streams();
    expect(first!.query.get('since')).toBe('2025-01-01T00:00:00.000Z');
    expect(second!.headers['last-event-id']).toBe(ids[1]);
    // Resuming by id, not by time; and signed afresh.
    expect(second!.query.has('since')).toBe(false);
    expect(second!.headers['x-signature']).not.toBe(first!.headers['x-signature']);
    expect(reconnects).toHaveLength(1);
    expect(reconnects[0]).toMatchObject({ attempt: 1, lastEventId: ids[1] });
    expect(reconnects[0]!.error).toBeInstanceOf(SvcNetworkError);
  });

  it('reconnects when the api ends the stream, and starts from lastEventId when given one', async () => {
    server.script((stream, _request, count) => {
      stream.open();
      stream.event(ids[count]!, bodies[count]!);
      stream.end();
    });
    const { events, reconnects } = await take(signed(), 2, { lastEventId: ids[0]! });
    expect(events.map((e) => e.id)).toEqual([ids[1], ids[2]]);
    expect(server.streams().map((r) => r.headers['last-event-id'])).toEqual([ids[0], ids[1]]);
    expect(reconnects).toEqual([
      expect.objectContaining({ attempt: 1, error: undefined, lastEventId: ids[1] }),
    ]);
  });

  it('keeps a connection that sends heartbeats; replaces one that falls silent', async () => {
    server.script(async (stream, _request, count) => {
      stream.open();
      if (count === 1) return; // headers, then silence
      // A heartbeat every 200 ms against a 1 s idle timeout: a busy machine's pauses stay far inside it.
      for (let i = 0; i < 6; i++) {
        await sleepMs(200);
        stream.heartbeat();
      }
      stream.event(ids[0]!, bodies[0]!);
    });
    const started = Date.now();
    const { events, reconnects } = await take(signed(), 1, { idleTimeoutMs: 1000 });
    expect(events.map((e) => e.id)).toEqual([ids[0]]);
    // Silent for 1 s once; the second connection's 1.2 s of heartbeats were not silence.
    expect(reconnects).toHaveLength(1);
    expect(reconnects[0]!.error).toBeInstanceOf(SvcTimeoutError);
    expect(server.streams()).toHaveLength(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(2200);
  });

  it('waits for Retry-After on a 429 (too many streams), then connects', async () => {
    server.script((stream, _request, count) => {
      if (count === 1) {
        stream.refuse(429, 'Too Many Requests: at most 5 event streams per organisation', {
          'retry-after': '1',
        });
        return;
      }
      stream.open();
      stream.event(ids[0]!, bodies[0]!);
    });
    const { events, reconnects } = await take(signed(), 1);
    expect(events.map((e) => e.id)).toEqual([ids[0]]);
    expect(reconnects).toHaveLength(1);
    expect(reconnects[0]!.delayMs).toBe(1000);
    expect(reconnects[0]!.error).toBeInstanceOf(SvcRateLimitError);
    expect(reconnects[0]!.error?.errorText).toContain('event streams');
    expect(server.streams()).toHaveLength(2);
  });

  it('gives up after maxReconnects failures in a row with the last error', async () => {
    server.script((stream) => stream.refuse(503, 'Service Unavailable'));
    const error = await take(signed(), 1, { maxReconnects: 2 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SvcServerError);
    expect(error).toMatchObject({ status: 503, errorText: 'Service Unavailable' });
    expect(server.streams()).toHaveLength(3);
  });

  it('a refusal other than 429 or 5xx ends the stream at once with its typed error', async () => {
    server.script((stream) => stream.refuse(404, 'Not Found: Cannot GET /api/v1/events/stream'));
    const error = await take(signed(), 1).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SvcNotFoundError);
    expect((error as Error).message).toContain('GET /api/v1/events/stream failed with HTTP 404');
    expect(server.streams()).toHaveLength(1);
  });

  it('a body that is not an event, or an answer that is not a stream, is an SvcServerError, not retried', async () => {
    server.script((stream) => {
      stream.open();
      stream.event(ids[0]!, '{"event":{"entity":"Nope"},"data":{}}');
    });
    const error = await take(signed(), 1).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SvcServerError);
    expect((error as Error).message).toContain(`event ${ids[0]!} is not an event this SDK knows`);

    server.script((stream) => {
      stream.response.writeHead(200, { 'content-type': 'application/json' });
      stream.response.end('{"code":200,"data":[],"error":null}');
    });
    const other = await take(signed(), 1).catch((e: unknown) => e);
    expect(other).toBeInstanceOf(SvcServerError);
    expect((other as Error).message).toContain('not an event stream');
    expect(server.streams()).toHaveLength(1);
  });

  it('an abort ends the iteration without an error and closes the connection, waiting or reading', async () => {
    server.script((stream) => {
      stream.open();
      stream.event(ids[0]!, bodies[0]!);
    });
    const controller = new AbortController();
    const seen: string[] = [];
    setTimeout(() => controller.abort(), 150);
    for await (const event of signed().events.stream({ signal: controller.signal })) seen.push(event.id);
    expect(seen).toEqual([ids[0]]);
    await server.streams()[0]!.closed;

    // Aborted while waiting to reconnect.
    server.script((stream) => stream.refuse(503, 'Service Unavailable'));
    const waiting = new AbortController();
    const iteration = (async () => {
      for await (const event of signed().events.stream({
        signal: waiting.signal,
        onReconnect: () => waiting.abort(),
      })) {
        seen.push(event.id);
      }
    })();
    await expect(iteration).resolves.toBeUndefined();
    expect(server.streams()).toHaveLength(1);
  });

  it('with OAuth client credentials: a bearer token, fetched once and sent on each connection', async () => {
    server.script((stream, _request, count) => {
      stream.open();
      stream.event(ids[count - 1]!, bodies[count - 1]!);
      setTimeout(() => stream.drop(), 30);
    });
    const client = new SvcClient({
      baseUrl: server.baseUrl,
      clientId: 'client-1',
      clientSecret: 'secret-1',
      scopes: 'BASE_MODULE:READ',
      retry: { initialDelayMs: 20, maxDelayMs: 50 },
    });
    const { events } = await take(client, 2);
    expect(events.map((e) => e.id)).toEqual([ids[0], ids[1]]);
    expect(server.requests.filter((r) => r.path === '/api/v1/oauth/token')).toHaveLength(1);
    const authorizations = server.streams().map((r) => r.headers.authorization);
    expect(authorizations[0]).toMatch(/^Bearer token-/);
    expect(authorizations[1]).toBe(authorizations[0]);
  });

  it('refuses bad options before connecting, naming the option', () => {
    const client = signed();
    expect(() => client.events.stream({ since: 'yesterday' })).toThrow(/since must be an ISO 8601 time/);
    expect(() => client.events.stream({ since: new Date(), lastEventId: ids[0]! })).toThrow(/not both/);
    expect(() => client.events.stream({ lastEventId: 'a\nb' })).toThrow(/lastEventId must be an event id/);
    expect(() => client.events.stream({ idleTimeoutMs: 0 })).toThrow(/idleTimeoutMs must be > 0/);
    expect(() => client.events.stream({ maxReconnects: -1 })).toThrow(/maxReconnects/);
  });
});
