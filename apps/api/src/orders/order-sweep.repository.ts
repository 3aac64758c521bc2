// Every query of the order sweep (docs/decisions.md, "Orders: the book and the sweep"): stops reached, the open orders that
// now cross their pair's book or have expired, locked a batch at a time with SKIP LOCKED so that several
// processes sweep side by side and each order is decided once; the facts the checks need for all of a
// batch's users in one statement each; and the batch's orders written back in one statement.
// Style: SQL, set-based: a batch is a handful of statements whatever its size.
import { Injectable } from '@nestjs/common';
import { Order, type OrgPolicy, query } from '@svc/db';
import type { OrderSide, UserStatus } from '@svc/protocol';
import { DataSource, type EntityManager } from 'typeorm';

import { Dec } from '../common/decimal.js';

const OPEN = `status IN ('PENDING', 'PARTIALLY_FILLED')`;

/** The first key of the advisory locks by which a sweep claims a pair (the second is the symbol's hash). */
const SWEEP_LOCK = 1797;

const HALTED = `EXISTS (SELECT 1 FROM trading_halts h WHERE h.symbol = o.symbol
                          AND (h.starts_at IS NULL OR h.starts_at <= now())
                          AND (h.ends_at IS NULL OR h.ends_at > now()))`;

// A stop is reached once: the time is kept, so the order stays triggered if the price moves back.
const TRIGGER_STOPS = `
  WITH due AS (
    SELECT o.id FROM orders o JOIN prices p ON p.symbol = o.symbol
     WHERE o.${OPEN} AND o.stop_price IS NOT NULL AND o.triggered_at IS NULL
       AND ($1::text[] IS NULL OR o.symbol = ANY($1::text[]))
       AND ((o.side = 'BUY' AND p.price >= o.stop_price) OR (o.side = 'SELL' AND p.price <= o.stop_price))
     ORDER BY o.id LIMIT $2
       FOR UPDATE OF o SKIP LOCKED)
  UPDATE orders SET triggered_at = now() FROM due WHERE orders.id = due.id RETURNING orders.id`;

/** The best price each side of a book offers: its best level with size left, else the operator price. */
const MARKETS = `
  SELECT p.symbol,
         CASE WHEN EXISTS (SELECT 1 FROM price_levels l WHERE l.symbol = p.symbol)
              THEN (SELECT min(l.price) FROM price_levels l WHERE l.symbol = p.symbol AND l.side = 'ASK' AND l.size > 0)
              ELSE p.price END AS best_ask,
         CASE WHEN EXISTS (SELECT 1 FROM price_levels l WHERE l.symbol = p.symbol)
              THEN (SELECT max(l.price) FROM price_levels l WHERE l.symbol = p.symbol AND l.side = 'BID' AND l.size > 0)
              ELSE p.price END AS best_bid
    FROM prices p
   WHERE $1::text[] IS NULL OR p.symbol = ANY($1::text[])`;

/** The columns a decision about an order changes. */
const DECIDED = new Set([
  'status',
  'quoteQuantity',
  'filled',
  'price',
  'averagePrice',
  'baseAveragePrice',
  'commissionAmount',
  'vatAmount',
  'netExecutedAmount',
  'totalExecutedAmount',
  'cancelReason',
]);

/** The user of a batch's order, locked, with the organisation's policy. */
export interface SweptUser {
  readonly id: string;
  readonly user_status: UserStatus;
  readonly kyc: boolean;
  readonly tnc: boolean;
  readonly policy: OrgPolicy;
}

/** What a user's open orders reserve, summed by side and by quote currency or base asset (text amounts). */
export interface HeldRow {
  readonly user_id: string;
  readonly side: OrderSide;
  /** The quote currency (by quote) or the base asset (by base). */
  readonly code: string;
  /** By quote: BUYs with fees and VAT, SELLs at their price; by base: the unfilled quantity. */
  readonly amount: string;
}

/** Which facts the batch's checks need beyond the users and their positions: only what a limit reads. */
export interface FactNeeds {
  /** Users with a TOTAL_LIMIT: the day's executed amount. */
  readonly traded: readonly string[];
  /** Users with a TOTAL_LIMIT or TOTAL_EXPOSURE: their reservations by quote currency. */
  readonly byQuote: readonly string[];
  /** Users with a SELL in the batch or an ASSET_EXPOSURE: their reservations of these base assets. */
  readonly byBase: readonly string[];
  readonly bases: readonly string[];
  /** Whether a TOTAL_EXPOSURE values positions at operator prices. */
  readonly prices: boolean;
}

