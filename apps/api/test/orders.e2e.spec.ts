// Orders against the real api on the embedded PostgreSQL, over HTTP (docs/decisions.md, "Orders: the checks
// and limits"): execution at operator prices, every check and its rejectionReason, limits at, just under and
// just over their values, exact decimals, idempotency, one user's concurrent orders, positions, events and
// tenant isolation.
import { randomUUID } from 'node:crypto';

import { ORDER_REJECTION_REASONS, type Order, parseOrder, parseWebhookEventText } from '@svc/protocol';

import type { Venue } from '../src/orders/venue.js';
import { ApiFixture, type OrgSession, type TestResponse } from './support/app-fixture.js';

/** The order record's fields (docs/api-guide.md#orders-events), in its order. */
const ORDER_FIELDS = [
  'id',
  'orgId',
  'clientOrderId',
  'orgUserId',
  'symbol',
  'side',
  'type',
  'quantity',
  'quoteQuantity',
  'filled',
  'status',
  'price',
  'averagePrice',
  'estimatedPrice',
  'baseAveragePrice',
  'commissionRate',
  'vatRate',
  'commissionAmount',
  'vatAmount',
  'netExecutedAmount',
  'totalExecutedAmount',
  'commissionAsset',
  'rejectionReason',
  'createdAt',
  'updatedAt',
];

const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

interface OrderInput {
  orgUserId: string;
  symbol?: string;
  side?: 'BUY' | 'SELL';
  quantity?: number | undefined;
  quoteQuantity?: number;
  clientOrderId?: string;
  /**
   * How the request is authenticated. A retry of a signed request within the same second would be a
   * replay (refused with 401), so tests that repeat a request send the repeat with a bearer token.
   */
  via?: 'signed' | 'bearer';
}

class Trading {
  constructor(
    readonly api: ApiFixture,
    readonly org: OrgSession,
  ) {}

  /** A new user of the organisation, ACTIVE with kyc and tnc true unless told. */
  async user(fields: { kyc?: boolean; tnc?: boolean } = {}): Promise<string> {
    const orgUserId = `u-${randomUUID()}`;
    const response = await this.org.signed('POST', '/api/v1/user/', {
      body: { orgUserId, kyc: fields.kyc ?? true, tnc: fields.tnc ?? true },
    });
    expect(response.status).toBe(200);
    return orgUserId;
  }

  order(input: OrderInput): Promise<TestResponse<Order>> {
    const body: Record<string, unknown> = {
      orgUserId: input.orgUserId,
      clientOrderId: input.clientOrderId ?? randomUUID(),
      symbol: input.symbol ?? 'BTC_EUR',
      side: input.side ?? 'BUY',
      type: 'MARKET',
    };
    if (input.quantity !== undefined) body.quantity = input.quantity;
    if (input.quoteQuantity !== undefined) body.quoteQuantity = input.quoteQuantity;
    return input.via === 'bearer'
      ? this.org.bearer<Order>('POST', '/api/v1/orders/', { body })
      : this.org.signed<Order>('POST', '/api/v1/orders/', { body });
  }

  /** Places an order that must answer 200 and returns its record. */
  async placed(input: OrderInput): Promise<Order> {
    const response = await this.order(input);
    expect(response.status).toBe(200);
    return response.body.data!;
  }

  /** Merges `fields` into the organisation's policy (amounts as decimal strings, as stored). */
  async policy(fields: Record<string, unknown>): Promise<void> {
    await this.api.rows('UPDATE organisations SET policy = policy || $2::jsonb WHERE id = $1', [
      this.org.orgId,
      JSON.stringify(fields),
    ]);
  }

  async holding(orgUserId: string, asset: string): Promise<string | undefined> {
    const [row] = await this.api.rows<{ quantity: string }>(
      `SELECT p.quantity FROM positions p JOIN users u ON u.id = p.user_id
        WHERE u.org_id = $1 AND u.org_user_id = $2 AND p.asset = $3`,
      [this.org.orgId, orgUserId, asset],
    );
    return row?.quantity;
  }

  /** Orders events of the organisation, oldest first, with their data as stored text. */
  async orderEvents(): Promise<{ id: string; data: string }[]> {
    return this.api.rows(
      "SELECT id, data::text AS data FROM events WHERE org_id = $1 AND entity = 'Orders' ORDER BY created_at, id",
      [this.org.orgId],
    );
  }
}

async function setPrice(api: ApiFixture, symbol: string, price: string): Promise<void> {
  await api.rows(
    'INSERT INTO prices (symbol, price) VALUES ($1, $2) ON CONFLICT (symbol) DO UPDATE SET price = EXCLUDED.price',
    [symbol, price],
  );
}

async function counts(
  api: ApiFixture,
): Promise<{ orders: number; events: number; positions: number; jobs: number }> {
  const [row] = await api.rows<{ orders: number; events: number; positions: number; jobs: number }>(
    `SELECT (SELECT count(*)::int FROM orders) AS orders,
            (SELECT count(*)::int FROM events) AS events,
            (SELECT count(*)::int FROM positions) AS positions,
            ${api.queuedDeliveries} AS jobs`,
  );
  return row!;
}

