// The order lifecycle exactly once across built api processes on one PostgreSQL (docs/decisions.md,
// "Orders: the book and the sweep"): two processes sweeping the same crossing orders fill each once; a price move racing a
// cancel ends in exactly one of the two; and a process killed with SIGKILL in the middle of a sweep of many
// orders leaves nothing half done: after a restart every order whose price was reached is filled, none twice,
// every fill with its event.
import type { Order } from '@svc/protocol';
import { createTestDatabase, type TestDatabase } from '@svc/db/testing';

import { type ApiProcess, inParallel, ProcessTrading, startApi, until } from './support/api-process.js';

/** What was stored of a set of orders, checked the same way in every test. */
interface Ledger {
  readonly orders: { id: string; status: string; quantity: string; filled: string; triggered: boolean }[];
  /** Per order: how many fills and their summed quantity. */
  readonly fills: Map<string, { n: number; quantity: string }>;
  /** Per order: the statuses its Orders events carry, oldest first. */
  readonly events: Map<string, string[]>;
}

async function ledger(trading: ProcessTrading, ids: readonly number[]): Promise<Ledger> {
  const orders = await trading.rows<Ledger['orders'][number]>(
    `SELECT o.id::text, o.status, o.quantity::text, o.filled::text, o.triggered_at IS NOT NULL AS triggered
       FROM orders o WHERE o.id = ANY($1) ORDER BY o.id`,
    [ids],
  );
  const fills = await trading.rows<{ order_id: string; n: number; quantity: string }>(
    `SELECT order_id::text, count(*)::int AS n, sum(quantity)::text AS quantity
       FROM order_fills WHERE order_id = ANY($1) GROUP BY 1`,
    [ids],
  );
  const events = await trading.rows<{ id: string; statuses: string[] }>(
    `SELECT data->>'id' AS id, array_agg(data->>'status' ORDER BY created_at, id) AS statuses
       FROM events WHERE org_id = $1 AND entity = 'Orders' AND (data->>'id')::bigint = ANY($2) GROUP BY 1`,
    [trading.orgId, ids],
  );
  return {
    orders,
    fills: new Map(fills.map(({ order_id, n, quantity }) => [order_id, { n, quantity }])),
    events: new Map(events.map(({ id, statuses }) => [id, statuses])),
  };
}

/**
 * What must hold at any committed moment: an order's fills sum to its filled, a filled order was filled by
 * one fill (these orders fill in full at the operator price) and announced once, an open one has neither.
 */
function expectConsistent(stored: Ledger): void {
  for (const order of stored.orders) {
    const fills = stored.fills.get(order.id);
    const events = stored.events.get(order.id);
    if (order.status === 'COMPLETED') {
      expect({ id: order.id, fills, events }).toEqual({
        id: order.id,
        fills: { n: 1, quantity: order.quantity },
        events: ['PENDING', 'COMPLETED'],
      });
      expect(order.filled).toBe(order.quantity);
    } else {
      expect({ id: order.id, status: order.status, fills, filled: order.filled }).toEqual({
        id: order.id,
        status: 'PENDING',
        fills: undefined,
        filled: '0.00000000',
      });
      expect(events).toEqual(['PENDING']);
    }
  }
}

/** Each user's position of `asset`, by orgUserId. */
async function holdings(trading: ProcessTrading, asset: string): Promise<Map<string, string>> {
  const rows = await trading.rows<{ org_user_id: string; quantity: string }>(
    `SELECT u.org_user_id, p.quantity::text FROM positions p JOIN users u ON u.id = p.user_id
      WHERE u.org_id = $1 AND p.asset = $2`,
    [trading.orgId, asset],
  );
  return new Map(rows.map((row) => [row.org_user_id, row.quantity]));
}

/** An amount as stored (8 decimals) from a count of 1e-8 units, exact. */
function text8(units: bigint): string {
  const digits = units.toString().padStart(9, '0');
  return `${digits.slice(0, -8)}.${digits.slice(-8)}`;
}

/** The exact sum of amounts given with at most 8 decimals, as stored. */
function sum8(amounts: readonly number[]): string {
  return text8(amounts.reduce((total, amount) => total + BigInt(amount.toFixed(8).replace('.', '')), 0n));
}

