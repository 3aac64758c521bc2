// Cancel and replace over HTTP on PostgreSQL (docs/api-guide.md#orders): by id and by clientOrderId, a
// partly filled order's rest, every open order of a user, a 409 naming the status of a final order, the
// replace that cancels the old order and places the new one in one transaction, and another organisation's
// orders as 404s on every route.
import { randomUUID } from 'node:crypto';

import type { Order } from '@svc/protocol';

import { ApiFixture } from './support/app-fixture.js';
import { Trading } from './support/trading.js';

describe('cancel and replace', () => {
  let api: ApiFixture;
  let trading: Trading;

  beforeAll(async () => {
    api = await ApiFixture.start();
    trading = await Trading.start(api);
    await trading.price('BTC_EUR', 50000);
    await trading.price('ETH_EUR', 2500);
  });

  afterAll(async () => {
    await api.close();
  });

  it('cancels a resting order by id: CANCELLED (REQUESTED), its event, and a price move no longer fills it', async () => {
    const orgUserId = await trading.user();
    const order = await trading.placed({ orgUserId, quantity: 0.1, limitPrice: 40000 });
    const response = await trading.org.signed<Order>('DELETE', `/api/v1/orders/${order.id}/`);
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({
      id: order.id,
      status: 'CANCELLED',
      cancelReason: 'REQUESTED',
      filled: 0,
    });
    expect((await trading.events(order.id)).map((event) => [event.status, event.cancelReason])).toEqual([
      ['PENDING', null],
      ['CANCELLED', 'REQUESTED'],
    ]);
    await trading.price('BTC_EUR', 39000);
    expect((await trading.get(order.id)).status).toBe('CANCELLED');
    expect(await trading.holding(orgUserId, 'BTC')).toBeUndefined();
    await trading.price('BTC_EUR', 50000);
  });

  it('a second cancel, or a cancel of a COMPLETED order, is a 409 naming the status; nothing is written', async () => {
    const orgUserId = await trading.user();
    const resting = await trading.placed({ orgUserId, quantity: 0.1, limitPrice: 40000 });
    await trading.org.signed('DELETE', `/api/v1/orders/${resting.id}/`);
    const again = await trading.org.bearer('DELETE', `/api/v1/orders/${resting.id}/`);
    expect(again.status).toBe(409);
    expect(again.body.error).toBe(
      `Conflict: order ${resting.id} is CANCELLED: only a PENDING or PARTIALLY_FILLED order can be cancelled`,
    );
    const market = await trading.placed({ orgUserId, type: 'MARKET', quantity: 0.01 });
    const [before] = await api.rows<{ n: number }>('SELECT count(*)::int AS n FROM events');
    const completed = await trading.org.signed('DELETE', `/api/v1/orders/${market.id}/`);
    expect(completed.status).toBe(409);
    expect(completed.body.error).toContain('is COMPLETED');
    expect(await trading.get(market.id)).toEqual(market);
    expect(await api.rows('SELECT count(*)::int AS n FROM events')).toEqual([before]);
  });

  it('cancelling a PARTIALLY_FILLED order cancels its rest; what filled stays filled', async () => {
    await trading.levels('ETH_EUR', [{ price: 2500, size: 1 }]);
    const orgUserId = await trading.user();
    const clientOrderId = randomUUID();
    const order = await trading.placed({
      orgUserId,
      clientOrderId,
      symbol: 'ETH_EUR',
      quantity: 3,
      limitPrice: 2500,
    });
    expect(order).toMatchObject({ status: 'PARTIALLY_FILLED', filled: 1 });
    const byClient = await trading.org.bearer<Order>('GET', `/api/v1/orders/client/${clientOrderId}/`);
    expect(byClient.body.data).toEqual(order);
    const response = await trading.org.signed<Order>('DELETE', `/api/v1/orders/client/${clientOrderId}/`);
    expect(response.body.data).toMatchObject({ status: 'CANCELLED', filled: 1, netExecutedAmount: 2500 });
    await trading.levels('ETH_EUR', [{ price: 2400, size: 5 }]);
    expect(await trading.get(order.id)).toMatchObject({ status: 'CANCELLED', filled: 1 });
    expect(await trading.holding(orgUserId, 'ETH')).toBe('1.00000000');
    await trading.levels('ETH_EUR', []);
  });

  it("cancels every open order of a user, oldest first, and leaves the final ones and other users' alone", async () => {
    const orgUserId = await trading.user();
    const neighbour = await trading.user();
    const first = await trading.placed({ orgUserId, quantity: 0.1, limitPrice: 40000 });
    const second = await trading.placed({
      orgUserId,
      side: 'BUY',
      type: 'STOP',
      quantity: 0.1,
      stopPrice: 60000,
    });
    const done = await trading.placed({ orgUserId, type: 'MARKET', quantity: 0.01 });
    const theirs = await trading.placed({ orgUserId: neighbour, quantity: 0.1, limitPrice: 40000 });
    const response = await trading.org.signed<{ items: Order[] }>(
      'DELETE',
      `/api/v1/user/${orgUserId}/orders/`,
    );
    expect(response.status).toBe(200);
    expect(response.body.data!.items.map((item) => [item.id, item.status, item.cancelReason])).toEqual([
      [first.id, 'CANCELLED', 'REQUESTED'],
      [second.id, 'CANCELLED', 'REQUESTED'],
    ]);
    expect((await trading.get(done.id)).status).toBe('COMPLETED');
    expect((await trading.get(theirs.id)).status).toBe('PENDING');
    const none = await trading.org.bearer<{ items: Order[] }>('DELETE', `/api/v1/user/${orgUserId}/orders/`);
    expect(none.body.data).toEqual({ items: [] });
    const nobody = await trading.org.bearer('DELETE', '/api/v1/user/nobody/orders/');
    expect(nobody.status).toBe(404);
  });

  it('replace: the old order CANCELLED (REPLACED) and the new one placed with replaces, in one transaction', async () => {
    const orgUserId = await trading.user();
    const old = await trading.placed({ orgUserId, quantity: 0.2, limitPrice: 40000, timeInForce: 'DAY' });
    const clientOrderId = randomUUID();
    const response = await trading.org.signed<Order>('PATCH', `/api/v1/orders/${old.id}/`, {
      body: { clientOrderId, limitPrice: 41000 },
    });
    expect(response.status).toBe(200);
    const replacement = response.body.data!;
    expect(replacement).toMatchObject({
      clientOrderId,
      orgUserId,
      type: 'LIMIT',
      side: 'BUY',
      quantity: 0.2,
      limitPrice: 41000,
      timeInForce: 'DAY',
      status: 'PENDING',
      replaces: old.id,
    });
    expect(await trading.get(old.id)).toMatchObject({ status: 'CANCELLED', cancelReason: 'REPLACED' });
    const retry = await trading.org.bearer<Order>('PATCH', `/api/v1/orders/${old.id}/`, {
      body: { clientOrderId, limitPrice: 41000 },
    });
    expect(retry.body.data).toEqual(replacement);
    await trading.price('BTC_EUR', 40500);
    expect(await trading.get(replacement.id)).toMatchObject({ status: 'COMPLETED', price: 40500 });
    await trading.price('BTC_EUR', 50000);
  });

  it('a replacement the checks refuse is a 409 and the old order stays as it was; a final one is a 409', async () => {
    await trading.policy({ quoteLimit: { EUR: '10000' } });
    const orgUserId = await trading.user();
    const old = await trading.placed({ orgUserId, quantity: 0.1, limitPrice: 40000 });
    const refused = await trading.org.signed('PATCH', `/api/v1/orders/${old.id}/`, {
      body: { clientOrderId: randomUUID(), quantity: 1 },
    });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toContain('the replacement would be REJECTED (QUOTE_LIMIT)');
    expect(await trading.get(old.id)).toEqual(old);
    await trading.policy({ quoteLimit: {} });
    await trading.org.signed('DELETE', `/api/v1/orders/${old.id}/`);
    const final = await trading.org.bearer('PATCH', `/api/v1/orders/${old.id}/`, {
      body: { clientOrderId: randomUUID() },
    });
    expect(final.status).toBe(409);
    expect(final.body.error).toContain('is CANCELLED');
    const bad = await trading.org.bearer('PATCH', `/api/v1/orders/${old.id}/`, { body: { limitPrice: 1 } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain('clientOrderId');
  });

  it("another organisation's order is a 404 on every new route, and stays as it was", async () => {
    const orgUserId = await trading.user();
    const clientOrderId = randomUUID();
    const mine = await trading.placed({ orgUserId, clientOrderId, quantity: 0.1, limitPrice: 40000 });
    const other = new Trading(api, await api.createOrg());
    const calls: [string, string, object?][] = [
      ['GET', `/api/v1/orders/client/${clientOrderId}/`],
      ['DELETE', `/api/v1/orders/${mine.id}/`],
      ['DELETE', `/api/v1/orders/client/${clientOrderId}/`],
      ['PATCH', `/api/v1/orders/${mine.id}/`, { clientOrderId: randomUUID() }],
      ['DELETE', `/api/v1/user/${orgUserId}/orders/`],
    ];
    for (const [method, path, body] of calls) {
      // By bearer token: a signature covers the path, not the method, so a second signed call to the same
      // path within the second would be a replay.
      const response = await other.org.bearer(method, path, body ? { body } : {});
      expect([method, path, response.status]).toEqual([method, path, 404]);
    }
    expect(await trading.get(mine.id)).toEqual(mine);
    const malformed = await trading.org.bearer('DELETE', '/api/v1/orders/client/not-a-uuid/');
    expect(malformed.status).toBe(404);
  });

  it('cancel and replace need BASE_MODULE:WRITE', async () => {
    const orgUserId = await trading.user();
    const order = await trading.placed({ orgUserId, quantity: 0.1, limitPrice: 40000 });
    const reader = await trading.org.bearer('DELETE', `/api/v1/orders/${order.id}/`, {
      scopes: ['BASE_MODULE:READ'],
    });
    expect(reader.status).toBe(401);
    expect((await trading.get(order.id)).status).toBe('PENDING');
  });
});