describe('orders', () => {
  let api: ApiFixture;
  let trading: Trading;

  beforeAll(async () => {
    api = await ApiFixture.start();
    trading = new Trading(api, await api.createOrg());
    await setPrice(api, 'BTC_EUR', '50000');
    await setPrice(api, 'ETH_EUR', '2500');
    await setPrice(api, 'BTC_USD', '55000');
    await trading.policy({ enabledAssets: ['BTC', 'ETH'], commissionRate: '0.0015', vatRate: '0.21' });
  });

  afterAll(async () => {
    await api.close();
  });

  describe('execution', () => {
    it('fills a BUY by quantity at the operator price: the order record (docs/api-guide.md#orders-events), stored row, position, event and job together', async () => {
      const orgUserId = await trading.user();
      const clientOrderId = randomUUID();
      const response = await trading.order({ orgUserId, clientOrderId, quantity: 0.1 });
      expect(response.status).toBe(200);
      expect(response.body.code).toBe(200);
      expect(response.body.error).toBeNull();
      const order = response.body.data!;
      expect(Object.keys(order)).toEqual(ORDER_FIELDS);
      expect(order).toEqual({
        id: expect.any(Number) as number,
        orgId: trading.org.orgId,
        clientOrderId,
        orgUserId,
        symbol: 'BTC_EUR',
        side: 'BUY',
        type: 'MARKET',
        quantity: 0.1,
        quoteQuantity: 5000,
        filled: 0.1,
        status: 'COMPLETED',
        price: 50000,
        // total / filled: (5000 + 7.5 + 1.575) / 0.1
        averagePrice: 50090.75,
        estimatedPrice: 50000,
        baseAveragePrice: 50000,
        commissionRate: 0.0015,
        vatRate: 0.21,
        commissionAmount: 7.5,
        vatAmount: 1.575,
        netExecutedAmount: 5000,
        totalExecutedAmount: 5009.075,
        commissionAsset: 'EUR',
        rejectionReason: null,
        createdAt: expect.stringMatching(ISO_MS) as string,
        updatedAt: expect.stringMatching(ISO_MS) as string,
      });
      expect(Number.isInteger(order.id)).toBe(true);
      // The protocol package's parser, which SDK users receive events through, accepts it as an Order.
      expect(parseOrder(order)).toEqual(order);

      const [row] = await api.rows('SELECT * FROM orders WHERE id = $1', [order.id]);
      expect(row).toMatchObject({
        org_id: trading.org.orgId,
        client_order_id: clientOrderId,
        amount_field: 'quantity',
        quantity: '0.10000000',
        filled: '0.10000000',
        status: 'COMPLETED',
        total_executed_amount: '5009.07500000',
      });
      expect(await trading.holding(orgUserId, 'BTC')).toBe('0.10000000');

      // The event carries the same record, byte for byte, and its delivery job was committed with it.
      const [event] = await api.rows<{ id: string; data: string; entity: string; event_type: null }>(
        "SELECT id, entity, event_type, data::text AS data FROM events WHERE org_id = $1 AND data->>'clientOrderId' = $2",
        [trading.org.orgId, clientOrderId],
      );
      expect(event).toMatchObject({ entity: 'Orders', event_type: null });
      expect(event!.data).toBe(JSON.stringify(response.body.data));
      const body = `{"event":{"orgId":${trading.org.orgId},"entity":"Orders","numRetries":0,"createdAt":"${order.createdAt}","updatedAt":"${order.updatedAt}"},"data":${event!.data}}`;
      expect(parseWebhookEventText(body)).toMatchObject({ event: { entity: 'Orders' }, data: order });
      expect(await api.queuedFor([event!.id])).toBe(1);
    });

    it('fills a BUY by quoteQuantity: the quantity is rounded down to 8 decimals and quoteQuantity stays what was sent', async () => {
      await setPrice(api, 'ETH_USD', '30000');
      await trading.policy({ enabledAssets: ['BTC', 'ETH'] });
      const orgUserId = await trading.user();
      const order = await trading.placed({ orgUserId, symbol: 'ETH_USD', quoteQuantity: 100 });
      expect(order).toMatchObject({
        status: 'COMPLETED',
        quantity: 0.00333333,
        filled: 0.00333333,
        quoteQuantity: 100,
        netExecutedAmount: 99.9999,
        commissionAsset: 'USD',
      });
      expect(await trading.holding(orgUserId, 'ETH')).toBe('0.00333333');
    });

    it('SELL takes from the position, and a SELL of exactly the holding empties it', async () => {
      const orgUserId = await trading.user();
      await trading.placed({ orgUserId, quantity: 0.5 });
      const sell = await trading.placed({ orgUserId, side: 'SELL', quantity: 0.2 });
      // SELL: the user receives net minus fees.
      expect(sell).toMatchObject({
        status: 'COMPLETED',
        netExecutedAmount: 10000,
        commissionAmount: 15,
        vatAmount: 3.15,
        totalExecutedAmount: 9981.85,
        averagePrice: 49909.25,
      });
      expect(await trading.holding(orgUserId, 'BTC')).toBe('0.30000000');
      await trading.placed({ orgUserId, side: 'SELL', quantity: 0.3 });
      expect(await trading.holding(orgUserId, 'BTC')).toBe('0.00000000');
      const positions = await trading.org.signed<{ orgUserId: string; positions: unknown[] }>(
        'GET',
        `/api/v1/user/${orgUserId}/positions/`,
      );
      expect(positions.body.data).toEqual({ orgUserId, positions: [] });
    });

    it('lists the positions of a user, by asset, with exact quantities', async () => {
      const orgUserId = await trading.user();
      await trading.placed({ orgUserId, symbol: 'ETH_EUR', quantity: 1.23456789 });
      await trading.placed({ orgUserId, symbol: 'BTC_USD', quantity: 0.00000001 });
      const response = await trading.org.signed('GET', `/api/v1/user/${orgUserId}/positions/`);
      expect(response.status).toBe(200);
      expect(response.body.data).toEqual({
        orgUserId,
        positions: [
          { asset: 'BTC', quantity: 0.00000001, updatedAt: expect.stringMatching(ISO_MS) as string },
          { asset: 'ETH', quantity: 1.23456789, updatedAt: expect.stringMatching(ISO_MS) as string },
        ],
      });
      expect(response.text).toContain('"quantity":0.00000001');
      const unknown = await trading.org.signed('GET', '/api/v1/user/nobody/positions/');
      expect(unknown.status).toBe(404);
    });
  });

  describe('exact decimals', () => {
    it('0.1 + 0.2 fills up to an ASSET_EXPOSURE of exactly 0.3, where floats would have refused the second order', async () => {
      expect(0.1 + 0.2).toBeGreaterThan(0.3);
      await trading.policy({ assetExposure: { BTC: '0.3' } });
      const orgUserId = await trading.user();
      expect((await trading.placed({ orgUserId, quantity: 0.1 })).status).toBe('COMPLETED');
      expect((await trading.placed({ orgUserId, quantity: 0.2 })).status).toBe('COMPLETED');
      expect(await trading.holding(orgUserId, 'BTC')).toBe('0.30000000');
      const over = await trading.placed({ orgUserId, quantity: 0.00000001 });
      expect(over).toMatchObject({ status: 'REJECTED', rejectionReason: 'ASSET_EXPOSURE' });
      await trading.policy({ assetExposure: {} });
    });

    it('multiplies 8-decimal quantities and prices exactly, and writes amounts past a double on the wire digit for digit', async () => {
      await setPrice(api, 'ETH_CHF', '12345.6789');
      const orgUserId = await trading.user();
      const small = await trading.order({ orgUserId, symbol: 'ETH_CHF', quantity: 0.12345678 });
      // 0.12345678 * 12345.6789 = 1524.157763907942 -> 1524.15776391; fees 2.28623665 and 0.4801097.
      expect(small.body.data).toMatchObject({
        netExecutedAmount: 1524.15776391,
        commissionAmount: 2.28623665,
        vatAmount: 0.4801097,
        totalExecutedAmount: 1526.92411026,
        averagePrice: 12368.08630729,
        baseAveragePrice: 12345.67890002,
      });

      await setPrice(api, 'ETH_CHF', '98765.4321');
      const large = await trading.order({ orgUserId, symbol: 'ETH_CHF', quantity: 12345.12345678 });
      // 12345.12345678 * 98765.4321 = 1219271452.536722374638: 18 digits, more than a double holds.
      expect(large.text).toContain('"netExecutedAmount":1219271452.53672237,');
      const [row] = await api.rows<{ net_executed_amount: string }>(
        'SELECT net_executed_amount FROM orders WHERE id = $1',
        [large.body.data!.id],
      );
      expect(row!.net_executed_amount).toBe('1219271452.53672237');
      const [event] = await api.rows<{ data: string }>(
        "SELECT data::text AS data FROM events WHERE data->>'id' = $1",
        [String(large.body.data!.id)],
      );
      expect(event!.data).toContain('"netExecutedAmount":1219271452.53672237,');
    });
  });

  describe('amounts read digit for digit, or refused', () => {
    const orderText = (orgUserId: string, amount: string, symbol = 'BTC_EUR') =>
      `{"orgUserId":"${orgUserId}","clientOrderId":"${randomUUID()}","symbol":"${symbol}",` +
      `"side":"BUY","type":"MARKET",${amount}}`;

    it('a quoteQuantity past a double is the amount sent, never the double next to it', async () => {
      const orgUserId = await trading.user();
      const response = await trading.org.bearer<Order>('POST', '/api/v1/orders/', {
        rawBody: orderText(orgUserId, '"quoteQuantity":99999999999999999999999999999.99999999'),
      });
      expect(response.status).toBe(200);
      expect(response.text).toContain('"quoteQuantity":99999999999999999999999999999.99999999,');
      const [row] = await api.rows<{ quote_quantity: string }>(
        'SELECT quote_quantity FROM orders WHERE id = $1',
        [response.body.data!.id],
      );
      expect(row!.quote_quantity).toBe('99999999999999999999999999999.99999999');
    });

    it.each([
      [
        'a 30-digit quantity at 50000 (product past numeric(38,8))',
        '"quantity":123456789012345678901234567890',
      ],
      ['an 18-digit quantity at an 18-digit price', '"quantity":123456789012345678', 'ETH_GBP'],
      ['31 integer digits', '"quantity":1234567890123456789012345678901'],
      ['9 decimals', '"quantity":0.123456789'],
      ['digits a double rounds away', '"quantity":0.100000000000000001'],
    ])('%s is a 400 naming quantity, and nothing is written', async (_name, amount, symbol = 'BTC_EUR') => {
      await setPrice(api, 'ETH_GBP', '123456789012345678');
      await trading.policy({ enabledAssets: ['BTC', 'ETH'] });
      const orgUserId = await trading.user();
      const before = await counts(api);
      const response = await trading.org.bearer('POST', '/api/v1/orders/', {
        rawBody: orderText(orgUserId, amount, symbol),
      });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ code: 400, data: null });
      expect(response.body.error).toMatch(/^Bad Request: quantity (must|is too large)/);
      expect(await counts(api)).toEqual(before);
    });

    it('a quantity whose product fits is filled exactly, 30 integer digits at most', async () => {
      await setPrice(api, 'ETH_GBP', '0.00000001');
      const orgUserId = await trading.user();
      const response = await trading.org.bearer<Order>('POST', '/api/v1/orders/', {
        rawBody: orderText(orgUserId, '"quantity":123456789012345678901234567890', 'ETH_GBP'),
      });
      expect(response.status).toBe(200);
      expect(response.text).toContain('"quantity":123456789012345678901234567890,');
      expect(response.text).toContain('"netExecutedAmount":1234567890123456789012.3456789,');
      expect(await trading.holding(orgUserId, 'ETH')).toBe('123456789012345678901234567890.00000000');
    });
  });

  describe('checks', () => {
    async function rejectedWith(reason: string, input: OrderInput): Promise<void> {
      const before = await counts(api);
      const heldBefore = await trading.holding(input.orgUserId, 'BTC');
      const response = await trading.order(input);
      expect(response.status).toBe(200);
      const order = response.body.data!;
      expect(order).toMatchObject({
        status: 'REJECTED',
        rejectionReason: reason,
        filled: 0,
        netExecutedAmount: 0,
      });
      expect(Object.keys(order)).toEqual(ORDER_FIELDS);
      // The rejected order and its event are stored; no position moved.
      const after = await counts(api);
      expect(after).toEqual({
        ...before,
        orders: before.orders + 1,
        events: before.events + 1,
        jobs: before.jobs + 1,
      });
      expect(await trading.holding(input.orgUserId, 'BTC')).toBe(heldBefore);
      const events = await trading.orderEvents();
      expect(events.at(-1)!.data).toBe(JSON.stringify(order));
    }

    it('USER_NOT_ACTIVE: a PENDING user', async () => {
      await rejectedWith('USER_NOT_ACTIVE', {
        orgUserId: await trading.user({ kyc: false }),
        quantity: 0.01,
      });
    });

    it('KYC_NOT_COMPLETED: an ACTIVE user whose kyc is false', async () => {
      const orgUserId = await trading.user();
      await api.rows('UPDATE users SET kyc = false WHERE org_id = $1 AND org_user_id = $2', [
        trading.org.orgId,
        orgUserId,
      ]);
      await rejectedWith('KYC_NOT_COMPLETED', { orgUserId, quantity: 0.01 });
    });

    it('TNC_NOT_ACCEPTED: tnc false', async () => {
      await rejectedWith('TNC_NOT_ACCEPTED', {
        orgUserId: await trading.user({ tnc: false }),
        quantity: 0.01,
      });
    });

    it('ASSET_NOT_ENABLED: a base asset outside enabledAssets', async () => {
      await setPrice(api, 'SOL_EUR', '150');
      await rejectedWith('ASSET_NOT_ENABLED', {
        orgUserId: await trading.user(),
        symbol: 'SOL_EUR',
        quantity: 1,
      });
    });

    it('ASSET_DISABLED: a pair halted by an ASSET_DISABLE notice, from its start until its end', async () => {
      const orgUserId = await trading.user();
      const [notice] = await api.rows<{ id: string }>(
        "INSERT INTO system_notices (event, entity, message) VALUES ('ASSET_DISABLE', 'BTC_EUR', 'halt') RETURNING id",
      );
      await api.rows('INSERT INTO trading_halts (symbol, notice_id) VALUES ($1, $2)', [
        'BTC_EUR',
        notice!.id,
      ]);
      await rejectedWith('ASSET_DISABLED', { orgUserId, quantity: 0.01 });
      // Another pair of the same asset still trades.
      expect((await trading.placed({ orgUserId, symbol: 'BTC_USD', quantity: 0.01 })).status).toBe(
        'COMPLETED',
      );
      // A halt that has not started yet, then one that has ended, let the pair trade.
      await api.rows(
        "UPDATE trading_halts SET starts_at = now() + interval '1 hour' WHERE symbol = 'BTC_EUR'",
      );
      expect((await trading.placed({ orgUserId, quantity: 0.01 })).status).toBe('COMPLETED');
      await api.rows(
        "UPDATE trading_halts SET starts_at = now() - interval '1 hour', ends_at = now() - interval '1 second' WHERE symbol = 'BTC_EUR'",
      );
      expect((await trading.placed({ orgUserId, quantity: 0.01 })).status).toBe('COMPLETED');
      await api.rows("DELETE FROM trading_halts WHERE symbol = 'BTC_EUR'");
    });

    it('through the operator surface: a price, a policy, an ASSET_DISABLE notice halting the pair, and ASSET_ENABLE lifting it', async () => {
      const operator = new Trading(api, await api.createOrg());
      const admin = (method: string, path: string, body: unknown) => api.admin(method, path, { body });
      expect((await admin('PUT', '/api/v1/admin/prices/ADA_EUR/', { price: 0.45 })).status).toBe(200);
      const policy = await admin('PATCH', `/api/v1/admin/orgs/${operator.org.orgId}/policy/`, {
        enabledAssets: ['ADA'],
        quoteLimit: { EUR: 45 },
      });
      expect(policy.status).toBe(200);
      const orgUserId = await operator.user();
      expect(await operator.placed({ orgUserId, symbol: 'ADA_EUR', quantity: 100 })).toMatchObject({
        status: 'COMPLETED',
        netExecutedAmount: 45,
      });
      expect(await operator.placed({ orgUserId, symbol: 'ADA_EUR', quantity: 100.00000003 })).toMatchObject({
        rejectionReason: 'QUOTE_LIMIT',
      });
      const notice = { entity: 'ADA_EUR', message: 'ADA_EUR is halted' };
      expect(
        (await admin('POST', '/api/v1/admin/notices/', { event: 'ASSET_DISABLE', ...notice })).status,
      ).toBe(200);
      expect(await operator.placed({ orgUserId, symbol: 'ADA_EUR', quantity: 1 })).toMatchObject({
        status: 'REJECTED',
        rejectionReason: 'ASSET_DISABLED',
      });
      expect(
        (await admin('POST', '/api/v1/admin/notices/', { event: 'ASSET_ENABLE', ...notice })).status,
      ).toBe(200);
      expect((await operator.placed({ orgUserId, symbol: 'ADA_EUR', quantity: 1 })).status).toBe('COMPLETED');
    });

    it('PRICE_UNAVAILABLE: an enabled pair without an operator price', async () => {
      await rejectedWith('PRICE_UNAVAILABLE', {
        orgUserId: await trading.user(),
        symbol: 'BTC_GBP',
        quantity: 1,
      });
    });

    it('AMOUNT_TOO_SMALL: a quoteQuantity that buys less than 0.00000001', async () => {
      await rejectedWith('AMOUNT_TOO_SMALL', { orgUserId: await trading.user(), quoteQuantity: 0.0004 });
    });

    it('INSUFFICIENT_HOLDINGS: a SELL beyond the position, by one unit of the last decimal', async () => {
      const orgUserId = await trading.user();
      await trading.placed({ orgUserId, quantity: 0.05 });
      await rejectedWith('INSUFFICIENT_HOLDINGS', { orgUserId, side: 'SELL', quantity: 0.05000001 });
      await rejectedWith('INSUFFICIENT_HOLDINGS', {
        orgUserId: await trading.user(),
        side: 'SELL',
        quantity: 0.01,
      });
    });

    it('checks in order: the first failed check names the order', async () => {
      await setPrice(api, 'SOL_EUR', '150');
      const orgUserId = await trading.user({ tnc: false });
      // tnc false and SOL not enabled: tnc comes first.
      await rejectedWith('TNC_NOT_ACCEPTED', { orgUserId, symbol: 'SOL_EUR', quantity: 1 });
    });

    it('a rejected order is final: its clientOrderId answers the same REJECTED order, even once the cause is gone', async () => {
      const orgUserId = await trading.user({ tnc: false });
      const clientOrderId = randomUUID();
      const first = await trading.placed({ orgUserId, clientOrderId, quantity: 0.01 });
      await trading.org.signed('PATCH', `/api/v1/user/${orgUserId}/`, { body: { tnc: true } });
      const again = await trading.placed({ orgUserId, clientOrderId, quantity: 0.01, via: 'bearer' });
      expect(again).toEqual(first);
      expect(again.rejectionReason).toBe('TNC_NOT_ACCEPTED');
    });

    it('every reason the api gives is a published code', () => {
      expect(ORDER_REJECTION_REASONS).toEqual(
        expect.arrayContaining([
          'QUOTE_LIMIT',
          'TOTAL_LIMIT',
          'TOTAL_EXPOSURE',
          'ASSET_EXPOSURE',
          'VENUE_ERROR',
        ]),
      );
    });
  });

  describe('limits at, just under and just over their value', () => {
    afterEach(async () => {
      await trading.policy({ quoteLimit: {}, totalLimit: {}, totalExposure: {}, assetExposure: {} });
    });

    const cases = [
      ['at', 0, 'COMPLETED'],
      ['just under', -0.00000001, 'COMPLETED'],
      ['just over', 0.00000001, 'REJECTED'],
    ] as const;

    it.each(cases)('QUOTE_LIMIT per order: an order worth the limit %s', async (_, delta, status) => {
      await trading.policy({ quoteLimit: { EUR: '1000' } });
      const order = await trading.placed({ orgUserId: await trading.user(), quoteQuantity: 1000 + delta });
      expect(order.status).toBe(status);
      if (status === 'REJECTED') expect(order.rejectionReason).toBe('QUOTE_LIMIT');
    });

    it('QUOTE_LIMIT holds a quantity order to its value at the price, and only in its quote currency', async () => {
      await trading.policy({ quoteLimit: { EUR: '5000' } });
      const orgUserId = await trading.user();
      expect((await trading.placed({ orgUserId, quantity: 0.1 })).status).toBe('COMPLETED');
      expect(await trading.placed({ orgUserId, quantity: 0.10000001 })).toMatchObject({
        status: 'REJECTED',
        rejectionReason: 'QUOTE_LIMIT',
      });
      // 0.2 BTC_USD is worth 11000 USD: no USD limit.
      expect((await trading.placed({ orgUserId, symbol: 'BTC_USD', quantity: 0.2 })).status).toBe(
        'COMPLETED',
      );
    });

    it.each(cases)('TOTAL_LIMIT per day: the day total reaching the limit %s', async (_, delta, status) => {
      await trading.policy({ totalLimit: { EUR: '3000' } });
      const orgUserId = await trading.user();
      await trading.placed({ orgUserId, quoteQuantity: 1000 });
      await trading.placed({ orgUserId, side: 'SELL', quantity: 0.01 }); // 500 EUR: SELLs count too
      const order = await trading.placed({ orgUserId, quoteQuantity: 1500 + delta });
      expect(order.status).toBe(status);
      if (status === 'REJECTED') expect(order.rejectionReason).toBe('TOTAL_LIMIT');
    });

    it("TOTAL_LIMIT counts today's COMPLETED orders only: not rejected ones, not yesterday's", async () => {
      await trading.policy({ totalLimit: { EUR: '1000' } });
      const orgUserId = await trading.user();
      const yesterday = await trading.placed({ orgUserId, quoteQuantity: 1000 });
      await api.rows(
        "UPDATE orders SET created_at = date_trunc('day', now(), 'UTC') - interval '1 millisecond' WHERE id = $1",
        [yesterday.id],
      );
      expect(await trading.placed({ orgUserId, quoteQuantity: 1000.01 })).toMatchObject({
        rejectionReason: 'TOTAL_LIMIT',
      });
      expect((await trading.placed({ orgUserId, quoteQuantity: 1000 })).status).toBe('COMPLETED');
      expect(await trading.placed({ orgUserId, quoteQuantity: 0.01 })).toMatchObject({
        rejectionReason: 'TOTAL_LIMIT',
      });
    });

    it.each(cases)(
      'TOTAL_EXPOSURE: positions at current prices plus the order reaching the limit %s',
      async (_, delta, status) => {
        await trading.policy({ totalExposure: { EUR: '10000' } });
        const orgUserId = await trading.user();
        await trading.placed({ orgUserId, quantity: 0.1 }); // 5000 EUR of BTC
        await trading.placed({ orgUserId, symbol: 'ETH_EUR', quantity: 1 }); // 2500 EUR of ETH
        const order = await trading.placed({ orgUserId, symbol: 'ETH_EUR', quoteQuantity: 2500 + delta });
        expect(order.status).toBe(status);
        if (status === 'REJECTED') expect(order.rejectionReason).toBe('TOTAL_EXPOSURE');
      },
    );

    it('TOTAL_EXPOSURE values positions at the current price, refuses what it cannot value, and never stops a SELL', async () => {
      const orgUserId = await trading.user();
      await trading.placed({ orgUserId, quantity: 0.1 });
      await trading.policy({ totalExposure: { EUR: '6000' } });
      await setPrice(api, 'BTC_EUR', '60000'); // the 0.1 BTC is now worth 6000
      expect(await trading.placed({ orgUserId, symbol: 'ETH_EUR', quoteQuantity: 0.01 })).toMatchObject({
        rejectionReason: 'TOTAL_EXPOSURE',
      });
      expect((await trading.placed({ orgUserId, side: 'SELL', quantity: 0.05 })).status).toBe('COMPLETED');
      expect((await trading.placed({ orgUserId, symbol: 'ETH_EUR', quoteQuantity: 3000 })).status).toBe(
        'COMPLETED',
      );
      await setPrice(api, 'BTC_EUR', '50000');
      // A position in an asset with no EUR price cannot be valued in EUR.
      await setPrice(api, 'DOT_USD', '5');
      await trading.policy({ enabledAssets: ['BTC', 'ETH', 'DOT'] });
      const other = await trading.user();
      await trading.placed({ orgUserId: other, symbol: 'DOT_USD', quantity: 1 });
      expect(await trading.placed({ orgUserId: other, quoteQuantity: 1 })).toMatchObject({
        rejectionReason: 'TOTAL_EXPOSURE',
      });
      await trading.policy({ enabledAssets: ['BTC', 'ETH'] });
    });

    it.each(cases)(
      'ASSET_EXPOSURE: the holding plus the order reaching the limit %s',
      async (_, delta, status) => {
        await trading.policy({ assetExposure: { BTC: '0.5' } });
        const orgUserId = await trading.user();
        await trading.placed({ orgUserId, quantity: 0.2 });
        const order = await trading.placed({ orgUserId, quantity: 0.3 + delta });
        expect(order.status).toBe(status);
        if (status === 'REJECTED') expect(order.rejectionReason).toBe('ASSET_EXPOSURE');
        expect(await trading.holding(orgUserId, 'BTC')).toBe(
          status === 'COMPLETED' ? (0.5 + delta).toFixed(8) : '0.20000000',
        );
      },
    );

    it("one user's concurrent orders never breach a limit together", async () => {
      await trading.policy({ assetExposure: { BTC: '1' }, totalLimit: { EUR: '1000000' } });
      const orgUserId = await trading.user();
      const orders = await Promise.all(
        Array.from({ length: 10 }, () => trading.placed({ orgUserId, quantity: 0.3 })),
      );
      const completed = orders.filter((order) => order.status === 'COMPLETED');
      expect(completed).toHaveLength(3);
      expect(orders.filter((order) => order.rejectionReason === 'ASSET_EXPOSURE')).toHaveLength(7);
      expect(await trading.holding(orgUserId, 'BTC')).toBe('0.90000000');
    });
  });

  describe('idempotency (clientOrderId)', () => {
    it('the same clientOrderId with the same parameters answers the same order and writes nothing more', async () => {
      const orgUserId = await trading.user();
      const clientOrderId = randomUUID();
      const first = await trading.placed({ orgUserId, clientOrderId, quantity: 0.01 });
      const before = await counts(api);
      const again = await trading.order({ orgUserId, clientOrderId, quantity: 0.01, via: 'bearer' });
      expect(again.status).toBe(200);
      expect(again.body.data).toEqual(first);
      // Upper-case spelling of the same UUID is the same key.
      const upper = await trading.placed({
        orgUserId,
        clientOrderId: clientOrderId.toUpperCase(),
        quantity: 0.01,
      });
      expect(upper).toEqual(first);
      expect(await counts(api)).toEqual(before);
      expect(await trading.holding(orgUserId, 'BTC')).toBe('0.01000000');
    });

    it.each([
      ['quantity', { quantity: 0.02 }],
      ['quoteQuantity', { quantity: undefined, quoteQuantity: 500 }],
      ['side', { side: 'SELL' as const }],
      ['symbol', { symbol: 'BTC_USD' }],
    ])(
      'the same clientOrderId with another %s is a 409 naming it, and nothing is written',
      async (field, change) => {
        const orgUserId = await trading.user();
        const clientOrderId = randomUUID();
        await trading.placed({ orgUserId, clientOrderId, quantity: 0.01 });
        const before = await counts(api);
        const response = await trading.order({ orgUserId, clientOrderId, quantity: 0.01, ...change });
        expect(response.status).toBe(409);
        expect(response.body).toEqual({
          code: 409,
          data: null,
          error: `Conflict: clientOrderId ${clientOrderId} was used for another order (${field} differs)`,
        });
        expect(await counts(api)).toEqual(before);
      },
    );

    it('the same clientOrderId for another user of the organisation is a 409', async () => {
      const clientOrderId = randomUUID();
      await trading.placed({ orgUserId: await trading.user(), clientOrderId, quantity: 0.01 });
      const response = await trading.order({
        orgUserId: await trading.user(),
        clientOrderId,
        quantity: 0.01,
      });
      expect(response.status).toBe(409);
      expect(response.body.error).toContain('(orgUserId differs)');
    });

    it('ten concurrent requests with one new clientOrderId place one order, and all ten answer it', async () => {
      const orgUserId = await trading.user();
      const clientOrderId = randomUUID();
      const before = await counts(api);
      const answers = await Promise.all(
        Array.from({ length: 10 }, () =>
          trading.order({ orgUserId, clientOrderId, quantity: 0.01, via: 'bearer' }),
        ),
      );
      expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(200));
      expect(new Set(answers.map((answer) => answer.body.data!.id)).size).toBe(1);
      const after = await counts(api);
      expect(after.orders - before.orders).toBe(1);
      expect(after.events - before.events).toBe(1);
      expect(await trading.holding(orgUserId, 'BTC')).toBe('0.01000000');
    });
  });

  describe('validation', () => {
    const valid = {
      orgUserId: 'someone',
      clientOrderId: '3b241101-e2bb-4255-8caf-4136c566a962',
      symbol: 'BTC_EUR',
      side: 'BUY',
      type: 'MARKET',
      quantity: 1,
    };
    const bad: [string, Record<string, unknown>][] = [
      ['orgUserId', { orgUserId: undefined }],
      ['orgUserId', { orgUserId: 'has space' }],
      ['clientOrderId', { clientOrderId: undefined }],
      ['clientOrderId', { clientOrderId: 'order-1' }],
      ['symbol', { symbol: 'BTCEUR' }],
      ['symbol', { symbol: 'btc_eur' }],
      ['side', { side: 'HOLD' }],
      ['type', { type: 'LIMIT' }],
      ['quantity', { quantity: 0 }],
      ['quantity', { quantity: -1 }],
      ['quantity', { quantity: 0.000000001 }],
      ['quantity', { quantity: '1' }],
      ['quantity', { quantity: 1e31 }],
      ['quoteQuantity', { quantity: undefined, quoteQuantity: 1.123456789 }],
      ['quantity and quoteQuantity', { quoteQuantity: 5 }],
      ['quantity and quoteQuantity', { quantity: undefined }],
      ['unexpected', { unexpected: true }],
    ];

    it.each(bad)('a bad %s is a 400 naming it, and nothing is written', async (field, change) => {
      const before = await counts(api);
      const response = await trading.org.signed('POST', '/api/v1/orders/', { body: { ...valid, ...change } });
      expect(response.status).toBe(400);
      expect(response.body.data).toBeNull();
      expect(response.body.error).toMatch(/^Bad Request: /);
      expect(response.body.error).toContain(field);
      expect(await counts(api)).toEqual(before);
    });

    it('an unknown user is a 404 and nothing is written', async () => {
      const before = await counts(api);
      const response = await trading.order({ orgUserId: 'nobody', quantity: 1 });
      expect(response.status).toBe(404);
      expect(response.body.error).toBe('Not Found: no user with orgUserId "nobody"');
      expect(await counts(api)).toEqual(before);
    });
  });

  describe('reading orders', () => {
    it('gets one order by id, and 404s an unknown or malformed id', async () => {
      const order = await trading.placed({ orgUserId: await trading.user(), quantity: 0.01 });
      const response = await trading.org.signed<Order>('GET', `/api/v1/orders/${order.id}/`);
      expect(response.status).toBe(200);
      expect(response.body.data).toEqual(order);
      for (const id of ['999999999', 'abc', '1.5']) {
        expect((await trading.org.signed('GET', `/api/v1/orders/${id}/`)).status).toBe(404);
      }
    });

    it('lists with filters and cursor pagination, oldest first', async () => {
      const orgUserId = await trading.user();
      const placed = [];
      for (let i = 0; i < 5; i++) placed.push(await trading.placed({ orgUserId, quantity: 0.01 }));
      placed.push(await trading.placed({ orgUserId, side: 'SELL', quantity: 1 })); // REJECTED
      const seen: Order[] = [];
      let cursor: string | null = null;
      do {
        const query: string = `?orgUserId=${orgUserId}&side=BUY&limit=2${cursor ? `&cursor=${cursor}` : ''}`;
        const page = await trading.org.signed<{ items: Order[]; nextCursor: string | null }>(
          'GET',
          `/api/v1/orders/${query}`,
        );
        expect(page.status).toBe(200);
        seen.push(...page.body.data!.items);
        cursor = page.body.data!.nextCursor;
      } while (cursor);
      expect(seen).toEqual(placed.slice(0, 5));
      const rejected = await trading.org.signed<{ items: Order[] }>(
        'GET',
        `/api/v1/orders/?orgUserId=${orgUserId}&status=REJECTED`,
      );
      expect(rejected.body.data!.items).toEqual([placed[5]]);
      const byClient = await trading.org.signed<{ items: Order[] }>(
        'GET',
        `/api/v1/orders/?clientOrderId=${placed[2]!.clientOrderId}`,
      );
      expect(byClient.body.data!.items).toEqual([placed[2]]);
      const bad = await trading.org.signed('GET', '/api/v1/orders/?status=OPEN');
      expect(bad.status).toBe(400);
      expect(bad.body.error).toContain('status');
    });
  });

  describe('credentials and tenancy', () => {
    it('a bearer token with BASE_MODULE:READ reads orders but cannot place one (insufficient scope)', async () => {
      const orgUserId = await trading.user();
      const order = await trading.placed({ orgUserId, quantity: 0.01 });
      const read = await trading.org.bearer('GET', `/api/v1/orders/${order.id}/`, {
        scopes: ['BASE_MODULE:READ'],
      });
      expect(read.status).toBe(200);
      const write = await trading.org.bearer('POST', '/api/v1/orders/', {
        scopes: ['BASE_MODULE:READ', 'MANAGE_USERS:READWRITE'],
        body: {
          orgUserId,
          clientOrderId: randomUUID(),
          symbol: 'BTC_EUR',
          side: 'BUY',
          type: 'MARKET',
          quantity: 0.01,
        },
      });
      expect(write.status).toBe(401);
      expect(write.body).toEqual({
        message: expect.stringContaining('not authorized') as string,
        status: 401,
      });
      const placed = await trading.org.bearer('POST', '/api/v1/orders/', {
        scopes: ['BASE_MODULE:WRITE'],
        body: {
          orgUserId,
          clientOrderId: randomUUID(),
          symbol: 'BTC_EUR',
          side: 'BUY',
          type: 'MARKET',
          quantity: 0.01,
        },
      });
      expect(placed.status).toBe(200);
      expect(placed.body.data).toMatchObject({ status: 'COMPLETED' });
    });

    it('another organisation sees none of it: orders, lists, positions, users, and its clientOrderIds are its own', async () => {
      const other = new Trading(api, await api.createOrg());
      await other.policy({ enabledAssets: ['BTC'] });
      const orgUserId = await trading.user();
      const clientOrderId = randomUUID();
      const order = await trading.placed({ orgUserId, clientOrderId, quantity: 0.01 });
      for (const call of [other.org.signed.bind(other.org), other.org.bearer.bind(other.org)]) {
        expect((await call('GET', `/api/v1/orders/${order.id}/`)).status).toBe(404);
        const list = await call<{ items: Order[] }>('GET', `/api/v1/orders/?clientOrderId=${clientOrderId}`);
        expect(list.body.data!.items).toEqual([]);
        expect((await call('GET', `/api/v1/user/${orgUserId}/positions/`)).status).toBe(404);
      }
      // Placing for the first organisation's user: that user does not exist in the other one.
      expect((await other.order({ orgUserId, quantity: 0.01 })).status).toBe(404);
      // The same clientOrderId is free in the other organisation.
      const theirs = await other.placed({ orgUserId: await other.user(), clientOrderId, quantity: 0.01 });
      expect(theirs).toMatchObject({ status: 'COMPLETED', orgId: other.org.orgId, clientOrderId });
      expect(theirs.id).not.toBe(order.id);
      const all = await other.org.signed<{ items: Order[] }>('GET', '/api/v1/orders/?limit=100');
      expect(all.body.data!.items.map((item) => item.orgId)).toEqual([other.org.orgId]);
    });
  });
});

describe('orders on a venue that fails', () => {
  let api: ApiFixture;

  beforeAll(async () => {
    // A venue we control, standing in for a broker's adapter that errors.
    const failing: Venue = { execute: () => Promise.reject(new Error('venue unreachable')) };
    api = await ApiFixture.start({}, { venue: failing });
  });

  afterAll(async () => {
    await api.close();
  });

  it('stores a FAILED order with VENUE_ERROR and its event, and moves no position', async () => {
    const trading = new Trading(api, await api.createOrg());
    await setPrice(api, 'BTC_EUR', '50000');
    await trading.policy({ enabledAssets: ['BTC'] });
    const orgUserId = await trading.user();
    const order = await trading.placed({ orgUserId, quantity: 0.01 });
    expect(order).toMatchObject({
      status: 'FAILED',
      rejectionReason: 'VENUE_ERROR',
      filled: 0,
      estimatedPrice: 50000,
    });
    expect(await trading.holding(orgUserId, 'BTC')).toBeUndefined();
    const events = await trading.orderEvents();
    expect(events.map((event) => JSON.parse(event.data) as Order)).toEqual([order]);
  });
});
