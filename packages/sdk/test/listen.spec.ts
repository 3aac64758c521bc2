// `svc listen` against a loopback event stream (test/support/sse-server.ts) and a receiver built on the SDK's
// own webhook handler, verifying every forward with the secret the listener printed: exact bodies, event
// ids, the --events filter, a dropped connection and a 429 on the way, receivers that fail, the stop, the
// one-line refusals of bad flags and refused credentials, and the end after --max-tries failures in a row
// (an address nobody listens on, an api that drops and then fails), in-process and through the built bin.
import { execFile, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

import { packageDir } from './support/consumer.js';
import { run, running, startReceiver, until } from './support/listener.js';
import { orderEventBody, startSseServer, userEventBody, type SseServer } from './support/sse-server.js';

/** An address on loopback that nobody listens on: a port that was just free, closed again. */
async function closedAddress(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

describe('svc listen', () => {
  let api: SseServer;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  const env = () => ({ SVC_URL: api.baseUrl, SVC_API_KEY: 'pk_listen', SVC_API_SECRET: 'sk_listen' });

  beforeAll(async () => {
    api = await startSseServer();
    receiver = await startReceiver();
  });
  afterEach(async () => {
    for (const listener of running.splice(0)) {
      listener.stop();
      await listener.exit;
    }
    receiver.deliveries.length = 0;
    receiver.handled.length = 0;
    receiver.fail(false);
  });
  afterAll(async () => {
    await api.close();
    await receiver.close();
  });

  it('forwards each event, signed with the secret it printed; follows a drop and a 429; --events filters', async () => {
    const ids = Array.from({ length: 4 }, (): string => randomUUID());
    const bodies = [
      userEventBody('u-0'),
      orderEventBody(9),
      userEventBody('u-2', 'KYC_COMPLETED'),
      userEventBody('u-3'),
    ];
    let secretKnown: () => void = () => undefined;
    const ready = new Promise<void>((resolve) => (secretKnown = resolve));
    api.script(async (stream, request, count) => {
      if (count === 1) {
        stream.refuse(429, 'Too Many Requests: too many event streams', { 'retry-after': '1' });
        return;
      }
      stream.open();
      await ready;
      stream.heartbeat();
      if (count === 2) {
        stream.event(ids[0]!, bodies[0]!);
        stream.event(ids[1]!, bodies[1]!);
        setTimeout(() => stream.drop(), 50);
        return;
      }
      const from = ids.indexOf(String(request.headers['last-event-id'])) + 1;
      for (let i = from; i < ids.length; i++) stream.event(ids[i]!, bodies[i]!);
    });
    const listener = run(['listen', '--forward-to', receiver.url, '--events', 'Users, KYC_COMPLETED'], env());
    await until('the secret', () =>
      listener.stdout.some((line) => line.startsWith('Webhook signing secret: ')),
    );
    const secret = listener.stdout.find((line) => line.startsWith('Webhook signing secret: '))!.slice(24);
    expect(secret).toMatch(/^whsec_[0-9a-f]{48}$/);
    receiver.useSecret(secret);
    secretKnown();
    await until('three forwards', () => receiver.deliveries.length === 3);
    // The Orders event was left out; the others arrived once each, bodies exact, verified by the handler.
    expect(receiver.deliveries.map((d) => d.status)).toEqual([200, 200, 200]);
    expect(receiver.deliveries.map((d) => d.body)).toEqual([bodies[0], bodies[2], bodies[3]]);
    expect(receiver.handled.map((h) => h.eventId)).toEqual([ids[0], ids[2], ids[3]]);
    expect(receiver.handled.map((h) => h.event.event.eventType ?? h.event.event.entity)).toEqual([
      'Users',
      'KYC_COMPLETED',
      'Users',
    ]);
    const headers = receiver.deliveries[0]!.headers;
    expect(headers['svc-signature']).toMatch(/^[0-9a-f]{64}$/);
    expect(Math.abs(Number(headers['svc-timestamp']) - Date.now())).toBeLessThan(10_000);
    expect(headers['content-type']).toBe('application/json');
    expect(headers['user-agent']).toMatch(/^svc-listen\//);
    // The api saw: the 429, the first stream, and the resume after the last event it sent.
    expect(api.streams().map((r) => r.headers['last-event-id'])).toEqual([undefined, undefined, ids[1]]);

    await until('three lines', () => listener.stdout.filter((line) => line.includes(' -> ')).length === 3);
    const lines = listener.stdout.filter((line) => line.includes(' -> '));
    expect(lines[0]).toMatch(
      new RegExp(`^\\d{4}-\\d\\d-\\d\\dT[0-9:.]+Z  Users +${ids[0]!}  -> 200 in \\d+ ms$`),
    );
    expect(lines[1]).toContain(`KYC_COMPLETED      ${ids[2]!}  -> 200 in `);
    expect(listener.stdout[0]).toBe(`Forwarding events to ${receiver.url} (only Users, KYC_COMPLETED)`);
    expect(
      listener.stderr.some(
        (line) =>
          line.startsWith(`Could not open the event stream at ${api.baseUrl}: `) &&
          /too many event streams \(request id req-429\); retry 1 of 4 in 1\.0 s$/.test(line),
      ),
    ).toBe(true);
    expect(
      listener.stderr.some((line) =>
        line.startsWith('Connection lost: GET /api/v1/events/stream: the stream broke'),
      ),
    ).toBe(true);
    expect(listener.stderr).toContain(`Connected to the event stream, resuming after ${ids[1]!}`);

    listener.stop();
    await expect(listener.exit).resolves.toBe(0);
    expect(listener.stderr.at(-1)).toBe(`Stopped; resume with --last-event-id ${ids[3]!}`);
  });

  it('shows what a failing or absent receiver answered; starts after --last-event-id; a fixed --secret', async () => {
    const ids = [randomUUID(), randomUUID(), randomUUID()];
    api.script((stream, request) => {
      stream.open();
      expect(request.headers['last-event-id']).toBe(ids[0]);
      stream.event(ids[1]!, userEventBody('u-1'));
    });
    const secret = 'whsec_fixed_for_this_test_0123';
    receiver.useSecret(secret);
    receiver.fail(true);
    const listener = run(['listen', '--forward-to', receiver.url, '--last-event-id', ids[0]!], {
      ...env(),
      SVC_WEBHOOK_SECRET: secret,
    });
    await until('the forward', () => listener.stdout.some((line) => line.includes(' -> ')));
    expect(listener.stdout).toContain('Signing with the secret given (--secret or SVC_WEBHOOK_SECRET)');
    expect(listener.stdout.join('\n')).not.toContain(secret);
    // Verified with the fixed secret (the handler ran the callback, whose failure answered 500).
    expect(receiver.deliveries.map((d) => d.status)).toEqual([500]);
    expect(receiver.deliveries[0]!.headers['svc-event-id']).toBe(ids[1]);
    expect(listener.stdout.find((line) => line.includes(' -> '))).toMatch(
      /-> 500 in \d+ ms \(not delivered: the service would retry\)$/,
    );
    listener.stop();
    await expect(listener.exit).resolves.toBe(0);

    // Nobody listening at the address.
    api.script((stream) => {
      stream.open();
      stream.event(ids[2]!, userEventBody('u-2'));
    });
    const closed = await startReceiver();
    const nowhere = closed.url;
    await closed.close();
    const again = run(['listen', '--forward-to', nowhere, '--secret', secret], env());
    await until('the forward', () => again.stdout.some((line) => line.includes(' -> ')));
    expect(again.stdout.find((line) => line.includes(' -> '))).toMatch(/-> failed: no answer \(ECONNREFUSED/);
    again.stop();
    await expect(again.exit).resolves.toBe(0);
  });

  it('takes an OAuth client from the environment', async () => {
    const id = randomUUID();
    api.script((stream) => {
      stream.open();
      stream.event(id, userEventBody('u-oauth'));
    });
    const listener = run(['listen', '--forward-to', receiver.url], {
      SVC_URL: api.baseUrl,
      SVC_CLIENT_ID: 'client-1',
      SVC_CLIENT_SECRET: 'secret-1',
    });
    await until('the secret', () => listener.stdout.length >= 2);
    receiver.useSecret(listener.stdout[1]!.slice(24));
    await until('the forward', () => receiver.deliveries.length === 1);
    expect(receiver.deliveries[0]!.status).toBe(200);
    expect(receiver.handled[0]!.eventId).toBe(id);
    expect(api.streams()[0]!.headers.authorization).toMatch(/^Bearer token-/);
    // The scope asked for by default: reading is all it needs.
    const token = api.requests.find((r) => r.path === '/api/v1/oauth/token')!;
    expect(new URLSearchParams(token.body).get('scope')).toBe('BASE_MODULE:READ');
    listener.stop();
    await expect(listener.exit).resolves.toBe(0);
  });

  it.each([
    [
      ['listen', '--forward-to', 'http://localhost:1/h', '--bogus'],
      {},
      /^svc listen: Unknown option '--bogus' \(svc listen --help\)$/,
    ],
    [['listen'], {}, /^svc listen: --forward-to is required/],
    [['listen', '--forward-to', 'localhost:3000'], {}, /--forward-to must be an http\(s\) URL/],
    [
      ['listen', '--forward-to', 'http://localhost:1/h', '--events', 'Users,Trades'],
      {},
      /--events: unknown Trades; the names are Orders, Users/,
    ],
    [
      ['listen', '--forward-to', 'http://localhost:1/h', '--secret', 'short'],
      {},
      /--secret must be 16 to 512 characters/,
    ],
    [
      ['listen', '--forward-to', 'http://localhost:1/h', '--since', 'yesterday'],
      {},
      /--since must be an ISO 8601 time/,
    ],
    [
      ['listen', '--forward-to', 'http://localhost:1/h'],
      { SVC_API_KEY: 'pk' },
      /the api address is missing: give --url or set SVC_URL/,
    ],
    [['listen', '--forward-to', 'http://localhost:1/h', '--url', 'http://x'], {}, /credentials are missing/],
    [
      ['listen', '--forward-to', 'http://localhost:1/h', '--url', 'http://x', '--api-key', 'pk'],
      {},
      /--api-secret is missing \(or set SVC_API_SECRET\)/,
    ],
    [
      [
        'listen',
        '--forward-to',
        'http://localhost:1/h',
        '--url',
        'http://x',
        '--api-key',
        'pk',
        '--client-id',
        'c',
      ],
      {},
      /not both/,
    ],
    [
      [
        'listen',
        '--forward-to',
        'http://localhost:1/h',
        '--url',
        'http://x',
        '--client-id',
        'c',
        '--client-secret',
        's',
        '--scopes',
        'BASE_MODULE:ADMIN',
      ],
      {},
      /^svc listen: --scopes: /,
    ],
    [
      ['listen', '--forward-to', 'http://localhost:1/h', '--max-tries', '0'],
      {},
      /^svc listen: --max-tries must be a whole number from 1 to 999999, got "0"/,
    ],
    [['serve'], {}, /^svc: unknown command "serve"/],
  ])('refuses %j with one line and exit 2, connecting nowhere', async (argv, extraEnv, message) => {
    api.script((stream) => stream.open());
    const listener = run(argv, extraEnv);
    await expect(listener.exit).resolves.toBe(2);
    expect(listener.stderr).toHaveLength(1);
    expect(listener.stderr[0]).toMatch(message);
    expect(listener.stdout).toEqual([]);
    expect(api.requests).toEqual([]);
  });

  it('refused credentials or scope: one line and exit 1 at once, no retry', async () => {
    api.script((stream) => stream.refuse(401, 'Unauthorized: unknown API key'));
    const listener = run(['listen', '--forward-to', receiver.url], env());
    await expect(listener.exit).resolves.toBe(1);
    expect(listener.stderr).toEqual([
      'svc listen: the api refused the credentials: GET /api/v1/events/stream failed with HTTP 401: ' +
        'Unauthorized: unknown API key (request id req-401)',
    ]);

    api.script((stream) => stream.refuse(403, 'Forbidden: this key may not read events'));
    const forbidden = run(['listen', '--forward-to', receiver.url], env());
    await expect(forbidden.exit).resolves.toBe(1);
    expect(forbidden.stderr).toEqual([
      'svc listen: the credentials may not read events: GET /api/v1/events/stream failed with HTTP 403: ' +
        'Forbidden: this key may not read events (request id req-403)',
    ]);
    expect(api.streams()).toHaveLength(1);
  });

  it('an api address nobody listens on: each try said, then one line naming it and exit 1', async () => {
    const nowhere = await closedAddress();
    const started = Date.now();
    const listener = run(['listen', '--forward-to', receiver.url, '--max-tries', '3'], {
      ...env(),
      SVC_URL: nowhere,
    });
    await expect(listener.exit).resolves.toBe(1);
    // Two waits of the client's backoff (at most 0.5 s and 1 s), nothing more.
    expect(Date.now() - started).toBeLessThan(3000);
    const refused = `GET /api/v1/events/stream: no answer (ECONNREFUSED: connect ECONNREFUSED ${nowhere.slice(7)})`;
    expect(listener.stderr).toEqual([
      expect.stringMatching(retryLine(`Could not open the event stream at ${nowhere}: ${refused}`, 1, 2)),
      expect.stringMatching(retryLine(`Could not open the event stream at ${nowhere}: ${refused}`, 2, 2)),
      `svc listen: gave up on the api at ${nowhere} after 3 failures in a row (--max-tries): ${refused}`,
    ]);
  });

  it('after a dropped connection it resumes, and gives up when the api keeps failing', async () => {
    const id = randomUUID();
    api.script((stream, _request, count) => {
      if (count > 1) {
        stream.refuse(503, 'Service Unavailable: restarting');
        return;
      }
      stream.open();
      stream.event(id, userEventBody('u-drop'));
      setTimeout(() => stream.drop(), 50);
    });
    const secret = 'whsec_drop_0123456789abcdef';
    receiver.useSecret(secret);
    const listener = run(
      ['listen', '--forward-to', receiver.url, '--secret', secret, '--max-tries', '3'],
      env(),
    );
    await expect(listener.exit).resolves.toBe(1);
    expect(receiver.handled.map((h) => h.eventId)).toEqual([id]);
    // The first stream, then two tries that resume after the event it forwarded.
    expect(api.streams().map((r) => r.headers['last-event-id'])).toEqual([undefined, id, id]);
    const unavailable =
      'GET /api/v1/events/stream failed with HTTP 503: Service Unavailable: restarting (request id req-503)';
    expect(listener.stderr).toEqual([
      'Connected to the event stream',
      expect.stringMatching(retryLine('Connection lost: GET /api/v1/events/stream: the stream broke', 1, 2)),
      expect.stringMatching(
        retryLine(`Could not open the event stream at ${api.baseUrl}: ${unavailable}`, 2, 2),
      ),
      `svc listen: gave up on the api at ${api.baseUrl} after 3 failures in a row (--max-tries): ${unavailable}`,
    ]);
  });

  it('--max-tries 1: an api that closes the stream ends it, with exit 1', async () => {
    api.script((stream) => {
      stream.open();
      stream.end();
    });
    const listener = run(['listen', '--forward-to', receiver.url, '--max-tries', '1'], env());
    await expect(listener.exit).resolves.toBe(1);
    expect(listener.stderr).toEqual([
      'Connected to the event stream',
      `svc listen: gave up on the api at ${api.baseUrl} after 1 failure (--max-tries): the api closed the stream`,
    ]);
    expect(api.streams()).toHaveLength(1);
  });

  describe('the built bin', () => {
    const bin = join(packageDir, 'dist/esm/bin/svc.js');

    function exec(argv: string[], env: Record<string, string> = {}) {
      return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
        execFile(
          process.execPath,
          [bin, ...argv],
          // A listener that does not give up is killed rather than left running after the test.
          { env: { PATH: process.env.PATH ?? '', ...env }, timeout: 15_000 },
          (error, stdout, stderr) => resolve({ code: error ? (error.code as number) : 0, stdout, stderr }),
        );
      });
    }

    it("is the package's `svc` command, and prints its help", async () => {
      const manifest = (await import(join(packageDir, 'package.json'))) as { bin: Record<string, string> };
      expect(manifest.bin).toEqual({ svc: './dist/esm/bin/svc.js' });
      const help = await exec(['listen', '--help']);
      expect(help).toMatchObject({ code: 0, stderr: '' });
      expect(help.stdout).toContain('Usage: svc listen --forward-to <url> [options]');
      for (const name of [
        'SVC_URL',
        'SVC_API_KEY',
        'SVC_API_SECRET',
        'SVC_CLIENT_ID',
        'SVC_CLIENT_SECRET',
        'SVC_WEBHOOK_SECRET',
      ]) {
        expect(help.stdout).toContain(name);
      }
    });

    it('exits 2 on a bad flag and 1 on refused credentials, with one line each', async () => {
      const bad = await exec(['listen', '--forward-to']);
      expect(bad).toMatchObject({ code: 2, stdout: '' });
      expect(bad.stderr.trimEnd().split('\n')).toEqual([
        expect.stringMatching(/^svc listen: Option '--forward-to <value>' argument missing/),
      ]);

      api.script((stream) => stream.refuse(401, 'Unauthorized: unknown API key'));
      const refused = await exec(['listen', '--forward-to', receiver.url], env());
      expect(refused.code).toBe(1);
      expect(refused.stderr.trimEnd().split('\n')).toEqual([
        expect.stringContaining('the api refused the credentials'),
      ]);
    });

    it('gives up on an api address nobody listens on after the default 5 tries, with exit 1', async () => {
      const nowhere = await closedAddress();
      const started = Date.now();
      const result = await exec(['listen', '--forward-to', receiver.url], { ...env(), SVC_URL: nowhere });
      // Four waits of the client's backoff: at most 0.5 + 1 + 2 + 4 s.
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(result.code).toBe(1);
      const lines = result.stderr.trimEnd().split('\n');
      expect(lines.slice(0, -1)).toEqual(
        [1, 2, 3, 4].map((retry): unknown =>
          expect.stringMatching(retryLine(`Could not open the event stream at ${nowhere}: GET `, retry, 4)),
        ),
      );
      expect(lines.at(-1)).toBe(
        `svc listen: gave up on the api at ${nowhere} after 5 failures in a row (--max-tries): ` +
          `GET /api/v1/events/stream: no answer (ECONNREFUSED: connect ECONNREFUSED ${nowhere.slice(7)})`,
      );
    });

    it('stops on SIGINT with exit 0, naming where to resume', async () => {
      const id = randomUUID();
      api.script((stream) => {
        stream.open();
        stream.event(id, userEventBody('u-bin'));
      });
      const child = spawn(
        process.execPath,
        [bin, 'listen', '--forward-to', receiver.url, '--secret', 'whsec_bin_0123456789abcdef'],
        {
          env: { PATH: process.env.PATH ?? '', ...env() },
        },
      );
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      receiver.useSecret('whsec_bin_0123456789abcdef');
      await until('the forward', () => stdout.includes(' -> 200 '));
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      const started = Date.now();
      child.kill('SIGINT');
      await expect(exited).resolves.toBe(0);
      expect(Date.now() - started).toBeLessThan(3000);
      expect(stderr.trimEnd().split('\n').at(-1)).toBe(`Stopped; resume with --last-event-id ${id}`);
    });
  });
});

/** A line before a retry: what failed, then `; retry <n> of <retries> in <s> s`. */
function retryLine(what: string, retry: number, retries: number): RegExp {
  const escaped = what.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^${escaped}.*; retry ${retry} of ${retries} in \\d+\\.\\d s$`);
}
