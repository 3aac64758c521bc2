// Matching an order against a pair's book (docs/api-guide.md#orders): pure functions over exact decimals, so
// the placement and the sweep decide fills the same way and the rules can be tested without PostgreSQL.
import type { OrderSide, OrderType } from '@svc/protocol';
import Decimal from 'decimal.js';

import { Dec } from '../common/decimal.js';

/** A level of the book as the matching takes from it; `size` null is the unbounded operator-price level. */
export interface BookLevel {
  readonly price: Dec;
  size: Dec | null;
}

/**
 * One side of a pair's book, best price first for the orders that take from it: the ASK levels ascending
 * (BUY orders take them), the BID levels descending (SELL orders).
 */
export type BookSide = BookLevel[];

/** A pair's book: its levels when it has any, else one unbounded level at the operator price each side. */
export interface Book {
  readonly asks: BookSide;
  readonly bids: BookSide;
}

/** Builds the book from its stored levels (any order), or from the operator price when there are none. */
export function bookOf(
  levels: readonly { side: 'ASK' | 'BID'; price: Dec; size: Dec }[],
  operatorPrice: Dec | null,
): Book {
  if (levels.length === 0) {
    return operatorPrice === null
      ? { asks: [], bids: [] }
      : { asks: [{ price: operatorPrice, size: null }], bids: [{ price: operatorPrice, size: null }] };
  }
  const side = (name: 'ASK' | 'BID') =>
    levels
      .filter((level) => level.side === name && level.size.gt(0))
      .map(({ price, size }) => ({ price, size }))
      .sort((a, b) => (name === 'ASK' ? a.price.cmp(b.price) : b.price.cmp(a.price)));
  return { asks: side('ASK'), bids: side('BID') };
}

/** The side of the book an order of `side` takes from. */
export function takerSide(book: Book, side: OrderSide): BookSide {
  return side === 'BUY' ? book.asks : book.bids;
}

/** Whether a level at `price` is within the order's limit (none: any price). */
export function withinLimit(side: OrderSide, limit: Dec | null, price: Dec): boolean {
  if (limit === null) return true;
  return side === 'BUY' ? price.lte(limit) : price.gte(limit);
}

/** Whether the last price has reached a stop: a BUY stop at or above it, a SELL stop at or below it. */
export function stopReached(side: OrderSide, stopPrice: Dec, last: Dec): boolean {
  return side === 'BUY' ? last.gte(stopPrice) : last.lte(stopPrice);
}

/** The price limit an order executes under: LIMIT and STOP_LIMIT have one, MARKET and STOP none. */
export function executionLimit(type: OrderType, limitPrice: Dec | null): Dec | null {
  return type === 'LIMIT' || type === 'STOP_LIMIT' ? limitPrice : null;
}

export interface MatchedFill {
  readonly price: Dec;
  readonly quantity: Dec;
}

/**
 * What an order of `quantity` base units would take from `levels` (best first) within `limit`, without
 * taking it: best level first, each fill at most the level's size.
 */
export function matchQuantity(
  levels: readonly BookLevel[],
  side: OrderSide,
  limit: Dec | null,
  quantity: Dec,
): MatchedFill[] {
  const fills: MatchedFill[] = [];
  let remaining = quantity;
  for (const level of levels) {
    if (remaining.lte(0) || !withinLimit(side, limit, level.price)) break;
    const take = level.size === null ? remaining : least(remaining, level.size);
    if (take.lte(0)) continue;
    fills.push({ price: level.price, quantity: take });
    remaining = remaining.minus(take);
  }
  return fills;
}

/**
 * What a MARKET BUY or SELL of a quote amount would take: at each level as many base units (8 decimals,
 * rounded down) as the rest of the amount buys, so the quote amount is never overspent. `complete` says
 * whether the amount was used up before the book was.
 */
export function matchQuote(
  levels: readonly BookLevel[],
  budget: Dec,
): { fills: MatchedFill[]; complete: boolean } {
  const fills: MatchedFill[] = [];
  let remaining = budget;
  for (const level of levels) {
    const affordable = remaining.div(level.price).toDecimalPlaces(8, Decimal.ROUND_DOWN);
    if (affordable.lte(0)) return { fills, complete: true };
    const take = level.size === null ? affordable : least(affordable, level.size);
    if (take.lte(0)) continue;
    fills.push({ price: level.price, quantity: take });
    remaining = remaining.minus(take.times(level.price).toDecimalPlaces(8, Decimal.ROUND_HALF_UP));
    if (take.eq(affordable)) return { fills, complete: true };
  }
  return { fills, complete: false };
}

/** Takes `fills` (as matched on these levels) from the levels: each level's size goes down by its fill. */
export function consume(levels: BookSide, fills: readonly MatchedFill[]): void {
  for (const fill of fills) {
    const level = levels.find((candidate) => candidate.price.eq(fill.price));
    if (!level) throw new Error(`no level at ${fill.price.toFixed()} to take from`);
    if (level.size === null) continue;
    if (fill.quantity.gt(level.size)) throw new Error('a fill larger than its level');
    level.size = level.size.minus(fill.quantity);
  }
  for (let best = levels[0]; best?.size != null && best.size.lte(0); best = levels[0]) levels.shift();
}

/** The sum of the fills' quantities. */
export function filledQuantity(fills: readonly MatchedFill[]): Dec {
  return fills.reduce((sum, fill) => sum.plus(fill.quantity), new Dec(0));
}

/** The smaller of two amounts, as it is (Decimal.min would round to the default precision). */
function least(a: Dec, b: Dec): Dec {
  return a.lte(b) ? a : b;
}
