// What becomes of a resting order when the sweep takes it (docs/api-guide.md#orders): the checks run again as
// if its rest were placed now (a failure cancels the rest, cancelReason naming the check), then it takes
// what its pair's book offers within its limit. Pure over the facts the sweep read for the batch, which it
// updates as the batch's fills happen, so that one user's orders in one batch see each other.
import type { Order, OrgPolicy } from '@svc/db';
import type { OrderSide, UserStatus } from '@svc/protocol';

import { amountText, Dec } from '../common/decimal.js';
import { pairOf } from '../common/assets.js';
import { costFills, executedAmounts, type FillCost, totalsOf } from './fill-math.js';
import { consume, executionLimit, matchQuantity, takerSide } from './matching.js';
import { changed, failedCheck, type TradingFacts } from './order-math.js';
import { holdPrice, holdValue } from './reservations.js';
import type { PairMarket } from './execution.repository.js';

/** One user of a batch: what the checks look at, kept current over the batch. */
export interface UserFacts {
  readonly userStatus: UserStatus;
  readonly kyc: boolean;
  readonly tnc: boolean;
  readonly policy: OrgPolicy;
  /** Asset code to quantity held. */
  readonly positions: Map<string, Dec>;
  /** Quote currency to the net amount executed by the orders placed today (UTC). */
  readonly traded: Map<string, Dec>;
  /** What the user's open orders reserve by quote currency: all of them, and the BUYs alone. */
  readonly byQuote: Map<string, { all: Dec; buy: Dec }>;
  /** What the user's open orders reserve by base asset: the BUYs' and the SELLs' unfilled quantities. */
  readonly byBase: Map<string, { buy: Dec; sell: Dec }>;
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
  const own = holdValue(order.side, remaining, price, rates);
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
    factsOf(user, order.side, base, quote, { remaining, amount: own }, prices, market.last),
    { quantity: remaining, value: own },
  );
  if (reason !== null) {
    release(user, order.side, base, quote, { remaining, amount: own });
    return { kind: 'cancel', order: changed(order, { status: 'CANCELLED', cancelReason: reason }) };
  }
  const levels = takerSide(market.book, order.side);
  const limit = executionLimit(order.type, decimal(order.limitPrice));
  const matched = matchQuantity(levels, order.side, limit, remaining);
  if (matched.length === 0) return { kind: 'none' };
  consume(levels, matched);
  const { costs, totals } = costFills(order.side, totalsOf(order), matched, rates);
  const done = totals.filled.eq(order.quantity);
  moveFacts(user, order, base, quote, costs);
  const rest = remaining.minus(totals.filled.minus(order.filled));
  const after = done ? new Dec(0) : holdValue(order.side, rest, price, rates);
  release(user, order.side, base, quote, { remaining: remaining.minus(rest), amount: own.minus(after) });
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

/** What one order reserves: its unfilled quantity, and its amount in the quote currency. */
interface Hold {
  readonly remaining: Dec;
  readonly amount: Dec;
}

/** The facts of one check, from the user's current facts less what the order itself reserves. */
function factsOf(
  user: UserFacts,
  side: OrderSide,
  base: string,
  quote: string,
  own: Hold,
  prices: ReadonlyMap<string, Dec>,
  last: Dec | null,
): TradingFacts {
  const byQuote = user.byQuote.get(quote);
  const byBase = user.byBase.get(base);
  const buy = side === 'BUY';
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
    // Read only where a limit needs them (order-sweep.repository.ts): absent, nothing reads them.
    reserved: {
      quote: byQuote ? byQuote.all.minus(own.amount) : new Dec(0),
      buyQuote: byQuote ? byQuote.buy.minus(buy ? own.amount : 0) : new Dec(0),
      buyBase: byBase ? byBase.buy.minus(buy ? own.remaining : 0) : new Dec(0),
      sellBase: byBase ? byBase.sell.minus(buy ? 0 : own.remaining) : new Dec(0),
    },
  };
}

/** The user's reservations less `hold` (what a fill or a cancel released), where they were read. */
function release(user: UserFacts, side: OrderSide, base: string, quote: string, hold: Hold): void {
  const buy = side === 'BUY';
  const byQuote = user.byQuote.get(quote);
  if (byQuote) {
    byQuote.all = byQuote.all.minus(hold.amount);
    if (buy) byQuote.buy = byQuote.buy.minus(hold.amount);
  }
  const byBase = user.byBase.get(base);
  if (byBase) {
    if (buy) byBase.buy = byBase.buy.minus(hold.remaining);
    else byBase.sell = byBase.sell.minus(hold.remaining);
  }
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

function moveFacts(user: UserFacts, order: Order, base: string, quote: string, costs: readonly FillCost[]) {
  for (const cost of costs) {
    const held = user.positions.get(base) ?? new Dec(0);
    user.positions.set(base, order.side === 'BUY' ? held.plus(cost.quantity) : held.minus(cost.quantity));
    user.traded.set(quote, (user.traded.get(quote) ?? new Dec(0)).plus(cost.net));
  }
}

function decimal(text: string | null): Dec | null {
  return text === null ? null : new Dec(text);
}
