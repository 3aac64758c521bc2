// What each fill of an order costs and what the order's amounts become over its fills (docs/decisions.md,
// "Orders: fees over several fills"): pure functions over exact decimals. A fill's net is its own quantity x
// price rounded to 8 decimals; commission and VAT are computed on the order's running net and each fill
// pays the increase, so the fees of an order do not depend on how it was split.
import type { OrderSide } from '@svc/protocol';
import Decimal from 'decimal.js';

import { Dec, amountText } from '../common/decimal.js';
import type { MatchedFill } from './matching.js';

export interface Rates {
  readonly commissionRate: string;
  readonly vatRate: string;
}

/** What an order has executed so far: the sums over its fills. */
export interface Totals {
  readonly filled: Dec;
  readonly net: Dec;
  readonly commission: Dec;
  readonly vat: Dec;
  readonly total: Dec;
}

export const NO_FILLS: Totals = {
  filled: new Dec(0),
  net: new Dec(0),
  commission: new Dec(0),
  vat: new Dec(0),
  total: new Dec(0),
};

/** One fill as stored in order_fills. */
export interface FillCost {
  readonly price: Dec;
  readonly quantity: Dec;
  readonly net: Dec;
  readonly commission: Dec;
  readonly vat: Dec;
  /** What the user pays (BUY: net plus fees) or receives (SELL: net minus fees) for this fill. */
  readonly total: Dec;
}

export function round(value: Dec, rounding: Decimal.Rounding = Decimal.ROUND_HALF_UP): Dec {
  return value.toDecimalPlaces(8, rounding);
}

/** The fees on a net amount: commission on the net, VAT on the commission, each rounded half up. */
export function feesOn(net: Dec, rates: Rates): { commission: Dec; vat: Dec } {
  const commission = round(net.times(rates.commissionRate));
  return { commission, vat: round(commission.times(rates.vatRate)) };
}

/** The cost of `fill` for an order that has executed `before`. */
export function fillCost(side: OrderSide, before: Totals, fill: MatchedFill, rates: Rates): FillCost {
  const net = round(fill.quantity.times(fill.price));
  const after = feesOn(before.net.plus(net), rates);
  const commission = after.commission.minus(before.commission);
  const vat = after.vat.minus(before.vat);
  const fees = commission.plus(vat);
  return {
    price: fill.price,
    quantity: fill.quantity,
    net,
    commission,
    vat,
    total: side === 'BUY' ? net.plus(fees) : net.minus(fees),
  };
}

export function addFill(totals: Totals, fill: FillCost): Totals {
  return {
    filled: totals.filled.plus(fill.quantity),
    net: totals.net.plus(fill.net),
    commission: totals.commission.plus(fill.commission),
    vat: totals.vat.plus(fill.vat),
    total: totals.total.plus(fill.total),
  };
}

/** Costs `fills` one after the other, from `before`; answers each fill's cost and the totals after them. */
export function costFills(
  side: OrderSide,
  before: Totals,
  fills: readonly MatchedFill[],
  rates: Rates,
): { costs: FillCost[]; totals: Totals } {
  const costs: FillCost[] = [];
  let totals = before;
  for (const fill of fills) {
    const cost = fillCost(side, totals, fill, rates);
    costs.push(cost);
    totals = addFill(totals, cost);
  }
  return { costs, totals };
}

/**
 * What a BUY of `quantity` at `price` holds against the limits while it rests: its net with fees and VAT,
 * as one fill of it would cost.
 */
export function buyReservation(quantity: Dec, price: Dec, rates: Rates): Dec {
  const net = round(quantity.times(price));
  const { commission, vat } = feesOn(net, rates);
  return net.plus(commission).plus(vat);
}

/** The executed amounts of the order record (8 decimals), from its totals and the last fill's price. */
export interface ExecutedAmounts {
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
 * averagePrice is total per unit, baseAveragePrice net per unit (0 before the first fill); price is the
 * price of the last fill.
 */
export function executedAmounts(totals: Totals, lastPrice: Dec | null): ExecutedAmounts {
  const zero = totals.filled.isZero();
  return {
    filled: amountText(totals.filled),
    price: amountText(lastPrice ?? new Dec(0)),
    averagePrice: amountText(zero ? new Dec(0) : totals.total.div(totals.filled)),
    baseAveragePrice: amountText(zero ? new Dec(0) : totals.net.div(totals.filled)),
    commissionAmount: amountText(totals.commission),
    vatAmount: amountText(totals.vat),
    netExecutedAmount: amountText(totals.net),
    totalExecutedAmount: amountText(totals.total),
  };
}

/** An order row's totals, from its stored amounts. */
export function totalsOf(row: {
  filled: string;
  netExecutedAmount: string;
  commissionAmount: string;
  vatAmount: string;
  totalExecutedAmount: string;
}): Totals {
  return {
    filled: new Dec(row.filled),
    net: new Dec(row.netExecutedAmount),
    commission: new Dec(row.commissionAmount),
    vat: new Dec(row.vatAmount),
    total: new Dec(row.totalExecutedAmount),
  };
}