/** The facts of a batch's users, read with them locked. */
export interface BatchFacts {
  readonly positions: { user_id: string; asset: string; quantity: string }[];
  readonly traded: { user_id: string; quote: string; amount: string }[];
  readonly byQuote: HeldRow[];
  readonly byBase: HeldRow[];
  readonly prices: { symbol: string; price: string }[];
}

// What each open order reserves, exactly as reservations.ts computes it (round() of numeric is half up for
// these positive amounts): a BUY its net at its hold price with commission and VAT, a SELL its net.
const HOLDS = `
  SELECT user_id, side, split_part(symbol, '_', 1) AS base, commission_asset AS quote, remaining, net,
         CASE WHEN side = 'BUY'
              THEN net + round(net * commission_rate, 8) + round(round(net * commission_rate, 8) * vat_rate, 8)
              ELSE net END AS amount
    FROM (SELECT user_id, side, symbol, commission_asset, commission_rate, vat_rate, quantity - filled AS remaining,
                 round((quantity - filled) * coalesce(limit_price, stop_price), 8) AS net
            FROM orders WHERE user_id = ANY($1::bigint[]) AND ${OPEN}) o`;

@Injectable()
export class OrderSweepRepository {
  private readonly selectOrder: string;
  private readonly columns: { name: string; property: string; type: string }[];

  constructor(dataSource: DataSource) {
    this.columns = dataSource.getMetadata(Order).columns.map((column) => ({
      name: column.databaseName,
      property: column.propertyName,
      type: String(column.type),
    }));
    this.selectOrder = this.columns.map(({ name, property }) => `o.${name} AS "${property}"`).join(', ');
  }

  /**
   * Claims pairs for this transaction's sweep, so that one sweep at a time fills a pair's orders, in
   * price-time priority (transaction-level advisory locks, taken before any row lock). Named pairs are
   * waited for; for every pair (null), those another sweep holds are skipped. Answers the pairs claimed.
   */
  async claimPairs(manager: EntityManager, symbols: readonly string[] | null): Promise<string[]> {
    if (symbols !== null) {
      const sorted = [...new Set(symbols)].sort();
      await query(
        manager,
        'SELECT pg_advisory_xact_lock($2, hashtext(s)) FROM unnest($1::text[]) AS s ORDER BY s',
        [sorted, SWEEP_LOCK],
      );
      return sorted;
    }
    // OFFSET 0 keeps the lock from being tried on rows the ORDER BY has not reached.
    const rows = await query<{ symbol: string }>(
      manager,
      `SELECT symbol FROM (SELECT symbol FROM prices ORDER BY symbol OFFSET 0) p
        WHERE pg_try_advisory_xact_lock($1, hashtext(symbol))`,
      [SWEEP_LOCK],
    );
    return rows.map((row) => row.symbol);
  }

  /** Marks the stops the last price has reached (of `symbols`, or every pair); answers how many. */
  async triggerStops(
    manager: EntityManager,
    symbols: readonly string[] | null,
    batch: number,
  ): Promise<number> {
    return (await query(manager, TRIGGER_STOPS, [symbols, batch])).length;
  }

  /**
   * A batch of open orders that now cross their pair's book (of `symbols`, or every pair), not halted, not
   * expired, stops reached, locked; those another process holds are skipped. In price-time priority per
   * pair and side: the highest BUY limit and the lowest SELL limit first (no limit before any), then the
   * oldest.
   */
  async lockCrossing(
    manager: EntityManager,
    symbols: readonly string[] | null,
    batch: number,
  ): Promise<Order[]> {
    const rows = await manager.query<Order[]>(
      `WITH m AS (${MARKETS})
       SELECT ${this.selectOrder} FROM orders o JOIN m ON m.symbol = o.symbol
        WHERE o.${OPEN} AND NOT ${HALTED}
          AND (o.expire_at IS NULL OR o.expire_at > now())
          AND (o.stop_price IS NULL OR o.triggered_at IS NOT NULL)
          AND CASE WHEN o.side = 'BUY' THEN m.best_ask <= coalesce(o.limit_price, m.best_ask)
                   ELSE m.best_bid >= coalesce(o.limit_price, m.best_bid) END
        ORDER BY o.symbol, o.side, CASE WHEN o.side = 'BUY' THEN -o.limit_price ELSE o.limit_price END NULLS FIRST, o.id
        LIMIT $2
          FOR UPDATE OF o SKIP LOCKED`,
      [symbols, batch],
    );
    return rows.map((row) => Object.assign(new Order(), row));
  }

