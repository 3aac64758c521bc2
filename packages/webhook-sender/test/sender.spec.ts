// The sender against a real receiver on loopback: signing, the 1 s limit, what counts as delivered,
// redirects, and the address rules, with the resolver swapped where a test needs a name to point
// somewhere (no request ever leaves loopback).
import type { LookupAddress } from 'node:dns';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import { verifyWebhookRequest } from '@svc/protocol';

import { runChallenge } from '../src/challenge.js';
import { DEVELOPMENT_POLICY } from '../src/policy.js';
import { ReceiverRefusedError } from '../src/receiver-url.js';
import { WebhookSender, type Resolver, webhookRequestHeaders } from '../src/sender.js';
import { TestReceiver } from '../src/testing/receiver.js';

const SECRET = 'whsec_test-secret';
const BODY = '{"event":{"orgId":1,"entity":"Users","numRetries":0},"data":{"orgUserId":"u/1","n":55.5}}';

const fixed =
  (table: Record<string, string[]>): Resolver =>
  (hostname) => {
    const addresses = table[hostname];
    if (!addresses) return Promise.reject(Object.assign(new Error('not found'), { code: 'ENOTFOUND' }));
    return Promise.resolve(addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })));
  };

describe('WebhookSender on loopback (development policy)', () => {
  let receiver: TestReceiver;
  let sender: WebhookSender;
  beforeAll(async () => {
    receiver = await TestReceiver.start(SECRET);
    sender = new WebhookSender({ policy: DEVELOPMENT_POLICY });
  });
  afterAll(async () => {
    await sender.close();
    await receiver.close();
  });
  beforeEach(() => {
    receiver.responder = () => ({});
  });

  const send = (path = '/hook') =>
    sender.send({ url: new URL(receiver.url(path)), body: BODY, secret: SECRET, eventId: 'evt-1' });

  it('POSTs the exact body, signed, with svc-timestamp in ms and svc-event-id; 200 is delivered', async () => {
    const before = receiver.requests.length;
    const result = await send();
    expect(result).toMatchObject({ delivered: true, statusCode: 200, errorKind: null });
    const request = receiver.requests[before]!;
    expect(request.body).toBe(BODY);
    expect(request.verified).toBe(true);
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['svc-event-id']).toBe('evt-1');
    expect(Number(request.headers['svc-timestamp'])).toBeGreaterThan(Date.now() - 5000);
    expect(request.headers['svc-timestamp']).toMatch(/^\d{13}$/);
    expect(verifyWebhookRequest(request.body, request.headers, SECRET)).toMatchObject({ ok: true });
    expect(verifyWebhookRequest(request.body, request.headers, 'other')).toMatchObject({ ok: false });
  });

  it('sends exactly the headers webhookRequestHeaders builds, signed at the attempt start it reports', async () => {
    const before = receiver.requests.length;
    const result = await send();
    const request = receiver.requests[before]!;
    expect(request.headers['svc-timestamp']).toBe(String(result.startedAt.getTime()));
    const expected = webhookRequestHeaders(
      { body: BODY, secret: SECRET, eventId: 'evt-1' },
      result.startedAt.getTime(),
    );
    expect(Object.keys(expected)).toEqual([
      'content-type',
      'svc-signature',
      'svc-timestamp',
      'svc-event-id',
      'user-agent',
    ]);
    for (const [name, value] of Object.entries(expected))
      expect([name, request.headers[name]]).toEqual([name, value]);
  });

  it.each([
    [500, 'boom'],
    [201, 'created'],
    [204, ''],
    [400, 'bad signature'],
  ])('counts HTTP %i as a failure and keeps the answer', async (status, body) => {
    receiver.responder = () => ({ status, body });
    expect(await send()).toMatchObject({
      delivered: false,
      statusCode: status,
      errorKind: 'http_status',
      response: body,
    });
  });

  it.each<[string, number, Record<string, string>, number | null]>([
    ['429 with Retry-After in seconds', 429, { 'retry-after': '120' }, 120_000],
    ['429 without Retry-After', 429, {}, null],
    ['429 with a Retry-After that is no value', 429, { 'retry-after': 'later' }, null],
    ['500 with Retry-After (only 429 and 503 ask for time)', 500, { 'retry-after': '120' }, null],
    ['200 with Retry-After', 200, { 'retry-after': '120' }, null],
  ])('reads %s', async (_name, status, headers, expected) => {
    receiver.responder = () => ({ status, headers });
    expect(await send()).toMatchObject({ statusCode: status, retryAfterMs: expected });
  });

  it('reads a 503 with Retry-After as an HTTP-date', async () => {
    receiver.responder = () => ({
      status: 503,
      headers: { 'retry-after': new Date(Date.now() + 90_000).toUTCString() },
    });
    const result = await send();
    // The date has whole seconds: 89 to 90 s from the answer.
    expect(result.retryAfterMs).toBeGreaterThan(88_000);
    expect(result.retryAfterMs).toBeLessThanOrEqual(90_000);
  });

  it('gives up when the status line takes longer than 1 s', async () => {
    receiver.responder = () => ({ delayMs: 1200 });
    const result = await send();
    expect(result).toMatchObject({ delivered: false, statusCode: null, errorKind: 'timeout' });
    expect(result.durationMs).toBeGreaterThanOrEqual(990);
    expect(result.durationMs).toBeLessThan(1150);
  });

  it('reports a reset connection', async () => {
    receiver.responder = () => ({ reset: true });
    expect(await send()).toMatchObject({ delivered: false, statusCode: null, errorKind: 'connection_reset' });
  });

  it('reports a refused connection', async () => {
    const closed = await TestReceiver.start(SECRET);
    const url = new URL(closed.url());
    await closed.close();
    expect(await sender.send({ url, body: BODY, secret: SECRET })).toMatchObject({
      delivered: false,
      errorKind: 'connection_refused',
    });
  });

  it('keeps the first 1 KB of the answer', async () => {
    receiver.responder = () => ({ status: 503, body: 'é'.repeat(600) + 'x'.repeat(5000) });
    const result = await send();
    expect(Buffer.byteLength(result.response)).toBeLessThanOrEqual(1024);
    expect(result.response.startsWith('é'.repeat(500))).toBe(true);
  });

  it('stops reading an answer whose body stalls, 1 s after its status line, keeping what came', async () => {
    const stalled = createServer((request, response) => {
      request.resume();
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.write('partial');
    });
    await new Promise<void>((resolve) => stalled.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = stalled.address() as AddressInfo;
      const result = await sender.send({
        url: new URL(`http://127.0.0.1:${port}/hook`),
        body: BODY,
        secret: SECRET,
      });
      expect(result).toMatchObject({ delivered: true, statusCode: 200, response: 'partial' });
      expect(result.durationMs).toBeGreaterThanOrEqual(990);
      expect(result.durationMs).toBeLessThan(1500);
    } finally {
      stalled.closeAllConnections();
      await new Promise((resolve) => stalled.close(resolve));
    }
  });

  it('does not follow a redirect', async () => {
    const target = await TestReceiver.start(SECRET);
    receiver.responder = () => ({ status: 307, headers: { location: target.url('/elsewhere') } });
    expect(await send()).toMatchObject({ delivered: false, statusCode: 307, errorKind: 'http_status' });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(target.requests).toHaveLength(0);
    await target.close();
  });

  it('signs every attempt afresh', async () => {
    const before = receiver.requests.length;
    await send();
    await new Promise((resolve) => setTimeout(resolve, 5));
    await send();
    const [a, b] = receiver.requests.slice(before);
    expect(a!.headers['svc-timestamp']).not.toBe(b!.headers['svc-timestamp']);
    expect(a!.headers['svc-signature']).not.toBe(b!.headers['svc-signature']);
    expect(a!.headers['svc-event-id']).toBe(b!.headers['svc-event-id']);
  });
});

