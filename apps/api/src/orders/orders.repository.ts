// Every query of orders and positions. The statements of an order's transaction are plain SQL, each fetching
// all it can in one round trip: through TypeORM's builders the order route cost about 0.05 ms of CPU more per
// row written (docs/decisions.md, "Request path: SQL on the hot tables": the signed order and bearer read
// targets); they go on the transaction's pg connection (@svc/db's `query`), past TypeORM's query wrapper. A
// single order by id or clientOrderId too: the bearer read (GET /api/v1/orders/{id}/) is that one statement
// after the token check, and the find builder builds the query and maps the row anew on every call; by id it
// is also prepared, on the pool's connection (@svc/db's query). Lists go through TypeORM.
// Style: SQL for positions (and the users, prices, trading_halts and organisations rows the order's transaction reads),
// and for orders on the order's transaction and the read by id or clientOrderId; TypeORM for the orders
// list (the shared keyset page), on no measured path.
import { Injectable } from '@nestjs/common';
import { Order, type OrgPolicy, query, type Statement } from '@svc/db';
import type { OrderSide, UserStatus } from '@svc/protocol';
import { DataSource, type EntityManager, type FindOptionsWhere } from 'typeorm';

import { pairOf } from '../common/assets.js';
import { Dec } from '../common/decimal.js';
import type { TimeRange } from '../common/export-range.js';
import { findPage, type Keyset, type Page, type PageOrder, ROW_ID } from '../common/pagination.js';
import type { ListOrdersQuery } from './dto/list-orders.query.js';
import { holdingsValue, type OrderRequest, type TradingFacts } from './order-math.js';
import { type OpenHold, reservationsOf } from './reservations.js';

const BY_ID: Keyset<Order, 'id'> = { column: 'id', key: ROW_ID };

/** The user as the order's transaction locked it, with the organisation's policy. */
export interface LockedUser {
  readonly id: string;
  readonly user_status: UserStatus;
  readonly kyc: boolean;
  readonly tnc: boolean;
  readonly policy: OrgPolicy;
  /** The order already placed with this clientOrderId, if any. */
  readonly existing_order_id: string | null;
}

/** The row of READ_FACTS. */
interface FactsRow {
  readonly mark_price: string | null;
  readonly has_levels: boolean;
  readonly halted: boolean;
  readonly holding: string | null;
  readonly traded_today: string | null;
  /** [asset, quantity, price or null] per position held, as text. */
  readonly holdings: [string, string, string | null][] | null;
  /** [side, symbol, remaining, hold price, commission rate, VAT rate] per open order, as text. */
  readonly open_orders: [OrderSide, string, string, string, string, string][] | null;
}

// The user row is locked, so one user's orders are checked and filled one at a time and never breach a
// limit together; the organisation's policy is read in the same statement. The existing order of this
// clientOrderId is looked up too, so a retry costs no extra round trip.
const LOCK_USER = `
  SELECT u.id, u.user_status, u.kyc, u.tnc, o.policy,
         (SELECT id FROM orders WHERE org_id = $1 AND client_order_id = $3) AS existing_order_id
    FROM users u JOIN organisations o ON o.id = u.org_id
   WHERE u.org_id = $1 AND u.org_user_id = $2
     FOR UPDATE OF u`;

