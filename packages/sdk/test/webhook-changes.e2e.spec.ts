// Changing the webhook secret without a gap, and recovering failed events, through the SDK against the real
// api and worker: the receiver is the SDK's own handler on node:http, given one secret or two.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

import { verifyWebhookRequest } from '@svc/protocol';

import {
  SvcClient,
  SvcConflictError,
  createWebhookHandler,
  isEntityEvent,
  type WebhookHandler,
  type WebhookSecrets,
} from '../src/index.js';
import { clientsOf, createOrg, newUserId, until } from './support/fixture.js';

const OLD = 'whsec_changes-e2e-old-0123';
const NEW = 'whsec_changes-e2e-new-4567';

interface Received {
  readonly body: string;
  readonly headers: IncomingHttpHeaders;
  readonly status: number;
}

/** A node:http receiver whose handler (and so its secrets) can be swapped, recording every request. */
async function swappableReceiver() {
  const received: Received[] = [];
  const handled: string[] = [];
  let handler: WebhookHandler;
  let failing = false;
  const use = (secret: WebhookSecrets) => {
    handler = createWebhookHandler({
      secret,
      onEvent: (event) => {
        if (failing) throw new Error('the receiver is down');
        if (isEntityEvent(event, 'Users')) handled.push(event.data.orgUserId);
      },
    });
  };
  use(OLD);
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      void handler.handle(body, request.headers).then((answer) => {
        received.push({ body, headers: request.headers, status: answer.status });
        response.writeHead(answer.status, answer.headers);
        response.end(answer.body);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://localhost:${(server.address() as AddressInfo).port}/hooks`,
    received,
    handled,
    use,
    fail: (value: boolean) => (failing = value),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

type Receiver = Awaited<ReturnType<typeof swappableReceiver>>;

describe('changing the secret without a gap (docs/api-guide.md#changing-the-url-or-the-secret)', () => {
  let client: SvcClient;
  let receiver: Receiver;
  beforeAll(async () => {
    client = clientsOf(await createOrg()).signed;
    receiver = await swappableReceiver();
    expect(await client.webhooks.register({ url: receiver.url, secret: OLD })).toMatchObject({
      status: 'ACTIVE',
    });
  });
  afterAll(() => receiver.close());

  /** A user (so a Users event) delivered and handled; answers the request that carried it. */
  const deliveredUser = async () => {
    const orgUserId = newUserId('rot');
    await client.users.create({ orgUserId, kyc: false, tnc: true });
    await until('the delivery', () => receiver.handled.includes(orgUserId));
    return receiver.received.find((r) => r.body.includes(`"orgUserId":"${orgUserId}"`))!;
  };
  const signedWith = (request: Received, secret: string) =>
    verifyWebhookRequest(request.body, request.headers, secret).ok;

  it('keeps the old secret ACTIVE when the receiver cannot answer a challenge signed with the new one', async () => {
    const before = await client.webhooks.get();
    const refused = await client.webhooks
      .register({ url: receiver.url, secret: NEW })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(SvcConflictError);
    expect((refused as Error).message).toMatch(
      /did not pass its challenge \(the receiver answered HTTP 400, not 200\).*unchanged/,
    );
    expect(await client.webhooks.get()).toEqual(before);
    // Events still flow, signed with the old secret.
    const request = await deliveredUser();
    expect(signedWith(request, OLD)).toBe(true);
  });

  it('rotates: receiver takes both, the new secret is registered, then the old one is dropped', async () => {
    receiver.use([OLD, NEW]);
    const during = await deliveredUser();
    expect(signedWith(during, OLD)).toBe(true);
    const registered = await client.webhooks.register({ url: receiver.url, secret: NEW });
    expect(registered).toMatchObject({ status: 'ACTIVE', challengePassed: true });
    const after = await deliveredUser();
    expect(signedWith(after, NEW)).toBe(true);
    expect(signedWith(after, OLD)).toBe(false);
    receiver.use(NEW);
    const last = await deliveredUser();
    expect(signedWith(last, NEW)).toBe(true);
    // No delivery was refused on the way: every event attempt in the log got a 200. The worker records an
    // attempt once its batch commits, which may be just after the receiver has answered.
    let log = await client.webhooks.deliveries.list({ limit: 100 });
    await until('the attempts recorded', async () => {
      log = await client.webhooks.deliveries.list({ limit: 100 });
      return log.items.length >= 4;
    });
    expect(log.items.every((attempt) => attempt.delivered)).toBe(true);
  });
});

describe('recovering failed events (docs/api-guide.md#recovering-failed-events)', () => {
  it('redelivers the events that failed while the receiver was down, once each, and reports the counts', async () => {
    const client = clientsOf(await createOrg()).signed;
    const receiver = await swappableReceiver();
    try {
      await client.webhooks.register({ url: receiver.url, secret: OLD });
      const since = new Date(Date.now() - 1000).toISOString();
      receiver.fail(true);
      const users = [newUserId('down'), newUserId('down')];
      for (const orgUserId of users) await client.users.create({ orgUserId, kyc: false, tnc: true });
      const failedLog = async () =>
        (await client.webhooks.deliveries.list({ delivered: false, limit: 100 })).items;
      // Four attempts each (0 to 3 retries, 300 ms apart on the test services): then FAILED.
      await until('both events to fail for good', async () => (await failedLog()).length === 8, 20_000);
      await new Promise((resolve) => setTimeout(resolve, 300));
      receiver.fail(false);

      const started = await client.webhooks.recover({ since });
      expect(started).toMatchObject({ status: 'PENDING', since, total: 0 });
      let recovery = started;
      await until('the recovery to complete', async () => {
        recovery = await client.webhooks.getRecovery(started.id);
        return recovery.status === 'COMPLETED';
      });
      expect(recovery).toMatchObject({ total: 2, queued: 0, delivered: 2, failed: 0 });
      expect([...receiver.handled].sort()).toEqual([...users].sort());
      const manual = (await client.webhooks.deliveries.list({ delivered: true })).items;
      expect(manual.map((a) => [a.manual, a.numRetries])).toEqual([
        [true, 4],
        [true, 4],
      ]);
      // Nothing left to recover: a second recovery chooses nothing.
      const again = await client.webhooks.recover({ since });
      await until(
        'the second recovery',
        async () => (await client.webhooks.getRecovery(again.id)).status === 'COMPLETED',
      );
      expect(await client.webhooks.getRecovery(again.id)).toMatchObject({ total: 0 });
    } finally {
      await receiver.close();
    }
  }, 40_000);

  it('refuses a `since` outside the window with a 400 naming the field', async () => {
    const client = clientsOf(await createOrg()).signed;
    await expect(
      client.webhooks.recover({ since: new Date(Date.now() - 25 * 3600 * 1000).toISOString() }),
    ).rejects.toThrow(/since must be within the delivery window/);
  });
});