describe('WebhookSender address rules (production policy: public addresses only)', () => {
  let receiver: TestReceiver;
  beforeAll(async () => {
    receiver = await TestReceiver.start(SECRET);
  });
  afterAll(() => receiver.close());

  const strict = (resolver?: Resolver) =>
    new WebhookSender({
      policy: { allowHttp: true, allowedNetworks: [] },
      ...(resolver ? { resolver } : {}),
    });

  it.each([
    ['loopback', '127.0.0.1'],
    ['a private address', '10.0.0.8'],
    ['another private range', '192.168.0.10'],
    ['link-local', '169.254.10.1'],
    ['the metadata address', '169.254.169.254'],
    ['IPv6 loopback', '::1'],
    ['an IPv4-mapped loopback', '::ffff:127.0.0.1'],
  ])('refuses a name that resolves to %s, sending nothing', async (_name, address) => {
    const sender = strict(fixed({ 'hooks.example.com': [address] }));
    const result = await sender.send({
      url: new URL(`http://hooks.example.com:${receiver.port}/hook`),
      body: BODY,
      secret: SECRET,
    });
    expect(result).toMatchObject({ delivered: false, statusCode: null, errorKind: 'blocked_address' });
    expect(result.response).toContain(`resolves to ${address}`);
    await sender.close();
  });

  it('refuses a name with one private address among public ones', async () => {
    const sender = strict(fixed({ 'hooks.example.com': ['93.184.216.34', '10.0.0.1'] }));
    await expect(sender.vet('hooks.example.com')).rejects.toThrow(ReceiverRefusedError);
    await sender.close();
  });

  it.each(['127.0.0.1', '[::1]', '169.254.169.254', '2130706433', '0x7f.0.0.1'])(
    'refuses the address literal %s',
    async (host) => {
      const sender = strict();
      const result = await sender.send({
        url: new URL(`http://${host}:${receiver.port}/hook`),
        body: BODY,
        secret: SECRET,
      });
      expect(result).toMatchObject({ delivered: false, errorKind: 'blocked_address' });
      await sender.close();
    },
  );

  it('refuses the real name localhost', async () => {
    const before = receiver.requests.length;
    const sender = strict();
    expect(await sender.send({ url: new URL(receiver.url()), body: BODY, secret: SECRET })).toMatchObject({
      errorKind: 'blocked_address',
    });
    expect(receiver.requests).toHaveLength(before);
    await sender.close();
  });

  it('reports a name that does not resolve', async () => {
    const sender = strict(fixed({}));
    expect(
      await sender.send({ url: new URL('https://nowhere.example.com/'), body: BODY, secret: SECRET }),
    ).toMatchObject({ errorKind: 'dns_failure' });
    await sender.close();
  });

  it('connects to the address it vetted: one resolution per connection, no second answer asked for', async () => {
    const answers: string[][] = [['127.0.0.1'], ['169.254.169.254']];
    const calls: string[] = [];
    const rebinding: Resolver = (hostname) => {
      calls.push(hostname);
      const next = answers.shift() ?? ['169.254.169.254'];
      return Promise.resolve(next.map((address): LookupAddress => ({ address, family: 4 })));
    };
    const sender = new WebhookSender({
      policy: { allowHttp: true, allowedNetworks: ['127.0.0.1/32'] },
      resolver: rebinding,
    });
    const url = new URL(`http://hooks.example.com:${receiver.port}/pinned`);
    const before = receiver.requests.length;
    expect(await sender.send({ url, body: BODY, secret: SECRET })).toMatchObject({ delivered: true });
    expect(calls).toEqual(['hooks.example.com']);
    expect(receiver.requests[before]?.headers.host).toBe(`hooks.example.com:${receiver.port}`);
    await sender.close();
    // A new connection asks again, and the rebinding answer is refused.
    const fresh = new WebhookSender({
      policy: { allowHttp: true, allowedNetworks: ['127.0.0.1/32'] },
      resolver: rebinding,
    });
    expect(await fresh.send({ url, body: BODY, secret: SECRET })).toMatchObject({
      errorKind: 'blocked_address',
    });
    await fresh.close();
  });
});

