// The order lifecycle over HTTP on PostgreSQL (docs/api-guide.md#orders): LIMIT, STOP and STOP_LIMIT orders
// with each time in force, resting and filling when the operator moves the price or sets levels, partial
// fills taking from levels, IOC and FOK, MARKET orders on levels, DAY and GTD expiry, and the 400s of the
// terms. Each test checks the answer, the stored order, fills, levels and positions, and the Orders events.
import { randomUUID } from 'node:crypto';

import { ORDER_SCHEMA, type Order, parseOrder } from '@svc/protocol';

import { OrderSweeperService } from '../src/orders/order-sweeper.service.js';
import { ApiFixture } from './support/app-fixture.js';
import { Trading } from './support/trading.js';

const NEXT_MIDNIGHT = () => {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1)).toISOString();
};

describe('the order lifecycle', () => {
  let api: ApiFixture;
  let trading: Trading;

  beforeAll(async () => {
    api = await ApiFixture.start();
    trading = await Trading.start(api);
  });

  afterAll(async () => {
    await api.close();
  });

  beforeEach(async () => {
    await trading.price('BTC_EUR', 50000);
    await trading.price('ETH_EUR', 2500);
    await trading.levels('ETH_EUR', [], []);
  });

  const sweep = () => api.app.get(OrderSweeperService).sweep(null);

  it('a LIMIT BUY below the price rests PENDING, then fills when the operator price comes down to it', async () => {
    const orgUserId = await trading.user();
    const order = await trading.placed({ orgUserId, quantity: 0.1, limitPrice: 49000 });
    expect(Object.keys(order)).toEqual(Object.keys(ORDER_SCHEMA.properties));
    expect(parseOrder(order)).toEqual(order);
    expect(order).toMatchObject({
      type: 'LIMIT',
      timeInForce: 'GTC',
      limitPrice: 49000,
      stopPrice: null,
      expireAt: null,
      status: 'PENDING',
      quantity: 0.1,
      filled: 0,
      netExecutedAmount: 0,
      cancelReason: null,
      replaces: null,
      rejectionReason: null,
    });
    expect(await trading.fills(order.id)).toEqual([]);
    expect(await trading.holding(orgUserId, 'BTC')).toBeUndefined();

    await trading.price('BTC_EUR', 49500);
    expect((await trading.get(order.id)).status).toBe('PENDING');
    await trading.price('BTC_EUR', 48500);
    const filled = await trading.get(order.id);
    // net 0.1 x 48500; commission 0.15% of it; VAT 21% of the commission.
    expect(filled).toMatchObject({
      status: 'COMPLETED',
      filled: 0.1,
      price: 48500,
      quoteQuantity: 4850,
      netExecutedAmount: 4850,
      commissionAmount: 7.275,
      vatAmount: 1.52775,
      totalExecutedAmount: 4858.80275,
      averagePrice: 48588.0275,
      baseAveragePrice: 48500,
    });
    expect(await trading.fills(order.id)).toEqual([
      {
        price: '48500.00000000',
        quantity: '0.10000000',
        net_amount: '4850.00000000',
        commission_amount: '7.27500000',
        vat_amount: '1.52775000',
        total_amount: '4858.80275000',
      },
    ]);
    expect(await trading.holding(orgUserId, 'BTC')).toBe('0.10000000');
    const events = await trading.events(order.id);
    expect(events.map((event) => event.status)).toEqual(['PENDING', 'COMPLETED']);
    expect(events[1]).toEqual(filled);
  });

  it('a marketable LIMIT fills at once at the book price, in the placement', async () => {
    const orgUserId = await trading.user();
    const order = await trading.placed({ orgUserId, quantity: 0.2, limitPrice: 51000 });
    expect(order).toMatchObject({ status: 'COMPLETED', price: 50000, filled: 0.2, netExecutedAmount: 10000 });
    expect((await trading.events(order.id)).map((event) => event.status)).toEqual(['COMPLETED']);
    expect(await trading.holding(orgUserId, 'BTC')).toBe('0.20000000');
  });

  it('fills over time from levels: each fill takes at most its level, fees accumulate on the running net', async () => {
    await trading.levels('ETH_EUR', [
      { price: 2500, size: 1 },
      { price: 2510, size: 2 },
    ]);
    const orgUserId = await trading.user();
    const order = await trading.placed({ orgUserId, symbol: 'ETH_EUR', quantity: 2.5, limitPrice: 2505 });
    expect(order).toMatchObject({
      status: 'PARTIALLY_FILLED',
      filled: 1,
      price: 2500,
      netExecutedAmount: 2500,
    });
    expect(await trading.levelSizes('ETH_EUR')).toEqual({
      'ASK 2500.00000000': '0.00000000',
      'ASK 2510.00000000': '2.00000000',
    });

    await trading.levels('ETH_EUR', [{ price: 2505, size: 1 }]);
    expect(await trading.get(order.id)).toMatchObject({ status: 'PARTIALLY_FILLED', filled: 2, price: 2505 });
    await trading.levels('ETH_EUR', [{ price: 2504.33333333, size: 3 }]);
    const done = await trading.get(order.id);
    // net: 2500 + 2505 + round(0.5 x 2504.33333333) = 6257.16666667 (rounded half up);
    // commission: round(6257.16666667 x 0.0015) = 9.38575; VAT: round(9.38575 x 0.21) = 1.97100750
    expect(done).toMatchObject({
      status: 'COMPLETED',
      filled: 2.5,
      price: 2504.33333333,
      netExecutedAmount: 6257.16666667,
      commissionAmount: 9.38575,
      vatAmount: 1.9710075,
      totalExecutedAmount: 6268.52342417,
    });
    const fills = await trading.fills(order.id);
    expect(fills.map((fill) => [fill.price, fill.quantity])).toEqual([
      ['2500.00000000', '1.00000000'],
      ['2505.00000000', '1.00000000'],
      ['2504.33333333', '0.50000000'],
    ]);
    const sum = (field: keyof (typeof fills)[number]) =>
      fills.reduce((total, fill) => total + Math.round(Number(fill[field]) * 1e8), 0) / 1e8;
    expect(sum('commission_amount')).toBe(9.38575);
    expect(sum('vat_amount')).toBe(1.9710075);
    expect(sum('total_amount')).toBe(6268.52342417);
    expect(await trading.levelSizes('ETH_EUR')).toEqual({ 'ASK 2504.33333333': '2.50000000' });
    expect(await trading.holding(orgUserId, 'ETH')).toBe('2.50000000');
    expect((await trading.events(order.id)).map((event) => [event.status, event.filled])).toEqual([
      ['PARTIALLY_FILLED', 1],
      ['PARTIALLY_FILLED', 2],
      ['COMPLETED', 2.5],
    ]);
  });

  it('IOC fills what the book has and cancels the rest; FOK is refused whole unless it fills in full', async () => {
    const book = [
      { price: 2500, size: 1 },
      { price: 2510, size: 1 },
    ];
    await trading.levels('ETH_EUR', book);
    const orgUserId = await trading.user();
    const ioc = await trading.placed({
      orgUserId,
      symbol: 'ETH_EUR',
      quantity: 3,
      limitPrice: 2510,
      timeInForce: 'IOC',
    });
    expect(ioc).toMatchObject({ status: 'CANCELLED', cancelReason: 'IMMEDIATE_OR_CANCEL', filled: 2 });
    expect(await trading.holding(orgUserId, 'ETH')).toBe('2.00000000');

    await trading.levels('ETH_EUR', book);
    const fok = await trading.placed({
      orgUserId,
      symbol: 'ETH_EUR',
      quantity: 3,
      limitPrice: 2510,
      timeInForce: 'FOK',
    });
    expect(fok).toMatchObject({ status: 'REJECTED', rejectionReason: 'INSUFFICIENT_LIQUIDITY', filled: 0 });
    expect(await trading.fills(fok.id)).toEqual([]);
    expect(await trading.levelSizes('ETH_EUR')).toEqual({
      'ASK 2500.00000000': '1.00000000',
      'ASK 2510.00000000': '1.00000000',
    });
    const whole = await trading.placed({
      orgUserId,
      symbol: 'ETH_EUR',
      quantity: 2,
      limitPrice: 2510,
      timeInForce: 'FOK',
    });
    expect(whole).toMatchObject({ status: 'COMPLETED', filled: 2, netExecutedAmount: 5010 });
    expect(await trading.holding(orgUserId, 'ETH')).toBe('4.00000000');
  });

  it('a MARKET order walks the levels, fills in full or is refused, and keeps the record of 25 fields', async () => {
    await trading.levels('ETH_EUR', [
      { price: 2500, size: 1 },
      { price: 2510, size: 2 },
    ]);
    const orgUserId = await trading.user();
    const market = await trading.placed({ orgUserId, symbol: 'ETH_EUR', type: 'MARKET', quantity: 1.5 });
    expect(Object.keys(market)).toHaveLength(25);
    expect(market).toMatchObject({ status: 'COMPLETED', filled: 1.5, price: 2510, netExecutedAmount: 3755 });
    expect(market.baseAveragePrice).toBeCloseTo(2503.3333, 3);
    const tooBig = await trading.placed({ orgUserId, symbol: 'ETH_EUR', type: 'MARKET', quantity: 2 });
    expect(tooBig).toMatchObject({
      status: 'REJECTED',
      rejectionReason: 'INSUFFICIENT_LIQUIDITY',
      filled: 0,
    });
    const byQuote = await trading.placed({
      orgUserId,
      symbol: 'ETH_EUR',
      type: 'MARKET',
      quoteQuantity: 1255,
    });
    expect(byQuote).toMatchObject({
      status: 'COMPLETED',
      quantity: 0.5,
      quoteQuantity: 1255,
      netExecutedAmount: 1255,
    });
    expect(await trading.levelSizes('ETH_EUR')).toEqual({
      'ASK 2500.00000000': '0.00000000',
      'ASK 2510.00000000': '1.00000000',
    });
    expect(await trading.holding(orgUserId, 'ETH')).toBe('2.00000000');
  });

  it('DAY rests until the next 00:00 UTC; GTD until its expireAt, then the sweep expires it with an event', async () => {
    const orgUserId = await trading.user();
    const day = await trading.placed({ orgUserId, quantity: 0.01, limitPrice: 40000, timeInForce: 'DAY' });
    expect(day).toMatchObject({ status: 'PENDING', timeInForce: 'DAY', expireAt: NEXT_MIDNIGHT() });
    const expireAt = new Date(Date.now() + 3_600_000).toISOString();
    const gtd = await trading.placed({
      orgUserId,
      quantity: 0.01,
      limitPrice: 40000,
      timeInForce: 'GTD',
      expireAt,
    });
    expect(gtd).toMatchObject({ status: 'PENDING', timeInForce: 'GTD', expireAt });
    await sweep();
    expect((await trading.get(gtd.id)).status).toBe('PENDING');

    await api.rows("UPDATE orders SET expire_at = now() - interval '1 millisecond' WHERE id = $1", [gtd.id]);
    expect(await sweep()).toMatchObject({ expired: 1 });
    expect(await trading.get(gtd.id)).toMatchObject({ status: 'EXPIRED', filled: 0 });
    expect((await trading.events(gtd.id)).map((event) => event.status)).toEqual(['PENDING', 'EXPIRED']);
    // Expired, it no longer crosses: a price at its limit fills nothing.
    await trading.price('BTC_EUR', 39000);
    expect((await trading.get(gtd.id)).status).toBe('EXPIRED');
    expect((await trading.get(day.id)).status).toBe('COMPLETED');
  });

  it('a STOP BUY triggers when the last price reaches its stop and fills as a market order', async () => {
    const orgUserId = await trading.user();
    const stop = await trading.placed({ orgUserId, type: 'STOP', quantity: 0.1, stopPrice: 52000 });
    expect(stop).toMatchObject({ status: 'PENDING', type: 'STOP', stopPrice: 52000, limitPrice: null });
    await trading.price('BTC_EUR', 51999.99);
    expect((await trading.get(stop.id)).status).toBe('PENDING');
    await trading.price('BTC_EUR', 52500);
    expect(await trading.get(stop.id)).toMatchObject({ status: 'COMPLETED', price: 52500, filled: 0.1 });
    expect(await trading.holding(orgUserId, 'BTC')).toBe('0.10000000');
  });

  it('a STOP_LIMIT SELL stays triggered when the price gaps past its limit, and fills once back within it', async () => {
    const orgUserId = await trading.holder('BTC', '1');
    const order = await trading.placed({
      orgUserId,
      side: 'SELL',
      type: 'STOP_LIMIT',
      quantity: 0.5,
      stopPrice: 48000,
      limitPrice: 47500,
    });
    expect(order.status).toBe('PENDING');
    await trading.price('BTC_EUR', 47000); // the stop is reached, but bids at 47000 are under the limit
    const [row] = await api.rows<{ triggered: boolean }>(
      'SELECT triggered_at IS NOT NULL AS triggered FROM orders WHERE id = $1',
      [order.id],
    );
    expect(row?.triggered).toBe(true);
    expect((await trading.get(order.id)).status).toBe('PENDING');
    await trading.price('BTC_EUR', 49000);
    expect(await trading.get(order.id)).toMatchObject({ status: 'COMPLETED', price: 49000, filled: 0.5 });
    expect(await trading.holding(orgUserId, 'BTC')).toBe('0.50000000');
  });

  describe('terms: a 400 naming the field and the rule, nothing written', () => {
    const future = new Date(Date.now() + 86_400_000).toISOString();
    const cases: [string, Record<string, unknown>, string][] = [
      ['LIMIT without limitPrice', { type: 'LIMIT' }, 'limitPrice is required for orders of type LIMIT'],
      ['STOP without stopPrice', { type: 'STOP' }, 'stopPrice is required for orders of type STOP'],
      ['STOP_LIMIT without stopPrice', { type: 'STOP_LIMIT', limitPrice: 1 }, 'stopPrice is required'],
      [
        'LIMIT with stopPrice',
        { limitPrice: 1, stopPrice: 2 },
        'stopPrice is not taken by orders of type LIMIT',
      ],
      [
        'MARKET with limitPrice',
        { type: 'MARKET', limitPrice: 1 },
        'limitPrice is not taken by MARKET orders',
      ],
      [
        'MARKET with timeInForce',
        { type: 'MARKET', timeInForce: 'GTC' },
        'timeInForce is not taken by MARKET',
      ],
      [
        'STOP with IOC',
        { type: 'STOP', stopPrice: 1, timeInForce: 'IOC' },
        'timeInForce IOC is taken by LIMIT',
      ],
      [
        'GTD without expireAt',
        { limitPrice: 1, timeInForce: 'GTD' },
        'expireAt is required with timeInForce GTD',
      ],
      [
        'GTD in the past',
        { limitPrice: 1, timeInForce: 'GTD', expireAt: '2020-01-01T00:00:00Z' },
        'expireAt must be in the future',
      ],
      [
        'expireAt without GTD',
        { limitPrice: 1, expireAt: future },
        'expireAt is taken with timeInForce GTD only',
      ],
      [
        'a bad expireAt',
        { limitPrice: 1, timeInForce: 'GTD', expireAt: 'tomorrow' },
        'expireAt must be an ISO 8601',
      ],
      [
        'a bad timeInForce',
        { limitPrice: 1, timeInForce: 'GTX' },
        'timeInForce must be one of GTC, IOC, FOK, DAY, GTD',
      ],
      [
        'limitPrice rounded',
        { limitPrice: 1.000000001 },
        'limitPrice must be a number greater than 0 with at most 8 decimals',
      ],
      [
        'LIMIT by quoteQuantity',
        { limitPrice: 1, quantity: undefined, quoteQuantity: 100 },
        'quoteQuantity is taken by MARKET orders only',
      ],
    ];

    it.each(cases)('%s', async (_, change, message) => {
      const orgUserId = await trading.user();
      const [before] = await api.rows<{ n: number }>('SELECT count(*)::int AS n FROM orders');
      const response = await trading.order({ orgUserId, quantity: 0.01, ...change });
      expect(response.status).toBe(400);
      expect(response.body.error).toContain(message);
      expect(await api.rows('SELECT count(*)::int AS n FROM orders')).toEqual([before]);
    });
  });

  it('an order of another type answers its clientOrderId again, and 409s it with other terms', async () => {
    const orgUserId = await trading.user();
    const clientOrderId = randomUUID();
    const first = await trading.placed({ orgUserId, clientOrderId, quantity: 0.01, limitPrice: 30000 });
    const again = await trading.org.bearer<Order>('POST', '/api/v1/orders/', {
      body: {
        orgUserId,
        clientOrderId,
        symbol: 'BTC_EUR',
        side: 'BUY',
        type: 'LIMIT',
        quantity: 0.01,
        limitPrice: 30000,
      },
    });
    expect(again.body.data).toEqual(first);
    const other = await trading.org.bearer('POST', '/api/v1/orders/', {
      body: {
        orgUserId,
        clientOrderId,
        symbol: 'BTC_EUR',
        side: 'BUY',
        type: 'LIMIT',
        quantity: 0.01,
        limitPrice: 30001,
      },
    });
    expect(other.status).toBe(409);
    expect(other.body.error).toContain('limitPrice differs');
  });
});
