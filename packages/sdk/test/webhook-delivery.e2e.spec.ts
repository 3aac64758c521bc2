// The webhook handler on node:http, Express and Fastify, fed by the real worker: the api's registration
// challenge, verified deliveries of real events, a callback failure turned into a retry by the worker,
// and a manual redelivery dropped as a duplicate.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import express from 'express';
import Fastify from 'fastify';

import {
  SvcClient,
  createWebhookHandler,
  isEntityEvent,
  type WebhookEvent,
  type WebhookHandlerOptions,
} from '../src/index.js';
import { clientsOf, createOrg, newUserId, until } from './support/fixture.js';

const SECRET = 'whsec_delivery-e2e-0123456789';

interface Running {
  readonly url: string;
  close(): Promise<void>;
}

type Framework = (options: WebhookHandlerOptions) => Promise<Running>;

async function listen(server: Server): Promise<Running> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://localhost:${(server.address() as AddressInfo).port}/hooks`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const frameworks: [string, Framework][] = [
  ['node:http', (options) => listen(createServer(createWebhookHandler(options).node))],
  [
    'Express',
    (options) => {
      const app = express();
      // A JSON parser elsewhere in the app must not reach the webhook route: it needs the raw bytes.
      app.post('/hooks', express.raw({ type: 'application/json' }), createWebhookHandler(options).express);
      app.use(express.json());
      return listen(createServer(app));
    },
  ],
  [
    'Fastify',
    async (options) => {
      const app = Fastify();
      // The app's own JSON routes keep Fastify's parser; the plugin's context gets the raw body.
      app.post('/other', (request) => request.body);
      await app.register(createWebhookHandler(options).fastify, { path: '/hooks' });
      await app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = app.server.address() as AddressInfo;
      return { url: `http://localhost:${port}/hooks`, close: () => app.close() };
    },
  ],
];

describe.each(frameworks)('webhook handler on %s with real deliveries', (_name, start) => {
  let client: SvcClient;
  let running: Running;
  const calls: { event: WebhookEvent; eventId: string | undefined }[] = [];
  let failNext = 0;

  beforeAll(async () => {
    client = clientsOf(await createOrg()).signed;
    running = await start({
      secret: SECRET,
      dedupe: true,
      onEvent: async (event, { eventId }) => {
        calls.push({ event, eventId });
        await new Promise((resolve) => setTimeout(resolve, 10));
        if (failNext > 0) {
          failNext--;
          throw new Error('the receiver failed');
        }
      },
    });
    const registered = await client.webhooks.register({ url: running.url, secret: SECRET });
    expect(registered).toMatchObject({ status: 'ACTIVE', challengePassed: true });
  });
  afterAll(() => running.close());

  const callsFor = (orgUserId: string) =>
    calls.filter(({ event }) => isEntityEvent(event, 'Users') && event.data.orgUserId === orgUserId);

  it('delivers the typed event with its svc-event-id, acknowledged once the callback resolved', async () => {
    const orgUserId = newUserId('d');
    await client.users.create({ orgUserId, kyc: true, tnc: true });
    await until('the delivery', () => callsFor(orgUserId).length === 1);
    const [{ event, eventId }] = callsFor(orgUserId) as [(typeof calls)[number]];
    expect(event.event).toMatchObject({ entity: 'Users', numRetries: 0 });
    expect(event.data).toMatchObject({ orgUserId, kyc: true, userStatus: 'ACTIVE' });
    await until(
      'the log',
      async () => (await client.webhooks.deliveries.list({ eventId: eventId! })).items.length === 1,
    );
    const [attempt] = (await client.webhooks.deliveries.list({ eventId: eventId! })).items;
    expect(attempt).toMatchObject({ delivered: true, statusCode: 200 });
    expect(attempt!.durationMs).toBeGreaterThanOrEqual(10);
  });

  it('a callback that throws answers 500: the worker retries and the retry is handled', async () => {
    failNext = 1;
    const orgUserId = newUserId('f');
    await client.users.create({ orgUserId, kyc: false, tnc: false });
    await until('the retry', () => callsFor(orgUserId).length === 2);
    const [first, second] = callsFor(orgUserId);
    expect(first!.eventId).toBe(second!.eventId);
    expect(second!.event.event.numRetries).toBe(1);
    await until(
      'both attempts in the log',
      async () => (await client.webhooks.deliveries.list({ eventId: first!.eventId! })).items.length === 2,
    );
    const log = (await client.webhooks.deliveries.list({ eventId: first!.eventId! })).items;
    expect(log.map((a) => [a.numRetries, a.statusCode, a.delivered])).toEqual([
      [0, 500, false],
      [1, 200, true],
    ]);
  });

  it('a redelivery of a handled event is acknowledged without calling the callback again', async () => {
    const orgUserId = newUserId('r');
    await client.users.create({ orgUserId, kyc: false, tnc: true });
    await until('the delivery', () => callsFor(orgUserId).length === 1);
    const eventId = callsFor(orgUserId)[0]!.eventId!;
    await until(
      'the event is delivered',
      async () => (await client.webhooks.deliveries.list({ eventId, delivered: true })).items.length === 1,
    );
    await client.webhooks.redeliver(eventId);
    await until('the manual attempt', async () =>
      (await client.webhooks.deliveries.list({ eventId, delivered: true })).items.some((a) => a.manual),
    );
    expect(callsFor(orgUserId)).toHaveLength(1);
  });
});