// Read after the lock is held. The day's total and the valuation are computed only when a limit needs
// them ($5, $6). Amounts come back as text: json numbers would pass through floats.
const READ_FACTS = `
  SELECT
    (SELECT price FROM prices WHERE symbol = $1) AS mark_price,
    EXISTS (SELECT 1 FROM price_levels WHERE symbol = $1) AS has_levels,
    EXISTS (SELECT 1 FROM trading_halts h
             WHERE h.symbol = $1 AND (h.starts_at IS NULL OR h.starts_at <= now())
               AND (h.ends_at IS NULL OR h.ends_at > now())) AS halted,
    (SELECT quantity FROM positions WHERE user_id = $2 AND asset = $3) AS holding,
    CASE WHEN $5::boolean THEN
      (SELECT coalesce(sum(net_executed_amount), 0) FROM orders
        WHERE user_id = $2 AND filled > 0 AND commission_asset = $4
          AND created_at >= date_trunc('day', now(), 'UTC'))
    END AS traded_today,
    CASE WHEN $6::boolean THEN
      (SELECT json_agg(json_build_array(p.asset, p.quantity::text, pr.price::text))
         FROM positions p LEFT JOIN prices pr ON pr.symbol = p.asset || '_' || $4
        WHERE p.user_id = $2 AND p.quantity > 0)
    END AS holdings,
    (SELECT json_agg(json_build_array(side, symbol, (quantity - filled)::text,
                                      coalesce(limit_price, stop_price)::text, commission_rate::text,
                                      vat_rate::text))
       FROM orders WHERE user_id = $2 AND status IN ('PENDING', 'PARTIALLY_FILLED')) AS open_orders`;

/** The values of READ_FACTS: the day's total and the valuation only when a limit needs them. */
function readFactsValues(user: LockedUser, request: OrderRequest): unknown[] {
  const { policy } = user;
  return [
    request.symbol,
    user.id,
    request.base,
    request.quote,
    policy.totalLimit[request.quote] !== undefined,
    request.side === 'BUY' && policy.totalExposure[request.quote] !== undefined,
  ];
}

/** What the checks look at, from the locked user and the facts row. */
function tradingFacts(user: LockedUser, row: FactsRow, request: OrderRequest): TradingFacts {
  return {
    userStatus: user.user_status,
    kyc: user.kyc,
    tnc: user.tnc,
    policy: user.policy,
    halted: row.halted,
    markPrice: row.mark_price === null ? null : new Dec(row.mark_price),
    hasLevels: row.has_levels,
    holding: new Dec(row.holding ?? 0),
    tradedToday: new Dec(row.traded_today ?? 0),
    holdingsValue: holdingsValue(row.holdings ?? []),
    reserved: reservationsOf((row.open_orders ?? []).map(openHold), request.base, request.quote),
  };
}

/** An open order of READ_FACTS as the limits see it. */
export function openHold([side, symbol, remaining, price, commissionRate, vatRate]: [
  OrderSide,
  string,
  string,
  string,
  string,
  string,
]): OpenHold {
  const { base, quote } = pairOf(symbol);
  return {
    side,
    base,
    quote,
    remaining: new Dec(remaining),
    price: new Dec(price),
    rates: { commissionRate, vatRate },
  };
}

const INSERT_ORDER = `
  INSERT INTO orders (org_id, user_id, org_user_id, client_order_id, symbol, side, type, amount_field,
                      quantity, quote_quantity, filled, status, price, average_price, estimated_price,
                      base_average_price, commission_rate, vat_rate, commission_amount, vat_amount,
                      net_executed_amount, total_executed_amount, commission_asset, rejection_reason,
                      time_in_force, limit_price, stop_price, triggered_at, expire_at, cancel_reason, replaces)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21,
          $22, $23, $24, $25, $26, $27, $28, $29, $30, $31)
  RETURNING id, created_at, updated_at`;

/** The values of INSERT_ORDER for `order`, in its column order. */
function insertOrderValues(order: Omit<Order, 'id' | 'createdAt' | 'updatedAt'>): unknown[] {
  return [
    order.orgId,
    order.userId,
    order.orgUserId,
    order.clientOrderId,
    order.symbol,
    order.side,
    order.type,
    order.amountField,
    order.quantity,
    order.quoteQuantity,
    order.filled,
    order.status,
    order.price,
    order.averagePrice,
    order.estimatedPrice,
    order.baseAveragePrice,
    order.commissionRate,
    order.vatRate,
    order.commissionAmount,
    order.vatAmount,
    order.netExecutedAmount,
    order.totalExecutedAmount,
    order.commissionAsset,
    order.rejectionReason,
    order.timeInForce,
    order.limitPrice,
    order.stopPrice,
    order.triggeredAt,
    order.expireAt,
    order.cancelReason,
    order.replaces,
  ];
}

