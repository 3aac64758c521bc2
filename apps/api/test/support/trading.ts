// An organisation trading through the api, for the order lifecycle tests: users, orders of every type over
// signed HTTP, the operator's prices, levels and notices, and what was stored (orders, fills, levels,
// positions, Orders events).
import { randomUUID } from 'node:crypto';

import type { Order } from '@svc/protocol';

import type { ApiFixture, OrgSession, TestResponse } from './app-fixture.js';

export interface OrderBody {
  orgUserId: string;
  symbol?: string;
  side?: 'BUY' | 'SELL';
  type?: 'MARKET' | 'LIMIT' | 'STOP' | 'STOP_LIMIT';
  quantity?: number;
  quoteQuantity?: number;
  limitPrice?: number;
  stopPrice?: number;
  timeInForce?: string;
  expireAt?: string;
  clientOrderId?: string;
}

export interface FillRow {
  price: string;
  quantity: string;
  net_amount: string;
  commission_amount: string;
  vat_amount: string;
  total_amount: string;
}

export class Trading {
  constructor(
    readonly api: ApiFixture,
    readonly org: OrgSession,
  ) {}

  static async start(api: ApiFixture): Promise<Trading> {
    const trading = new Trading(api, await api.createOrg());
    await trading.policy({ enabledAssets: ['BTC', 'ETH'], commissionRate: '0.0015', vatRate: '0.21' });
    return trading;
  }

  /** A new ACTIVE user with kyc and tnc. */
  async user(): Promise<string> {
    const orgUserId = `u-${randomUUID()}`;
    const response = await this.org.signed('POST', '/api/v1/user/', {
      body: { orgUserId, kyc: true, tnc: true },
    });
    expect(response.status).toBe(200);
    return orgUserId;
  }

  /** A user holding `quantity` of `asset`, as stored (a position without a buy). */
  async holder(asset: string, quantity: string): Promise<string> {
    const orgUserId = await this.user();
    await this.api.rows(
      `INSERT INTO positions (user_id, asset, org_id, quantity)
       SELECT id, $3, org_id, $4 FROM users WHERE org_id = $1 AND org_user_id = $2`,
      [this.org.orgId, orgUserId, asset, quantity],
    );
    return orgUserId;
  }

  order(body: OrderBody): Promise<TestResponse<Order>> {
    return this.org.signed<Order>('POST', '/api/v1/orders/', {
      body: {
        clientOrderId: randomUUID(),
        symbol: 'BTC_EUR',
        side: 'BUY',
        type: 'LIMIT',
        ...body,
      },
    });
  }

  /** Places an order that must answer 200; returns its record. */
  async placed(body: OrderBody): Promise<Order> {
    const response = await this.order(body);
    expect(response.body.error).toBeNull();
    expect(response.status).toBe(200);
    return response.body.data!;
  }

  async get(id: number): Promise<Order> {
    const response = await this.org.bearer<Order>('GET', `/api/v1/orders/${id}/`);
    expect(response.status).toBe(200);
    return response.body.data!;
  }

  async policy(fields: Record<string, unknown>): Promise<void> {
    await this.api.rows('UPDATE organisations SET policy = policy || $2::jsonb WHERE id = $1', [
      this.org.orgId,
      JSON.stringify(fields),
    ]);
  }

  /** The operator sets the pair's price over HTTP (which sweeps the pair). */
  async price(symbol: string, price: number): Promise<void> {
    const response = await this.api.admin('PUT', `/api/v1/admin/prices/${symbol}/`, { body: { price } });
    expect(response.status).toBe(200);
  }

  /** The operator sets the pair's levels over HTTP (which sweeps the pair). */
  async levels(
    symbol: string,
    asks: { price: number; size: number }[],
    bids: { price: number; size: number }[] = [],
  ): Promise<void> {
    const response = await this.api.admin('PUT', `/api/v1/admin/prices/${symbol}/levels/`, {
      body: { asks, bids },
    });
    expect(response.body).toMatchObject({ error: null });
  }

  async holding(orgUserId: string, asset: string): Promise<string | undefined> {
    const [row] = await this.api.rows<{ quantity: string }>(
      `SELECT p.quantity FROM positions p JOIN users u ON u.id = p.user_id
        WHERE u.org_id = $1 AND u.org_user_id = $2 AND p.asset = $3`,
      [this.org.orgId, orgUserId, asset],
    );
    return row?.quantity;
  }

  async fills(orderId: number): Promise<FillRow[]> {
    return this.api.rows<FillRow>(
      `SELECT price::text, quantity::text, net_amount::text, commission_amount::text, vat_amount::text,
              total_amount::text FROM order_fills WHERE order_id = $1 ORDER BY id`,
      [orderId],
    );
  }

  async levelSizes(symbol: string): Promise<Record<string, string>> {
    const rows = await this.api.rows<{ side: string; price: string; size: string }>(
      'SELECT side, price::text, size::text FROM price_levels WHERE symbol = $1 ORDER BY side, price',
      [symbol],
    );
    return Object.fromEntries(rows.map((row) => [`${row.side} ${row.price}`, row.size]));
  }

  /** The Orders events of one order, oldest first: the records they carry. */
  async events(orderId: number): Promise<Order[]> {
    const rows = await this.api.rows<{ data: string }>(
      `SELECT data::text AS data FROM events
        WHERE org_id = $1 AND entity = 'Orders' AND (data->>'id')::bigint = $2 ORDER BY created_at, id`,
      [this.org.orgId, orderId],
    );
    return rows.map((row) => JSON.parse(row.data) as Order);
  }
}
