// What an order is worth, whether it may trade, and what its fill costs: pure functions over Decimal, so
// every check and amount is exact (docs/decisions.md, "Orders: amounts" and "Orders: the checks and limits").
import { Order, type OrderAmountField, type OrgPolicy } from '@svc/db';
import type {
  OrderRejectionReason,
  OrderSide,
  OrderStatus,
  OrderType,
  TimeInForce,
  UserStatus,
} from '@svc/protocol';
import Decimal from 'decimal.js';

import { Dec, amountText } from '../common/decimal.js';
import {
  costFills,
  type ExecutedAmounts,
  executedAmounts,
  type FillCost,
  NO_FILLS,
  type Rates,
  round,
  type Totals,
} from './fill-math.js';

export interface OrderRequest {
  readonly orgUserId: string;
  readonly clientOrderId: string;
  readonly symbol: string;
  readonly base: string;
  readonly quote: string;
  readonly side: OrderSide;
  readonly amountField: OrderAmountField;
  /** The quantity or quoteQuantity sent. */
  readonly amount: Dec;
  /** How the order executes and how long it rests; absent for a MARKET order. */
  readonly terms?: OrderTerms;
}

/** The terms of an order other than MARKET (docs/api-guide.md#orders). */
export interface OrderTerms {
  readonly type: Exclude<OrderType, 'MARKET'>;
  readonly timeInForce: TimeInForce;
  readonly limitPrice: Dec | null;
  readonly stopPrice: Dec | null;
  readonly expireAt: Date | null;
  /** The id of the order this one replaces. */
  readonly replaces: string | null;
}

/** What the user's open orders hold against the limits while they rest. */
export interface Reservations {
  /** In the order's quote currency: open BUYs with fees and VAT, open SELLs at their price (TOTAL_LIMIT). */
  readonly quote: Dec;
  /** Open BUYs with fees and VAT (TOTAL_EXPOSURE). */
  readonly buyQuote: Dec;
  /** What open BUYs of the base asset would add to the position (ASSET_EXPOSURE). */
  readonly buyBase: Dec;
  /** What open SELLs of the base asset hold of the position: not available to another SELL. */
  readonly sellBase: Dec;
}

export const NO_RESERVATIONS: Reservations = {
  quote: new Dec(0),
  buyQuote: new Dec(0),
  buyBase: new Dec(0),
  sellBase: new Dec(0),
};

/** What the checks look at, read in the order's transaction with the user's row locked. */
export interface TradingFacts {
  readonly userStatus: UserStatus;
  readonly kyc: boolean;
  readonly tnc: boolean;
  readonly policy: OrgPolicy;
  readonly halted: boolean;
  /** The operator price of the pair; null when it has none. */
  readonly markPrice: Dec | null;
  /** Whether the pair's book is its price levels rather than its operator price alone. */
  readonly hasLevels?: boolean;
  /** How much of the base asset the user holds. */
  readonly holding: Dec;
  /**
   * Quote amount executed by the orders the user placed today (UTC), both sides; read only when a
   * TOTAL_LIMIT applies. An order counts to the day it was placed (docs/api-guide.md#orders).
   */
  readonly tradedToday: Dec;
  /**
   * The user's positions valued at operator prices in the quote currency; read only when a
   * TOTAL_EXPOSURE applies; null when a position has no price in that currency.
   */
  readonly holdingsValue: Dec | null;
  /** What the user's open orders hold; none when absent. */
  readonly reserved?: Reservations;
}

export interface Sizing {
  /** Base quantity to fill, 8 decimals, rounded down for a quoteQuantity order. */
  readonly quantity: Dec;
  /** What the order is worth in the quote currency, fees excluded: the amount every limit is held to. */
  readonly value: Dec;
}

/**
 * The positions' value in the quote currency, from [asset, quantity, price] rows (text, as READ_FACTS
 * returns them), or null when one of them has no price in that currency.
 */
export function holdingsValue(holdings: readonly (readonly [string, string, string | null])[]): Dec | null {
  let value = new Dec(0);
  for (const [, quantity, price] of holdings) {
    if (price === null) return null;
    value = value.plus(new Dec(quantity).times(price));
  }
  return value;
}

export function sizeOrder(request: OrderRequest, price: Dec): Sizing {
  if (request.amountField === 'quantity') {
    return { quantity: request.amount, value: round(request.amount.times(price)) };
  }
  return { quantity: round(request.amount.div(price), Decimal.ROUND_DOWN), value: request.amount };
}

/**
 * The first check the order fails, in the order they are checked (docs/decisions.md, "Orders: the checks and
 * limits"), or null.
 */