  /** A batch of open orders whose expiry has passed, locked (those another process holds are skipped). */
  async lockExpired(manager: EntityManager, batch: number): Promise<Order[]> {
    const rows = await manager.query<Order[]>(
      `SELECT ${this.selectOrder} FROM orders o WHERE o.${OPEN} AND o.expire_at <= now()
        ORDER BY o.expire_at, o.id LIMIT $1 FOR UPDATE OF o SKIP LOCKED`,
      [batch],
    );
    return rows.map((row) => Object.assign(new Order(), row));
  }

  /** Locks the batch's users, in id order as every sweep does, with their organisations' policies. */
  lockUsers(manager: EntityManager, userIds: readonly string[]): Promise<SweptUser[]> {
    const ids = [...new Set(userIds)].sort((a, b) => Number(a) - Number(b));
    return query<SweptUser>(
      manager,
      `SELECT u.id, u.user_status, u.kyc, u.tnc, o.policy FROM users u JOIN organisations o ON o.id = u.org_id
        WHERE u.id = ANY($1::bigint[]) ORDER BY u.id FOR UPDATE OF u`,
      [ids],
    );
  }

  /**
   * What the checks of the locked users need, each read only for the users whose limits need it: a batch of
   * users without limits reads their positions alone.
   */
  async readFacts(manager: EntityManager, userIds: readonly string[], needs: FactNeeds): Promise<BatchFacts> {
    const positions = await query<BatchFacts['positions'][number]>(
      manager,
      'SELECT user_id, asset, quantity::text FROM positions WHERE user_id = ANY($1::bigint[]) AND quantity > 0',
      [userIds],
    );
    const traded =
      needs.traded.length === 0
        ? []
        : await query<BatchFacts['traded'][number]>(
            manager,
            `SELECT user_id, commission_asset AS quote, sum(net_executed_amount)::text AS amount
               FROM orders
              WHERE user_id = ANY($1::bigint[]) AND filled > 0 AND created_at >= date_trunc('day', now(), 'UTC')
              GROUP BY 1, 2`,
            [needs.traded],
          );
    const byQuote =
      needs.byQuote.length === 0
        ? []
        : await query<HeldRow>(
            manager,
            `SELECT user_id, side, quote AS code, sum(amount)::text AS amount FROM (${HOLDS}) h GROUP BY 1, 2, 3`,
            [needs.byQuote],
          );
    const byBase =
      needs.byBase.length === 0
        ? []
        : await query<HeldRow>(
            manager,
            `SELECT user_id, side, base AS code, sum(remaining)::text AS amount FROM (${HOLDS}) h
              WHERE base = ANY($2::text[]) GROUP BY 1, 2, 3`,
            [needs.byBase, needs.bases],
          );
    const prices = needs.prices
      ? await query<BatchFacts['prices'][number]>(manager, 'SELECT symbol, price::text FROM prices')
      : [];
    return { positions, traded, byQuote, byBase, prices };
  }

  /**
   * Writes back what a sweep, a cancel or an expiry decides (status, fill amounts, cancel reason), one
   * statement for the whole batch; sets updatedAt.
   */
  async update(manager: EntityManager, orders: readonly Order[]): Promise<void> {
    if (orders.length === 0) return;
    const changing = this.columns.filter(({ property }) => DECIDED.has(property));
    const values: unknown[][] = [orders.map((order) => order.id)];
    for (const { property } of changing) {
      values.push(orders.map((order) => stored((order as unknown as Record<string, unknown>)[property])));
    }
    const unnest = changing.map((column, index) => `$${index + 2}::${sqlType(column.type)}[]`).join(', ');
    const names = changing.map(({ name }) => name);
    const [row] = await query<{ now: Date }>(
      manager,
      `WITH t AS (SELECT * FROM unnest($1::bigint[], ${unnest}) AS t(id, ${names.join(', ')}))
       UPDATE orders o SET ${names.map((name) => `${name} = t.${name}`).join(', ')}, updated_at = now()
         FROM t WHERE o.id = t.id
       RETURNING o.updated_at AS now`,
      values,
    );
    if (!row) throw new Error('UPDATE orders returned no row');
    for (const order of orders) order.updatedAt = row.now;
  }
}

function sqlType(type: string): string {
  if (type === 'numeric') return 'numeric';
  if (type === 'timestamptz') return 'timestamptz';
  if (type === 'bigint') return 'bigint';
  if (type === 'uuid') return 'uuid';
  if (type === 'integer') return 'int';
  return 'text';
}

function stored(value: unknown): unknown {
  return Dec.isDecimal(value) ? value.toFixed() : (value ?? null);
}
