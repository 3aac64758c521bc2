// What an order is worth, whether it may trade, and what its fill costs: pure functions over Decimal, so
// every check and amount is exact (docs/decisions.md, "Orders: amounts" and "Orders: the checks and limits").
import type { Order, OrderAmountField, OrgPolicy } from '@svc/db';
import type { OrderRejectionReason, OrderSide, OrderStatus, UserStatus } from '@svc/protocol';
import Decimal from 'decimal.js';

import { Dec, amountText } from '../common/decimal.js';

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
}

/** What the checks look at, read in the order's transaction with the user's row locked. */
export interface TradingFacts {
  readonly userStatus: UserStatus;
  readonly kyc: boolean;
  readonly tnc: boolean;
  readonly policy: OrgPolicy;
  readonly halted: boolean;
  /** The operator price of the pair; null when it has none. */
  readonly markPrice: Dec | null;
  /** How much of the base asset the user holds. */
  readonly holding: Dec;
  /** Quote amount the user traded today (UTC), both sides; read only when a TOTAL_LIMIT applies. */
  readonly tradedToday: Dec;
  /**
   * The user's positions valued at operator prices in the quote currency; read only when a
   * TOTAL_EXPOSURE applies; null when a position has no price in that currency.
   */
  readonly holdingsValue: Dec | null;
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
  if (exceeds(sizing.value, policy.quoteLimit[request.quote])) return 'QUOTE_LIMIT';
  if (exceeds(facts.tradedToday.plus(sizing.value), policy.totalLimit[request.quote])) return 'TOTAL_LIMIT';
  if (request.side === 'SELL') return sizing.quantity.gt(facts.holding) ? 'INSUFFICIENT_HOLDINGS' : null;
  const exposureLimit = policy.totalExposure[request.quote];
  if (exposureLimit !== undefined) {
    // A position with no price in the quote currency cannot be valued: the limit cannot be shown to hold.
    if (facts.holdingsValue === null || exceeds(facts.holdingsValue.plus(sizing.value), exposureLimit)) {
      return 'TOTAL_EXPOSURE';
    }
  }
  if (exceeds(facts.holding.plus(sizing.quantity), policy.assetExposure[request.base]))
    return 'ASSET_EXPOSURE';
  return null;
}

/** A limit holds at its value and fails just over it; no entry is no limit. */
function exceeds(amount: Dec, limit: string | undefined): boolean {
  return limit !== undefined && amount.gt(limit);
}

export interface Rates {
  readonly commissionRate: string;
  readonly vatRate: string;
}

/** The amounts of a fill, as stored (8 decimals). */
export interface FillAmounts {
  readonly quantity: string;
  readonly quoteQuantity: string;
  readonly filled: string;
  readonly price: string;
  readonly averagePrice: string;
  readonly baseAveragePrice: string;
  readonly commissionAmount: string;
  readonly vatAmount: string;
  readonly netExecutedAmount: string;
  readonly totalExecutedAmount: string;
}

/**
 * A full fill of `quantity` at `price`. Net is the quote amount traded; commission is charged on it and
 * VAT on the commission; total is what the user pays (BUY: net plus fees) or receives (SELL: net minus
 * fees). averagePrice is total per unit, baseAveragePrice net per unit. quoteQuantity stays the amount
 * sent for a quoteQuantity order, else it is the net amount.
 */
export function fillAmounts(request: OrderRequest, quantity: Dec, price: Dec, rates: Rates): FillAmounts {
  const net = round(quantity.times(price));
  const commission = round(net.times(rates.commissionRate));
  const vat = round(commission.times(rates.vatRate));
  const fees = commission.plus(vat);
  const total = request.side === 'BUY' ? net.plus(fees) : net.minus(fees);
  return {
    quantity: amountText(quantity),
    quoteQuantity: amountText(request.amountField === 'quoteQuantity' ? request.amount : net),
    filled: amountText(quantity),
    price: amountText(price),
    averagePrice: amountText(total.div(quantity)),
    baseAveragePrice: amountText(net.div(quantity)),
    commissionAmount: amountText(commission),
    vatAmount: amountText(vat),
    netExecutedAmount: amountText(net),
    totalExecutedAmount: amountText(total),
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

/** How an order ended: filled, or refused with a reason. */
export interface Outcome {
  readonly status: OrderStatus;
  readonly amounts: FillAmounts;
  readonly estimatedPrice: Dec | null;
  readonly rejectionReason: OrderRejectionReason | null;
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
    type: 'MARKET',
    amountField: request.amountField,
    ...outcome.amounts,
    status: outcome.status,
    estimatedPrice: amountText(outcome.estimatedPrice ?? new Dec(0)),
    commissionRate: amountText(new Dec(rates.commissionRate)),
    vatRate: amountText(new Dec(rates.vatRate)),
    commissionAsset: request.quote,
    rejectionReason: outcome.rejectionReason,
    createdAt: new Date(0),
    updatedAt: new Date(0),
  };
}

function round(value: Dec, rounding: Decimal.Rounding = Decimal.ROUND_HALF_UP): Dec {
  return value.toDecimalPlaces(8, rounding);
}