export function failedCheck(
  request: OrderRequest,
  facts: TradingFacts,
  sizing: Sizing | null,
): OrderRejectionReason | null {
  if (facts.userStatus !== 'ACTIVE') return 'USER_NOT_ACTIVE';
  if (!facts.kyc) return 'KYC_NOT_COMPLETED';
  if (!facts.tnc) return 'TNC_NOT_ACCEPTED';
  if (!facts.policy.enabledAssets.includes(request.base)) return 'ASSET_NOT_ENABLED';
  if (facts.halted) return 'ASSET_DISABLED';
  if (!sizing) return 'PRICE_UNAVAILABLE';
  if (sizing.quantity.isZero()) return 'AMOUNT_TOO_SMALL';
  const { policy } = facts;
  const reserved = facts.reserved ?? NO_RESERVATIONS;
  if (exceeds(sizing.value, policy.quoteLimit[request.quote])) return 'QUOTE_LIMIT';
  const dayTotal = facts.tradedToday.plus(reserved.quote).plus(sizing.value);
  if (exceeds(dayTotal, policy.totalLimit[request.quote])) return 'TOTAL_LIMIT';
  if (request.side === 'SELL') {
    return sizing.quantity.gt(facts.holding.minus(reserved.sellBase)) ? 'INSUFFICIENT_HOLDINGS' : null;
  }
  const exposureLimit = policy.totalExposure[request.quote];
  if (exposureLimit !== undefined) {
    // A position with no price in the quote currency cannot be valued: the limit cannot be shown to hold.
    const exposure = facts.holdingsValue?.plus(reserved.buyQuote).plus(sizing.value);
    if (exposure === undefined || exceeds(exposure, exposureLimit)) return 'TOTAL_EXPOSURE';
  }
  const assetExposure = facts.holding.plus(reserved.buyBase).plus(sizing.quantity);
  if (exceeds(assetExposure, policy.assetExposure[request.base])) return 'ASSET_EXPOSURE';
  return null;
}

/** A limit holds at its value and fails just over it; no entry is no limit. */
function exceeds(amount: Dec, limit: string | undefined): boolean {
  return limit !== undefined && amount.gt(limit);
}

export type { Rates } from './fill-math.js';

/** The amounts of an order as stored (8 decimals). */
export interface FillAmounts extends ExecutedAmounts {
  readonly quantity: string;
  readonly quoteQuantity: string;
}

/**
 * A full fill of `quantity` at `price`. Net is the quote amount traded; commission is charged on it and
 * VAT on the commission; total is what the user pays (BUY: net plus fees) or receives (SELL: net minus
 * fees). averagePrice is total per unit, baseAveragePrice net per unit. quoteQuantity stays the amount
 * sent for a quoteQuantity order, else it is the net amount.
 */
export function fillAmounts(request: OrderRequest, quantity: Dec, price: Dec, rates: Rates): FillAmounts {
  return orderAmounts(request, costFills(request.side, NO_FILLS, [{ price, quantity }], rates).totals, price);
}

/**
 * The amounts of an order that has executed `totals`: quantity is the amount sent for a quantity order,
 * else what filled; quoteQuantity the amount sent for a quoteQuantity order, else the net executed.
 */
export function orderAmounts(request: OrderRequest, totals: Totals, lastPrice: Dec | null): FillAmounts {
  return {
    quantity: amountText(request.amountField === 'quantity' ? request.amount : totals.filled),
    quoteQuantity: amountText(request.amountField === 'quoteQuantity' ? request.amount : totals.net),
    ...executedAmounts(totals, lastPrice),
  };
}

/** The amounts of an order that did not fill: what was asked, zeros elsewhere. */
export function unfilledAmounts(request: OrderRequest): FillAmounts {
  const zero = amountText(new Dec(0));
  return {
    quantity: request.amountField === 'quantity' ? amountText(request.amount) : zero,
    quoteQuantity: request.amountField === 'quoteQuantity' ? amountText(request.amount) : zero,
    filled: zero,
    price: zero,
    averagePrice: zero,
    baseAveragePrice: zero,
    commissionAmount: zero,
    vatAmount: zero,
    netExecutedAmount: zero,
    totalExecutedAmount: zero,
  };
}

/** Where an order stands after its placement: filled, resting, or refused with a reason. */
export interface Outcome {
  readonly status: OrderStatus;
  readonly amounts: FillAmounts;
  readonly estimatedPrice: Dec | null;
  readonly rejectionReason: OrderRejectionReason | null;
  readonly cancelReason?: string | null;
  /** When a STOP or STOP_LIMIT order's stop was reached; null until then. */
  readonly triggeredAt?: Date | null;
  /** The fills made at placement, in order; none when the order did not fill. */
  readonly fills?: readonly FillCost[];
  /** Whether the fills took from the pair's price levels (rather than its operator price). */
  readonly fromLevels?: boolean;
}

/** The order row to insert; its id and timestamps come back from the INSERT. */
export function newOrder(
  orgId: number,
  userId: string,
  request: OrderRequest,
  rates: Rates,
  outcome: Outcome,
): Order {
  return {
    id: '',
    orgId,
    userId,
    orgUserId: request.orgUserId,
    clientOrderId: request.clientOrderId,
    symbol: request.symbol,
    side: request.side,
    type: request.terms?.type ?? 'MARKET',
    timeInForce: request.terms?.timeInForce ?? null,
    limitPrice: request.terms?.limitPrice ? amountText(request.terms.limitPrice) : null,
    stopPrice: request.terms?.stopPrice ? amountText(request.terms.stopPrice) : null,
    triggeredAt: outcome.triggeredAt ?? null,
    expireAt: request.terms?.expireAt ?? null,
    amountField: request.amountField,
    ...outcome.amounts,
    status: outcome.status,
    estimatedPrice: amountText(outcome.estimatedPrice ?? new Dec(0)),
    commissionRate: amountText(new Dec(rates.commissionRate)),
    vatRate: amountText(new Dec(rates.vatRate)),
    commissionAsset: request.quote,
    rejectionReason: outcome.rejectionReason,
    cancelReason: outcome.cancelReason ?? null,
    replaces: request.terms?.replaces ?? null,
    createdAt: new Date(0),
    updatedAt: new Date(0),
  };
}

/** `order` with `changes`, as a new row (the entity is a class, which a spread would not keep). */
export function changed(order: Order, changes: Partial<Order>): Order {
  return Object.assign(new Order(), order, changes);
}