describe('the sweep across two api processes', () => {
  let db: TestDatabase;
  let a: ApiProcess;
  let b: ApiProcess;
  let trading: ProcessTrading;

  beforeAll(async () => {
    db = await createTestDatabase();
    // Both sweep every pair every 50 ms besides the sweep a price change starts.
    [a, b] = await Promise.all([
      startApi(db, { ORDER_SWEEP_MS: '50' }),
      startApi(db, { ORDER_SWEEP_MS: '50' }),
    ]);
    trading = await ProcessTrading.start(db, a);
    for (const [symbol, price] of [
      ['BTC_EUR', 50000],
      ['ETH_EUR', 2500],
    ] as const) {
      expect((await trading.price(a, symbol, price)).status).toBe(200);
    }
  }, 120_000);

  afterAll(async () => {
    await Promise.all([a, b].map((api) => api.stop()));
    await db.close();
  }, 30_000);

  it('two processes sweeping the same crossing orders fill each order once, positions exact', async () => {
    const users = await inParallel(Array.from({ length: 20 }), 5, (_, i) => trading.user(i % 2 ? a : b));
    const quantities = ['0.001', '0.0123', '0.5', '0.00000001', '1.23456789'];
    const placed = await inParallel(Array.from({ length: 300 }), 8, (_, i) =>
      trading.placed(i % 2 ? a : b, {
        orgUserId: users[i % users.length],
        symbol: i % 3 ? 'BTC_EUR' : 'ETH_EUR',
        quantity: Number(quantities[i % quantities.length]),
        limitPrice: i % 3 ? 49000 : 2400,
      }),
    );
    expect(placed.every((order) => order.status === 'PENDING')).toBe(true);

    // Both processes' periodic sweeps see the new prices at once, and each process also sweeps after its
    // own price change: four sweeps at least race for the same orders.
    await Promise.all([trading.quietPrice('BTC_EUR', '48000'), trading.quietPrice('ETH_EUR', '2300')]);
    const moves = await Promise.all([
      trading.price(a, 'BTC_EUR', 48000),
      trading.price(b, 'BTC_EUR', 48000),
      trading.price(a, 'ETH_EUR', 2300),
      trading.price(b, 'ETH_EUR', 2300),
    ]);
    expect(moves.map((move) => move.status)).toEqual([200, 200, 200, 200]);
    const ids = placed.map((order) => order.id);
    await until(
      'every order to fill',
      async () =>
        (
          await trading.rows<{ n: number }>(
            "SELECT count(*)::int AS n FROM orders WHERE id = ANY($1) AND status = 'COMPLETED'",
            [ids],
          )
        )[0]?.n === ids.length,
      30_000,
    );
    // A further sweep of each process finds nothing left to do.
    await new Promise((resolve) => setTimeout(resolve, 300));

    const stored = await ledger(trading, ids);
    expect(stored.orders.every((order) => order.status === 'COMPLETED')).toBe(true);
    expectConsistent(stored);
    const prices = await trading.rows<{ order_id: string; price: string }>(
      'SELECT order_id::text, price::text FROM order_fills WHERE order_id = ANY($1)',
      [ids],
    );
    const expected = new Map(
      placed.map((order) => [
        String(order.id),
        order.symbol === 'BTC_EUR' ? '48000.00000000' : '2300.00000000',
      ]),
    );
    expect(new Map(prices.map((row) => [row.order_id, row.price]))).toEqual(expected);
    for (const asset of ['BTC', 'ETH']) {
      const symbol = `${asset}_EUR`;
      const byUser = new Map<string, number[]>();
      for (const order of placed.filter((candidate) => candidate.symbol === symbol)) {
        byUser.set(order.orgUserId, [...(byUser.get(order.orgUserId) ?? []), order.quantity]);
      }
      const want = new Map([...byUser].map(([user, amounts]) => [user, sum8(amounts)]));
      expect(await holdings(trading, asset)).toEqual(want);
    }
  }, 120_000);

  it('a price move racing a cancel, each through its own process, ends in exactly one of the two', async () => {
    const outcomes = { CANCELLED: 0, COMPLETED: 0 };
    for (let round = 0; round < 30; round++) {
      await trading.quietPrice('BTC_EUR', '50000');
      const orgUserId = await trading.user(a);
      const order = await trading.placed(a, { orgUserId, quantity: 0.01, limitPrice: 49000 });
      // Which one starts first turns with the round, by up to a few milliseconds.
      const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
      const [cancel, move] = await Promise.all([
        delay(round % 3).then(() => trading.cancel(round % 2 ? a : b, order.id)),
        delay((round + 1) % 3).then(() => trading.price(round % 2 ? b : a, 'BTC_EUR', 48000)),
      ]);
      expect(move.status).toBe(200);
      const stored = await ledger(trading, [order.id]);
      const [row] = stored.orders;
      const events = stored.events.get(String(order.id));
      const fills = stored.fills.get(String(order.id));
      const held = (await holdings(trading, 'BTC')).get(orgUserId);
      if (cancel.status === 200) {
        expect(cancel.data?.status).toBe('CANCELLED');
        expect({ status: row?.status, fills, events, held }).toEqual({
          status: 'CANCELLED',
          fills: undefined,
          events: ['PENDING', 'CANCELLED'],
          held: undefined,
        });
        outcomes.CANCELLED++;
      } else {
        expect(cancel.status).toBe(409);
        expect(cancel.error).toContain('is COMPLETED');
        expect({ status: row?.status, fills, events, held }).toEqual({
          status: 'COMPLETED',
          fills: { n: 1, quantity: '0.01000000' },
          events: ['PENDING', 'COMPLETED'],
          held: '0.01000000',
        });
        outcomes.COMPLETED++;
      }
    }
    expect(outcomes.CANCELLED + outcomes.COMPLETED).toBe(30);
  }, 120_000);
});

