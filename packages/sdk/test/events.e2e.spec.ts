// The event log through the SDK against the real services (the api and the worker as processes): each event
// of the log carries, byte for byte, the body the worker delivered to a real receiver on its first attempt;
// the pager walks the log; filters; another organisation's event is a 404.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { SvcNotFoundError, type SvcClient, verifyWebhook } from '../src/index.js';
import { admin, clientsOf, createOrg, newUserId, until, type OrgCredentials } from './support/fixture.js';

const SECRET = 'whsec_events-e2e-0123456789';

interface Received {
  readonly eventId: string;
  readonly body: string;
}

describe('client.events', () => {
  let org: OrgCredentials;
  let client: SvcClient;
  let server: Server;
  const received: Received[] = [];

  beforeAll(async () => {
    org = await createOrg();
    client = clientsOf(org).signed;
    server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const parsed = JSON.parse(body) as { challenge?: string };
        if (parsed.challenge !== undefined) {
          response.writeHead(200).end(parsed.challenge);
          return;
        }
        verifyWebhook(body, request.headers, SECRET);
        received.push({ eventId: String(request.headers['svc-event-id']), body });
        response.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://localhost:${(server.address() as AddressInfo).port}/hooks`;
    expect(await client.webhooks.register({ url, secret: SECRET })).toMatchObject({ challengePassed: true });
    // An order, so that a body with amounts goes through too.
    await admin('PUT', '/api/v1/admin/prices/BTC_EUR/', { price: 43210.98765432 });
    await admin('PATCH', `/api/v1/admin/orgs/${org.orgId}/policy/`, {
      enabledAssets: ['BTC'],
      commissionRate: 0.0015,
      vatRate: 0.21,
    });
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  /** The log's answer as it came, before the client parses it (a fetch that keeps the text). */
  const rawEntry = async (id: string): Promise<string> => {
    let text = '';
    const keeping = clientsOf(org, {
      fetch: async (url, init) => {
        const response = await fetch(url, init);
        text = await response.clone().text();
        return response;
      },
    }).signed;
    await keeping.events.get(id);
    return text;
  };

  it('answers each event with the body its webhook carried, byte for byte, and its delivery status', async () => {
    const orgUserId = newUserId('ev');
    await client.users.create({ orgUserId, kyc: true, tnc: true });
    await client.orders.create({
      orgUserId,
      symbol: 'BTC_EUR',
      side: 'BUY',
      type: 'MARKET',
      quoteQuantity: 1234.56,
    });
    await until(
      'the deliveries',
      () => received.filter((r) => r.body.includes(orgUserId)).length >= 2,
      20_000,
    );
    for (const { eventId, body } of received.filter((r) => r.body.includes(orgUserId))) {
      await until('DELIVERED', async () => (await client.events.get(eventId)).status === 'DELIVERED');
      const entry = await client.events.get(eventId);
      expect(entry.id).toBe(eventId);
      expect(entry.body).toEqual(JSON.parse(body));
      expect(await rawEntry(eventId)).toBe(
        `{"code":200,"data":{"id":"${eventId}","status":"DELIVERED",` +
          `"delivery":{"state":"DELIVERED","nextAttemptAt":null,"lastError":null},"body":${body}},"error":null}`,
      );
    }
    const orders = await client.events.list({ entity: 'Orders' });
    expect(orders.items.map((item) => item.body.event.entity)).toEqual(['Orders']);
    expect(orders.items[0]!.body.data).toMatchObject({ orgUserId, symbol: 'BTC_EUR', status: 'COMPLETED' });
  });

  it('walks the whole log page by page, oldest first, and filters by time and status', async () => {
    for (let i = 0; i < 3; i++)
      await client.users.create({ orgUserId: newUserId('page'), kyc: false, tnc: true });
    const everything = await client.events.list({ limit: 2 }).toArray();
    expect(everything.length).toBeGreaterThanOrEqual(5);
    const times = everything.map((entry) => Date.parse(entry.body.event.createdAt));
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    expect(new Set(everything.map((entry) => entry.id)).size).toBe(everything.length);

    const last = everything.at(-1)!;
    const since = await client.events.list({ since: new Date(last.body.event.createdAt) });
    expect(since.items.map((entry) => entry.id)).toContain(last.id);
    expect(since.items.every((entry) => entry.body.event.createdAt >= last.body.event.createdAt)).toBe(true);
    const before = await client.events.list({ until: last.body.event.createdAt, limit: 100 });
    expect(before.items.map((entry) => entry.id)).not.toContain(last.id);
    const skipped = await client.events.list({ status: 'SKIPPED' });
    expect(skipped.items).toEqual([]);
  });

  it("answers 404 for another organisation's event", async () => {
    const mine = received[0]!.eventId;
    const other = clientsOf(await createOrg()).oauth;
    await expect(other.events.get(mine)).rejects.toBeInstanceOf(SvcNotFoundError);
  });
});