describe('runChallenge', () => {
  let receiver: TestReceiver;
  let sender: WebhookSender;
  beforeAll(async () => {
    receiver = await TestReceiver.start(SECRET);
    sender = new WebhookSender({ policy: DEVELOPMENT_POLICY });
  });
  afterAll(async () => {
    await sender.close();
    await receiver.close();
  });

  it('passes when the receiver answers the challenge string, signed with the secret', async () => {
    receiver.responder = () => ({});
    const result = await runChallenge(sender, new URL(receiver.url()), SECRET);
    expect(result).toMatchObject({ passed: true, reason: null });
    const request = receiver.requests.at(-1)!;
    expect(request.verified).toBe(true);
    expect(Object.keys(JSON.parse(request.body) as object)).toEqual(['challenge']);
    expect(request.headers['svc-event-id']).toBeUndefined();
  });

  it.each([
    ['a wrong answer', { body: 'nope' }, 'the receiver did not answer with the challenge string'],
    ['HTTP 500', { status: 500 }, 'the receiver answered HTTP 500, not 200'],
    ['a late answer', { delayMs: 1200 }, 'timeout: no status line within 1000 ms'],
  ])('fails on %s', async (_name, answer, reason) => {
    receiver.responder = () => answer;
    expect(await runChallenge(sender, new URL(receiver.url()), SECRET)).toMatchObject({
      passed: false,
      reason,
    });
  });
});