@Injectable()
export class OrdersRepository {
  /** SELECT of every column of the entity, named as its properties: a row as TypeORM would load it. */
  private readonly selectOrder: string;
  private readonly selectById: Statement;

  constructor(private readonly dataSource: DataSource) {
    const columns = new Map(
      dataSource.getMetadata(Order).columns.map((column) => [column.databaseName, column.propertyName]),
    );
    const list = [...columns].map(([name, property]) => `${name} AS "${property}"`).join(', ');
    this.selectOrder = `SELECT ${list} FROM orders`;
    this.selectById = { name: 'orders-by-id', text: `${this.selectOrder} WHERE org_id = $1 AND id = $2` };
  }

  /** Locks the user for the order's transaction; null when the organisation has no such user. */
  async lockUser(manager: EntityManager, orgId: number, request: OrderRequest): Promise<LockedUser | null> {
    const [user] = await query<LockedUser>(manager, LOCK_USER, [
      orgId,
      request.orgUserId,
      request.clientOrderId,
    ]);
    return user ?? null;
  }

  /** What the checks look at, read with the user locked. */
  async readFacts(manager: EntityManager, user: LockedUser, request: OrderRequest): Promise<TradingFacts> {
    const [row] = await query<FactsRow>(manager, READ_FACTS, readFactsValues(user, request));
    if (!row) throw new Error('the facts query returned no row');
    return tradingFacts(user, row, request);
  }

  /** Inserts the order; fills in its id and timestamps. */
  async insert(manager: EntityManager, order: Order): Promise<Order> {
    const [row] = await query<{ id: string; created_at: Date; updated_at: Date }>(
      manager,
      INSERT_ORDER,
      insertOrderValues(order),
    );
    if (!row) throw new Error('INSERT INTO orders returned no row');
    return Object.assign(order, { id: row.id, createdAt: row.created_at, updatedAt: row.updated_at });
  }

  findByClientOrderId(manager: EntityManager, orgId: number, clientOrderId: string): Promise<Order | null> {
    return this.findOne(manager, 'client_order_id', orgId, clientOrderId);
  }

  /**
   * One order of the organisation by id or clientOrderId, locked for the rest of the transaction: a cancel or
   * a replace waits for a sweep deciding it, and then sees what the sweep did.
   */
  lock(
    manager: EntityManager,
    orgId: number,
    key: { id: string } | { clientOrderId: string },
  ): Promise<Order | null> {
    return 'id' in key
      ? this.findOne(manager, 'id', orgId, key.id, true)
      : this.findOne(manager, 'client_order_id', orgId, key.clientOrderId, true);
  }

  /** The user's open orders, oldest first, locked. */
  async lockOpen(manager: EntityManager, orgId: number, orgUserId: string): Promise<Order[]> {
    const rows = await manager.query<Order[]>(
      `${this.selectOrder} WHERE org_id = $1 AND org_user_id = $2 AND status IN ('PENDING', 'PARTIALLY_FILLED')
        ORDER BY id FOR UPDATE`,
      [orgId, orgUserId],
    );
    return rows.map((row) => Object.assign(new Order(), row));
  }

  /**
   * The orders CANCELLED with `reason`, their other columns as they are: one statement that writes only what
   * a cancel changes. Answers the time written as their updatedAt.
   */
  async cancel(manager: EntityManager, ids: readonly string[], reason: string): Promise<Date> {
    const [row] = await query<{ updated_at: Date }>(
      manager,
      `UPDATE orders SET status = 'CANCELLED', cancel_reason = $2, updated_at = now()
        WHERE id = ANY($1::bigint[]) RETURNING updated_at`,
      [ids, reason],
    );
    if (!row) throw new Error('UPDATE orders returned no row');
    return row.updated_at;
  }

