// Two api processes on one database (docs/decisions.md, "Orders: the book and the sweep"): sweeps running side by side
// fill each order once and never take more than a level holds, and a price move racing a cancel ends in
// exactly one of the two, whichever process decides.
import type { Order } from '@svc/protocol';

import { OrderSweeperService } from '../src/orders/order-sweeper.service.js';
import { ApiFixture } from './support/app-fixture.js';
import { Trading } from './support/trading.js';

describe('sweeps of two api processes', () => {
  let first: ApiFixture;
  let second: ApiFixture;
  let trading: Trading;

  beforeAll(async () => {
    first = await ApiFixture.start();
    second = await ApiFixture.start({}, { besides: first });
    trading = await Trading.start(first);
  });

  afterAll(async () => {
    await second.close();
    await first.close();
  });

  /** Sets the price in the table alone, so that no sweep runs until the test starts one. */
  const quietPrice = (symbol: string, price: string) =>
    first.rows('UPDATE prices SET price = $2 WHERE symbol = $1', [symbol, price]);

  it('concurrent sweeps fill each order once, in full or from what the levels hold, never more', async () => {
    await trading.price('ETH_EUR', 2600);
    await trading.levels('ETH_EUR', [{ price: 2500, size: 30 }]);
    await quietPrice('ETH_EUR', '2600');
    await first.rows("UPDATE price_levels SET price = 2590 WHERE symbol = 'ETH_EUR'");
    const users = await Promise.all(Array.from({ length: 8 }, () => trading.user()));
    const orders: Order[] = [];
    for (let round = 0; round < 5; round++) {
      orders.push(
        ...(await Promise.all(
          users.map((orgUserId) =>
            trading.placed({ orgUserId, symbol: 'ETH_EUR', quantity: 1, limitPrice: 2550 }),
          ),
        )),
      );
    }
    expect(orders.every((order) => order.status === 'PENDING')).toBe(true);
    // 40 orders of 1 ETH now cross a level of 30: two processes, three sweeps each, at once.
    await first.rows("UPDATE price_levels SET price = 2500 WHERE symbol = 'ETH_EUR'");
    const sweepers = [first, second].map((api) => api.app.get(OrderSweeperService));
    await Promise.all([...sweepers, ...sweepers, ...sweepers].map((sweeper) => sweeper.sweep(['ETH_EUR'])));

    const ids = orders.map((order) => order.id);
    const fills = await first.rows<{ order_id: string; n: number; quantity: string }>(
      'SELECT order_id, count(*)::int AS n, sum(quantity)::text AS quantity FROM order_fills WHERE order_id = ANY($1) GROUP BY 1',
      [ids],
    );
    expect(fills).toHaveLength(30);
    expect(fills.every((fill) => fill.n === 1 && fill.quantity === '1.00000000')).toBe(true);
    expect(await trading.levelSizes('ETH_EUR')).toEqual({ 'ASK 2500.00000000': '0.00000000' });
    const statuses = await first.rows<{ status: string; n: number }>(
      'SELECT status, count(*)::int AS n FROM orders WHERE id = ANY($1) GROUP BY 1 ORDER BY 1',
      [ids],
    );
    expect(statuses).toEqual([
      { status: 'COMPLETED', n: 30 },
      { status: 'PENDING', n: 10 },
    ]);
    // Price-time priority: the 30 oldest filled.
    const filledIds = fills.map((fill) => Number(fill.order_id)).sort((a, b) => a - b);
    expect(filledIds).toEqual([...ids].sort((a, b) => a - b).slice(0, 30));
    const events = await first.rows<{ id: string; n: number }>(
      `SELECT data->>'id' AS id, count(*)::int AS n FROM events
        WHERE entity = 'Orders' AND (data->>'id')::bigint = ANY($1) AND data->>'status' = 'COMPLETED' GROUP BY 1`,
      [ids],
    );
    expect(events).toHaveLength(30);
    expect(events.every((event) => event.n === 1)).toBe(true);
    const [held] = await first.rows<{ total: string }>(
      `SELECT sum(quantity)::text AS total FROM positions WHERE asset = 'ETH' AND user_id IN
         (SELECT id FROM users WHERE org_id = $1 AND org_user_id = ANY($2))`,
      [trading.org.orgId, users],
    );
    expect(held?.total).toBe('30.00000000');
  });

  it('a price move racing a cancel ends in exactly one of the two, the cancel on one process, the sweep on the other', async () => {
    await trading.price('BTC_EUR', 50000);
    const other = new Trading(second, trading.org);
    const outcomes: string[] = [];
    for (let round = 0; round < 12; round++) {
      await quietPrice('BTC_EUR', '50000');
      const orgUserId = await trading.user();
      const order = await trading.placed({ orgUserId, quantity: 0.01, limitPrice: 49000 });
      const [cancel] = await Promise.all([
        trading.org.bearer<Order>('DELETE', `/api/v1/orders/${order.id}/`),
        other.price('BTC_EUR', round % 2 === 0 ? 48000 : 48500),
      ]);
      const stored = await trading.get(order.id);
      const fills = await trading.fills(order.id);
      const events = (await trading.events(order.id)).map((event) => event.status);
      if (cancel.status === 200) {
        expect([stored.status, stored.cancelReason, fills.length]).toEqual(['CANCELLED', 'REQUESTED', 0]);
        expect(events).toEqual(['PENDING', 'CANCELLED']);
        expect(await trading.holding(orgUserId, 'BTC')).toBeUndefined();
      } else {
        expect(cancel.status).toBe(409);
        expect(cancel.body.error).toContain('is COMPLETED');
        expect([stored.status, fills.length]).toEqual(['COMPLETED', 1]);
        expect(events).toEqual(['PENDING', 'COMPLETED']);
        expect(await trading.holding(orgUserId, 'BTC')).toBe('0.01000000');
      }
      outcomes.push(stored.status);
    }
    expect(outcomes).toHaveLength(12);
    expect(outcomes.every((status) => status === 'CANCELLED' || status === 'COMPLETED')).toBe(true);
  });
});
