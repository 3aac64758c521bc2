// What becomes of a resting order when the sweep takes it (docs/api-guide.md#orders): the checks run again as
// if its rest were placed now (a failure cancels the rest, cancelReason naming the check), then it takes
// what its pair's book offers within its limit. Pure over the facts the sweep read for the batch, which it
// updates as the batch's fills happen, so that one user's orders in one batch see each other.
import type { Order, OrgPolicy } from '@svc/db';
import type { UserStatus } from '@svc/protocol';

import { amountText, Dec } from '../common/decimal.js';
import { pairOf } from '../common/assets.js';
import { costFills, executedAmounts, type FillCost, totalsOf } from './fill-math.js';
import { consume, executionLimit, matchQuantity, takerSide } from './matching.js';
import { changed, failedCheck, type TradingFacts } from './order-math.js';
import { holdPrice, holdValue, type OpenHold, reservationsOf } from './reservations.js';
import type { PairMarket } from './execution.repository.js';

/** One user of a batch: what the checks look at, kept current over the batch. */
export interface UserFacts {
  readonly userStatus: UserStatus;
  readonly kyc: boolean;
  readonly tnc: boolean;
  readonly policy: OrgPolicy;
  /** Asset code to quantity held. */
  readonly positions: Map<string, Dec>;
  /** Quote currency to the net amount filled today (UTC). */
  readonly traded: Map<string, Dec>;
  /** The user's open orders by id. */
  readonly holds: Map<string, OpenHold>;
}

export type RestingDecision =
  | { readonly kind: 'none' }
  | { readonly kind: 'cancel'; readonly order: Order }
  | { readonly kind: 'fill'; readonly order: Order; readonly fills: FillCost[] };

/**
 * Decides `order` against `market` (whose book it takes from) and `user` (whose facts it moves); answers
 * the order as it now stands, or 'none' when nothing changed.
 */
export function decideResting(
  order: Order,
  user: UserFacts,
  market: PairMarket,
  prices: ReadonlyMap<string, Dec>,
): RestingDecision {
  const { base, quote } = pairOf(order.symbol);
  const remaining = new Dec(order.quantity).minus(order.filled);
  const rates = { commissionRate: order.commissionRate, vatRate: order.vatRate };
  const price = holdPrice(decimal(order.limitPrice), decimal(order.stopPrice));
  const others = [...user.holds].filter(([id]) => id !== order.id).map(([, hold]) => hold);
  const reason = failedCheck(
    {
      orgUserId: order.orgUserId,
      clientOrderId: order.clientOrderId,
      symbol: order.symbol,
      base,
      quote,
      side: order.side,
      amountField: 'quantity',
      amount: remaining,
    },
    factsOf(user, base, quote, others, prices, market.last),
    { quantity: remaining, value: holdValue(order.side, remaining, price, rates) },
  );
  if (reason !== null) {
    user.holds.delete(order.id);
    return { kind: 'cancel', order: changed(order, { status: 'CANCELLED', cancelReason: reason }) };
  }
  const levels = takerSide(market.book, order.side);
  const limit = executionLimit(order.type, decimal(order.limitPrice));
  const matched = matchQuantity(levels, order.side, limit, remaining);
  if (matched.length === 0) return { kind: 'none' };
  consume(levels, matched);
  const { costs, totals } = costFills(order.side, totalsOf(order), matched, rates);
  const done = totals.filled.eq(order.quantity);
  moveFacts(user, order, base, quote, costs, done);
  return {
    kind: 'fill',
    fills: costs,
    order: changed(order, {
      ...executedAmounts(totals, costs.at(-1)?.price ?? null),
      quoteQuantity: amountText(totals.net),
      status: done ? 'COMPLETED' : 'PARTIALLY_FILLED',
    }),
  };
}

/** The facts of one check, from the user's current facts and the other open orders' reservations. */
function factsOf(
  user: UserFacts,
  base: string,
  quote: string,
  others: readonly OpenHold[],
  prices: ReadonlyMap<string, Dec>,
  last: Dec | null,
): TradingFacts {
  return {
    userStatus: user.userStatus,
    kyc: user.kyc,
    tnc: user.tnc,
    policy: user.policy,
    halted: false,
    markPrice: last,
    holding: user.positions.get(base) ?? new Dec(0),
    tradedToday: user.traded.get(quote) ?? new Dec(0),
    holdingsValue: valuation(user.positions, quote, prices),
    reserved: reservationsOf(others, base, quote),
  };
}

/** The positions' value in `quote` at operator prices, or null when one of them has no price in it. */
export function valuation(
  positions: ReadonlyMap<string, Dec>,
  quote: string,
  prices: ReadonlyMap<string, Dec>,
): Dec | null {
  let value = new Dec(0);
  for (const [asset, quantity] of positions) {
    if (quantity.lte(0)) continue;
    const price = prices.get(`${asset}_${quote}`);
    if (price === undefined) return null;
    value = value.plus(quantity.times(price));
  }
  return value;
}

function moveFacts(
  user: UserFacts,
  order: Order,
  base: string,
  quote: string,
  costs: readonly FillCost[],
  done: boolean,
): void {
  for (const cost of costs) {
    const held = user.positions.get(base) ?? new Dec(0);
    user.positions.set(base, order.side === 'BUY' ? held.plus(cost.quantity) : held.minus(cost.quantity));
    user.traded.set(quote, (user.traded.get(quote) ?? new Dec(0)).plus(cost.net));
  }
  const hold = user.holds.get(order.id);
  if (done || !hold) {
    user.holds.delete(order.id);
    return;
  }
  const filled = costs.reduce((sum, cost) => sum.plus(cost.quantity), new Dec(0));
  user.holds.set(order.id, { ...hold, remaining: hold.remaining.minus(filled) });
}

function decimal(text: string | null): Dec | null {
  return text === null ? null : new Dec(text);
}
