// END TO END against the real api and worker (test/support/services.mjs): `svc listen` and
// client.events.stream() on the api's own event stream, GET /api/v1/events/stream. This file needs that route;
// an api without it answers 404, and every test here fails without it (the stream's server side is
// built apart from the SDK's reader). What it holds: the route is in the OpenAPI document as an event
// stream; a forwarded event carries the very body and event id the webhook worker delivers for it; a stop
// and `--last-event-id` resume without a gap or a repeat; `--since` replays; refused credentials end the
// listener with one line.
import { randomUUID } from 'node:crypto';

import { isEntityEvent, type SvcClient } from '../src/index.js';
import { clientsOf, createOrg, services, type OrgCredentials } from './support/fixture.js';
import { run, running, startReceiver, until } from './support/listener.js';

const WORKER_SECRET = 'whsec_listen-e2e-worker-0123456789';

describe('svc listen and events.stream() against the real api (needs GET /api/v1/events/stream)', () => {
  let org: OrgCredentials;
  let client: SvcClient;
  let listened: Awaited<ReturnType<typeof startReceiver>>;
  let delivered: Awaited<ReturnType<typeof startReceiver>>;
  const keyEnv = () => ({
    SVC_URL: services().baseUrl,
    SVC_API_KEY: org.apiKey,
    SVC_API_SECRET: org.apiSecret,
  });
  const oauthEnv = () => ({
    SVC_URL: services().baseUrl,
    SVC_CLIENT_ID: org.clientId,
    SVC_CLIENT_SECRET: org.clientSecret,
  });

  beforeAll(async () => {
    org = await createOrg();
    client = clientsOf(org).signed;
    listened = await startReceiver();
    // The organisation's real webhook endpoint, so the worker's delivery of each event can be compared.
    delivered = await startReceiver();
    delivered.useSecret(WORKER_SECRET);
    const registered = await client.webhooks.register({
      url: delivered.url.replace('127.0.0.1', 'localhost'),
      secret: WORKER_SECRET,
    });
    expect(registered).toMatchObject({ status: 'ACTIVE', challengePassed: true });
  });
  afterEach(async () => {
    for (const listener of running.splice(0)) {
      listener.stop();
      await listener.exit;
    }
  });
  afterAll(async () => {
    await listened.close();
    await delivered.close();
  });

  /** The listener's receiver's deliveries of the Users event of `orgUserId`. */
  const forwardsOf = (orgUserId: string) =>
    listened.handled.filter(
      ({ event }) => isEntityEvent(event, 'Users') && event.data.orgUserId === orgUserId,
    );

  /** Starts `svc listen` to the listener's receiver and waits until it follows the stream. */
  async function startListening(argv: string[], env: Record<string, string>) {
    const listener = run(['listen', '--forward-to', listened.url, ...argv], env);
    await until('the secret', () => listener.stdout.length >= 2);
    const secret = /^Webhook signing secret: (whsec_[0-9a-f]{48})$/.exec(listener.stdout[1]!)?.[1];
    expect(secret).toBeDefined();
    listened.useSecret(secret!);
    await until(
      'the connection',
      () => {
        // A listener that gave up says why: that is the failure to show.
        const failure = listener.stderr.find((line) => line.startsWith('svc listen:'));
        if (failure !== undefined) throw new Error(failure);
        return listener.stderr.some((line) => line.startsWith('Connected'));
      },
      15_000,
    );
    return listener;
  }

  it('the OpenAPI document has the stream, answering text/event-stream', async () => {
    const document = (await (await fetch(`${services().baseUrl}/openapi.json`)).json()) as {
      paths: Record<
        string,
        Record<string, { responses: Record<string, { content?: Record<string, unknown> }> }>
      >;
    };
    const operation = document.paths['/api/v1/events/stream']?.get;
    expect(operation).toBeDefined();
    expect(Object.keys(operation!.responses['200']?.content ?? {})).toContain('text/event-stream');
  });

  it('forwards the body and event id the worker delivers; a stop and --last-event-id miss nothing, repeat nothing', async () => {
    const first = await startListening([], keyEnv());
    const alice = `alice-${randomUUID()}`;
    await client.users.create({ orgUserId: alice, kyc: false, tnc: true });
    await until('the forward', () => forwardsOf(alice).length === 1, 15_000);
    const eventId = forwardsOf(alice)[0]!.eventId!;
    await until(
      'the worker delivery',
      () => delivered.deliveries.some((d) => d.headers['svc-event-id'] === eventId && d.status === 200),
      15_000,
    );
    const fromWorker = delivered.deliveries.find((d) => d.headers['svc-event-id'] === eventId)!;
    const fromListener = listened.deliveries.find((d) => d.headers['svc-event-id'] === eventId)!;
    expect(fromListener.status).toBe(200);
    expect(fromListener.body).toBe(fromWorker.body);
    // The line is printed once the receiver's answer is read, a moment after the receiver saw the request.
    await until('the forward line', () =>
      first.stdout.some((line) => line.includes(`Users              ${eventId}  -> 200 in `)),
    );
    first.stop();
    await expect(first.exit).resolves.toBe(0);
    const resume = /--last-event-id (\S+)$/.exec(first.stderr.at(-1)!)?.[1];
    expect(resume).toBeDefined();

    // While nobody listens.
    const bob = `bob-${randomUUID()}`;
    await client.users.create({ orgUserId: bob, kyc: false, tnc: true });
    const second = await startListening(['--last-event-id', resume!, '--events', 'Users'], oauthEnv());
    await until('the missed event', () => forwardsOf(bob).length === 1, 15_000);
    const carol = `carol-${randomUUID()}`;
    await client.users.create({ orgUserId: carol, kyc: false, tnc: true });
    await until('the next event', () => forwardsOf(carol).length === 1, 15_000);
    expect(forwardsOf(alice)).toHaveLength(1);
    expect(forwardsOf(bob)).toHaveLength(1);
    second.stop();
    await expect(second.exit).resolves.toBe(0);
  });

  it('--since replays what happened before it started, and events.stream() hands out typed events', async () => {
    const since = new Date(Date.now() - 1000).toISOString();
    const dave = `dave-${randomUUID()}`;
    await client.users.create({ orgUserId: dave, kyc: true, tnc: true });
    const listener = await startListening(['--since', since], keyEnv());
    await until('the replayed event', () => forwardsOf(dave).length === 1, 15_000);
    listener.stop();
    await expect(listener.exit).resolves.toBe(0);

    for await (const { id, body, event } of client.events.stream({ since, maxReconnects: 0 })) {
      if (!isEntityEvent(event, 'Users') || event.data.orgUserId !== dave) continue;
      expect(id).toBe(forwardsOf(dave)[0]!.eventId);
      expect(JSON.parse(body)).toMatchObject(event);
      expect(event.data).toMatchObject({ kyc: true, userStatus: 'ACTIVE' });
      break;
    }
  });

  it('refused credentials end the listener with one line and exit 1', async () => {
    const listener = run(['listen', '--forward-to', listened.url], {
      ...keyEnv(),
      SVC_API_SECRET: 'sk_wrong',
    });
    await expect(listener.exit).resolves.toBe(1);
    expect(listener.stderr).toHaveLength(1);
    expect(listener.stderr[0]).toMatch(
      /^svc listen: the api refused the credentials: GET \/api\/v1\/events\/stream failed with HTTP 401/,
    );
  });
});