  /** Whether the organisation has a user `orgUserId`. */
  async userExists(orgId: number, orgUserId: string): Promise<boolean> {
    const rows = await query(this.dataSource, 'SELECT 1 FROM users WHERE org_id = $1 AND org_user_id = $2', [
      orgId,
      orgUserId,
    ]);
    return rows.length > 0;
  }

  /**
   * The bearer read's one statement: on a pool connection through @svc/db's `query` (not TypeORM's query
   * wrapper), prepared once per connection.
   */
  async findById(orgId: number, id: string): Promise<Order | null> {
    const [row] = await query<Order>(this.dataSource, this.selectById, [orgId, id]);
    return row ? Object.assign(new Order(), row) : null;
  }

  /** One order of the organisation by a unique column, as SQL: the bearer read's one statement. */
  private async findOne(
    manager: EntityManager,
    column: 'id' | 'client_order_id',
    orgId: number,
    value: string,
    forUpdate = false,
  ): Promise<Order | null> {
    const lock = forUpdate ? ' FOR UPDATE' : '';
    const [row] = await manager.query<Order[]>(
      `${this.selectOrder} WHERE org_id = $1 AND ${column} = $2${lock}`,
      [orgId, value],
    );
    return row ? Object.assign(new Order(), row) : null;
  }

  list(orgId: number, query: ListOrdersQuery, order?: PageOrder): Promise<Page<Order>> {
    const where: FindOptionsWhere<Order> = { orgId };
    if (query.orgUserId !== undefined) where.orgUserId = query.orgUserId;
    if (query.symbol !== undefined) where.symbol = query.symbol;
    if (query.side !== undefined) where.side = query.side;
    if (query.status !== undefined) where.status = query.status;
    if (query.clientOrderId !== undefined) where.clientOrderId = query.clientOrderId;
    return findPage(this.dataSource.getRepository(Order), where, BY_ID, query, order);
  }

  /**
   * The export's batch (docs/dashboard.md#exports): the organisation's orders created in the range, oldest
   * first, after `after`'s (createdAt, id), on orders_org_created.
   */
  async exportBatch(
    orgId: number,
    range: TimeRange,
    after: Pick<Order, 'createdAt' | 'id'> | undefined,
    limit: number,
  ): Promise<Order[]> {
    const rows = await query<Order>(
      this.dataSource,
      `${this.selectOrder} WHERE org_id = $1 AND created_at >= $2 AND created_at < $3
          AND ($4::timestamptz IS NULL OR (created_at, id) > ($4::timestamptz, $5::bigint))
        ORDER BY created_at, id LIMIT $6`,
      [orgId, range.since, range.until, after?.createdAt ?? null, after?.id ?? '0', limit],
    );
    return rows;
  }

  /**
   * The user's non-zero positions by asset code, or null when the organisation has no such user (one
   * statement tells both).
   */
  async positions(
    orgId: number,
    orgUserId: string,
  ): Promise<{ asset: string; quantity: string; updatedAt: Date }[] | null> {
    const rows = await this.dataSource.query<
      { asset: string | null; quantity: string | null; updated_at: Date | null }[]
    >(
      `SELECT p.asset, p.quantity, p.updated_at
         FROM users u LEFT JOIN positions p ON p.user_id = u.id AND p.quantity > 0
        WHERE u.org_id = $1 AND u.org_user_id = $2
        ORDER BY p.asset`,
      [orgId, orgUserId],
    );
    if (rows.length === 0) return null;
    return rows.flatMap(({ asset, quantity, updated_at }) =>
      asset === null || quantity === null || updated_at === null
        ? []
        : [{ asset, quantity, updatedAt: updated_at }],
    );
  }
}
