// Orders and positions against the real api, with the operator's setup (a price, the org's policy) made
// through the admin surface; once with the API key and once with OAuth.
import { randomUUID } from 'node:crypto';

import { SvcClient, SvcConflictError, SvcNotFoundError, SvcValidationError } from '../src/index.js';
import { admin, clientsOf, createOrg, newUserId, type OrgCredentials } from './support/fixture.js';

describe.each(['signed', 'oauth'] as const)('orders and positions (%s)', (method) => {
  let org: OrgCredentials;
  let client: SvcClient;
  let trader: string;

  beforeAll(async () => {
    org = await createOrg();
    client = clientsOf(org)[method];
    await admin('PUT', '/api/v1/admin/prices/BTC_EUR/', { price: 50000 });
    await admin('PUT', '/api/v1/admin/prices/ETH_EUR/', { price: 2000 });
    await admin('PATCH', `/api/v1/admin/orgs/${org.orgId}/policy/`, { enabledAssets: ['BTC'] });
    trader = (await client.users.create({ orgUserId: newUserId('trader'), kyc: true, tnc: true })).orgUserId;
  });

  it('orders.create fills a market order; get and list answer it; positions show the holding', async () => {
    const order = await client.orders.create({
      orgUserId: trader,
      symbol: 'BTC_EUR',
      side: 'BUY',
      type: 'MARKET',
      quoteQuantity: 100,
    });
    expect(order).toMatchObject({
      orgId: org.orgId,
      orgUserId: trader,
      symbol: 'BTC_EUR',
      side: 'BUY',
      type: 'MARKET',
      status: 'COMPLETED',
      rejectionReason: null,
    });
    expect(order.clientOrderId).toMatch(/^[0-9a-f-]{36}$/);
    expect(order.filled).toBeGreaterThan(0);

    expect(await client.orders.get(order.id)).toEqual(order);
    const listed = await client.orders.list({ orgUserId: trader, status: 'COMPLETED' }).toArray();
    expect(listed.map((o) => o.id)).toContain(order.id);
    expect((await client.orders.list({ clientOrderId: order.clientOrderId })).items).toEqual([order]);

    const { orgUserId, positions } = await client.positions.get(trader);
    expect(orgUserId).toBe(trader);
    expect(positions.map((p) => [p.asset, typeof p.updatedAt])).toEqual([['BTC', 'string']]);
    expect(positions[0]!.quantity).toBeGreaterThan(0);
  });

  it('a LIMIT order rests; replace, read by clientOrderId, cancel, cancelAll; a final order is a 409', async () => {
    const resting = await client.orders.create({
      orgUserId: trader,
      symbol: 'BTC_EUR',
      side: 'BUY',
      type: 'LIMIT',
      quantity: 0.001,
      limitPrice: 40000,
      timeInForce: 'GTC',
    });
    expect(resting).toMatchObject({
      status: 'PENDING',
      timeInForce: 'GTC',
      limitPrice: 40000,
      replaces: null,
    });
    const replacement = await client.orders.replace(resting.id, { limitPrice: 41000 });
    expect(replacement).toMatchObject({ status: 'PENDING', limitPrice: 41000, replaces: resting.id });
    expect(await client.orders.get(resting.id)).toMatchObject({
      status: 'CANCELLED',
      cancelReason: 'REPLACED',
    });
    expect(await client.orders.getByClientOrderId(replacement.clientOrderId)).toEqual(replacement);
    const cancelled = await client.orders.cancelByClientOrderId(replacement.clientOrderId);
    expect(cancelled).toMatchObject({ id: replacement.id, status: 'CANCELLED', cancelReason: 'REQUESTED' });
    await expect(client.orders.cancel(replacement.id)).rejects.toBeInstanceOf(SvcConflictError);
    const another = await client.orders.create({
      orgUserId: trader,
      symbol: 'BTC_EUR',
      side: 'BUY',
      type: 'STOP',
      quantity: 0.001,
      stopPrice: 60000,
    });
    const { items } = await client.orders.cancelAll(trader);
    expect(items.map((item) => [item.id, item.status])).toEqual([[another.id, 'CANCELLED']]);
    await expect(client.orders.getByClientOrderId(randomUUID())).rejects.toBeInstanceOf(SvcNotFoundError);
  });

  it('the same clientOrderId answers the same order; other parameters are a 409', async () => {
    const clientOrderId = randomUUID();
    const params = {
      orgUserId: trader,
      clientOrderId,
      symbol: 'BTC_EUR',
      side: 'BUY',
      type: 'MARKET',
      quantity: 0.001,
    } as const;
    const first = await client.orders.create(params);
    const again = await client.orders.create(params);
    expect(again.id).toBe(first.id);
    const conflict = await client.orders.create({ ...params, quantity: 0.002 }).catch((e: unknown) => e);
    expect(conflict).toBeInstanceOf(SvcConflictError);
    expect((conflict as SvcConflictError).errorText).toMatch(/quantity/);
  });

  it('a failed business check is a REJECTED order with its reason, not an error', async () => {
    const order = await client.orders.create({
      orgUserId: trader,
      symbol: 'ETH_EUR',
      side: 'BUY',
      type: 'MARKET',
      quoteQuantity: 50,
    });
    expect(order.status).toBe('REJECTED');
    expect(order.rejectionReason).toBe('ASSET_NOT_ENABLED');
    const rejected = await client.orders.list({ orgUserId: trader, status: 'REJECTED' }).toArray();
    expect(rejected.map((o) => o.id)).toEqual([order.id]);
  });

  it('refuses both or neither amount before sending; the api refuses a bad symbol; unknown ids are 404', async () => {
    expect(() =>
      client.orders.create({ orgUserId: trader, symbol: 'BTC_EUR', side: 'BUY', type: 'MARKET' } as never),
    ).toThrow('give exactly one of quantity and quoteQuantity');
    const invalid = await client.orders
      .create({ orgUserId: trader, symbol: 'btc-eur', side: 'BUY', type: 'MARKET', quantity: 1 })
      .catch((e: unknown) => e);
    expect(invalid).toBeInstanceOf(SvcValidationError);
    expect((invalid as SvcValidationError).errorText).toMatch(/symbol/);
    await expect(client.orders.get(987654321)).rejects.toBeInstanceOf(SvcNotFoundError);
  });
});
