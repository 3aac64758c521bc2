// What a fill writes, for one order at its placement or for a sweep's batch alike: the pairs' books locked
// and read, the fills, the levels taken from and the positions moved, each as one multi-row statement
// (docs/decisions.md, "Orders: the book and the sweep").
// Style: SQL (unnest arrays), on the transaction's connection.
import { Injectable } from '@nestjs/common';
import { query } from '@svc/db';
import type { EntityManager } from 'typeorm';

import { Dec, amountText } from '../common/decimal.js';
import type { FillCost } from './fill-math.js';
import { type Book, bookOf } from './matching.js';

/** A pair's book and its last (operator) price, as read with its rows locked. */
export interface PairMarket {
  readonly book: Book;
  /** The operator price: what triggers stops, and the book when the pair has no levels. */
  readonly last: Dec | null;
  /** Whether the book is the pair's stored levels (fills take from them) rather than the operator price. */
  readonly hasLevels: boolean;
}

/** A fill to write: which order, whose, and which level it took from (none for the operator price). */
export interface FillRow {
  readonly orderId: string;
  readonly userId: string;
  readonly orgId: number;
  readonly symbol: string;
  readonly base: string;
  readonly side: 'BUY' | 'SELL';
  /** Whether the fill took from a stored level (the pair has levels) or from the unbounded operator price. */
  readonly fromLevel: boolean;
  readonly cost: FillCost;
}

// Prices, then levels: a price is locked FOR SHARE (a price change waits for the fills made at the old
// price), levels FOR UPDATE, both in key order so that two sweeps never wait on each other in a cycle.
const LOCK_PRICES = `
  SELECT symbol, price::text FROM prices WHERE symbol = ANY($1::text[]) ORDER BY symbol FOR SHARE`;
const LOCK_LEVELS = `
  SELECT symbol, side, price::text, size::text FROM price_levels
   WHERE symbol = ANY($1::text[]) ORDER BY symbol, side, price FOR UPDATE`;

const INSERT_FILLS = `
  INSERT INTO order_fills (order_id, user_id, price, quantity, net_amount, commission_amount, vat_amount,
                           total_amount)
  SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::numeric[], $4::numeric[], $5::numeric[],
                       $6::numeric[], $7::numeric[], $8::numeric[])`;

const TAKE_FROM_LEVELS = `
  UPDATE price_levels l SET size = l.size - t.taken, updated_at = now()
    FROM (SELECT symbol, side, price, sum(taken) AS taken
            FROM unnest($1::text[], $2::text[], $3::numeric[], $4::numeric[]) AS u(symbol, side, price, taken)
           GROUP BY 1, 2, 3) t
   WHERE l.symbol = t.symbol AND l.side = t.side AND l.price = t.price`;

const ADD_TO_POSITIONS = `
  INSERT INTO positions (user_id, asset, org_id, quantity)
  SELECT * FROM unnest($1::bigint[], $2::text[], $3::int[], $4::numeric[])
  ON CONFLICT (user_id, asset) DO UPDATE SET quantity = positions.quantity + EXCLUDED.quantity, updated_at = now()`;

const TAKE_FROM_POSITIONS = `
  UPDATE positions p SET quantity = p.quantity - t.quantity, updated_at = now()
    FROM unnest($1::bigint[], $2::text[], $3::numeric[]) AS t(user_id, asset, quantity)
   WHERE p.user_id = t.user_id AND p.asset = t.asset`;

@Injectable()
export class ExecutionRepository {
  /** The books of `symbols` with their levels and prices locked, by symbol. */
  async lockMarkets(manager: EntityManager, symbols: readonly string[]): Promise<Map<string, PairMarket>> {
    const sorted = [...new Set(symbols)].sort();
    const prices = await query<{ symbol: string; price: string }>(manager, LOCK_PRICES, [sorted]);
    const levels = await query<{ symbol: string; side: 'ASK' | 'BID'; price: string; size: string }>(
      manager,
      LOCK_LEVELS,
      [sorted],
    );
    const markets = new Map<string, PairMarket>();
    for (const symbol of sorted) {
      const row = prices.find((price) => price.symbol === symbol);
      const last = row ? new Dec(row.price) : null;
      const own = levels
        .filter((level) => level.symbol === symbol)
        .map((level) => ({ side: level.side, price: new Dec(level.price), size: new Dec(level.size) }));
      markets.set(symbol, { book: bookOf(own, last), last, hasLevels: own.length > 0 });
    }
    return markets;
  }

  /** Writes the fills, takes them from their levels and moves the positions, one statement each. */
  async writeFills(manager: EntityManager, fills: readonly FillRow[]): Promise<void> {
    if (fills.length === 0) return;
    await query(manager, INSERT_FILLS, [
      fills.map((fill) => fill.orderId),
      fills.map((fill) => fill.userId),
      ...(['price', 'quantity', 'net', 'commission', 'vat', 'total'] as const).map((field) =>
        fills.map((fill) => amountText(fill.cost[field])),
      ),
    ]);
    const taken = fills.filter((fill) => fill.fromLevel);
    if (taken.length > 0) {
      await query(manager, TAKE_FROM_LEVELS, [
        taken.map((fill) => fill.symbol),
        taken.map((fill) => (fill.side === 'BUY' ? 'ASK' : 'BID')),
        taken.map((fill) => amountText(fill.cost.price)),
        taken.map((fill) => amountText(fill.cost.quantity)),
      ]);
    }
    await this.movePositions(manager, fills);
  }

  /** Each user's position of the base asset moves by the sum of their fills: up for BUY, down for SELL. */
  private async movePositions(manager: EntityManager, fills: readonly FillRow[]): Promise<void> {
    const moves = new Map<string, { userId: string; asset: string; orgId: number; delta: Dec }>();
    for (const fill of fills) {
      const key = `${fill.userId}:${fill.base}`;
      const move = moves.get(key) ?? {
        userId: fill.userId,
        asset: fill.base,
        orgId: fill.orgId,
        delta: new Dec(0),
      };
      const quantity = fill.cost.quantity;
      move.delta = fill.side === 'BUY' ? move.delta.plus(quantity) : move.delta.minus(quantity);
      moves.set(key, move);
    }
    const ups = [...moves.values()].filter((move) => move.delta.gt(0));
    const downs = [...moves.values()].filter((move) => move.delta.lt(0));
    if (ups.length > 0) {
      await query(manager, ADD_TO_POSITIONS, [
        ups.map((move) => move.userId),
        ups.map((move) => move.asset),
        ups.map((move) => move.orgId),
        ups.map((move) => amountText(move.delta)),
      ]);
    }
    if (downs.length > 0) {
      await query(manager, TAKE_FROM_POSITIONS, [
        downs.map((move) => move.userId),
        downs.map((move) => move.asset),
        downs.map((move) => amountText(move.delta.negated())),
      ]);
    }
  }
}