describe('a process killed in the middle of a sweep', () => {
  let db: TestDatabase;
  let first: ApiProcess | undefined;
  let second: ApiProcess | undefined;

  beforeAll(async () => {
    db = await createTestDatabase();
  });

  afterAll(async () => {
    for (const api of [first, second]) if (api) await api.stop();
    await db.close();
  }, 30_000);

  it('after SIGKILL and a restart every trigger is executed, nothing filled twice, every fill announced', async () => {
    // No periodic sweep: only the price change sweeps, so the kill finds that sweep alone at work.
    first = await startApi(db, { ORDER_SWEEP_MS: '0' });
    const api = first;
    const trading = await ProcessTrading.start(db, api);
    expect((await trading.price(api, 'BTC_EUR', 50000)).status).toBe(200);
    const buyers = await inParallel(Array.from({ length: 30 }), 6, () => trading.user(api));
    const sellers = await inParallel(Array.from({ length: 10 }), 5, () => trading.holder(api, 'BTC', '100'));
    // LIMIT BUYs under the price and SELL stops above the move: one price move reaches all of them.
    // More than two of the sweep's batches of 5,000, so that a kill can land between two of them.
    const count = 11_000;
    const placed: Order[] = await inParallel(Array.from({ length: count }), 10, (_, i) =>
      i % 4 === 3
        ? trading.placed(api, {
            orgUserId: sellers[i % sellers.length],
            side: 'SELL',
            type: 'STOP',
            quantity: 0.002,
            stopPrice: 49000,
          })
        : trading.placed(api, { orgUserId: buyers[i % buyers.length], quantity: 0.001, limitPrice: 49000 }),
    );
    expect(placed.every((order) => order.status === 'PENDING')).toBe(true);
    const ids = placed.map((order) => order.id);
    const filled = async () =>
      (
        await trading.rows<{ n: number }>(
          'SELECT count(*)::int AS n FROM order_fills WHERE order_id = ANY($1)',
          [ids],
        )
      )[0]?.n ?? 0;

    const move = trading.price(api, 'BTC_EUR', 48000).catch(() => undefined);
    await until('the sweep to commit its first fills', async () => (await filled()) > 0, 60_000, 5);
    api.child.kill('SIGKILL');
    expect((await api.exited).signal).toBe('SIGKILL');
    await move;

    // What the killed process committed is whole: the moment it died left orders filled and untouched,
    // nothing between.
    const atKill = await ledger(trading, ids);
    const done = atKill.orders.filter((order) => order.status === 'COMPLETED').length;
    expect(done).toBeGreaterThan(0);
    expect(done).toBeLessThan(count);
    expectConsistent(atKill);

    // The restarted process's periodic sweep finishes what the dead one left.
    second = await startApi(db, { ORDER_SWEEP_MS: '100' });
    await until('every order to fill after the restart', async () => (await filled()) >= count, 90_000, 100);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const after = await ledger(trading, ids);
    expect(after.orders.every((order) => order.status === 'COMPLETED')).toBe(true);
    expect(after.orders.filter((order) => !order.triggered).map((order) => Number(order.id))).toEqual(
      placed
        .filter((order) => order.type !== 'STOP')
        .map((order) => order.id)
        .sort((x, y) => x - y),
    );
    expectConsistent(after);
    const positions = await holdings(trading, 'BTC');
    // In 1e-8 units: sellers started with 100 BTC; each BUY adds 0.001, each SELL takes 0.002.
    const want = new Map<string, bigint>(sellers.map((user) => [user, 100n * 100_000_000n]));
    for (const order of placed) {
      const units = order.side === 'BUY' ? 100_000n : -200_000n;
      want.set(order.orgUserId, (want.get(order.orgUserId) ?? 0n) + units);
    }
    expect(positions).toEqual(new Map([...want].map(([user, units]) => [user, text8(units)])));
    // Sum of fills = order's filled, over the whole set.
    const [totals] = await trading.rows<{ fills: string; orders: string }>(
      `SELECT (SELECT sum(quantity) FROM order_fills WHERE order_id = ANY($1))::text AS fills,
              (SELECT sum(filled) FROM orders WHERE id = ANY($1))::text AS orders`,
      [ids],
    );
    expect(totals?.fills).toBe(totals?.orders);
  }, 300_000);
});
