// The request of POST /api/v1/orders/ as the service works with it (docs/api-guide.md#orders): which prices
// and time in force each type takes, checked with a 400 naming the field and the rule before anything is
// read or written.
import type { TimeInForce } from '@svc/protocol';

import { pairOf } from '../common/assets.js';
import { badRequest } from '../common/errors.js';
import type { Dec } from '../common/decimal.js';
import { parseInstant } from '../common/instant.js';
import type { CreateOrderDto } from './dto/create-order.dto.js';
import type { OrderRequest, OrderTerms } from './order-math.js';

/** The next 00:00 UTC after `now`: when a DAY order expires (the market never closes). */
export function endOfDay(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
}

/** The request, exact and checked; `replaces` is the id of the order a replacement takes the place of. */
export function orderRequest(input: CreateOrderDto, now: Date, replaces: string | null = null): OrderRequest {
  const quantity = input.quantity ?? null;
  const quoteQuantity = input.quoteQuantity ?? null;
  if ((quantity === null) === (quoteQuantity === null)) {
    throw badRequest('send exactly one of quantity and quoteQuantity');
  }
  const { base, quote } = pairOf(input.symbol);
  const request = {
    orgUserId: input.orgUserId,
    clientOrderId: input.clientOrderId.toLowerCase(),
    symbol: input.symbol,
    base,
    quote,
    side: input.side,
    amountField: quantity === null ? 'quoteQuantity' : 'quantity',
    amount: (quantity ?? quoteQuantity) as Dec,
  } as const;
  if (input.type === 'MARKET') {
    refuseMarketTerms(input);
    return request;
  }
  if (quoteQuantity !== null) {
    throw badRequest(`quoteQuantity is taken by MARKET orders only: a ${input.type} order takes quantity`);
  }
  return { ...request, terms: orderTerms(input, now, replaces) };
}

function refuseMarketTerms(input: CreateOrderDto): void {
  for (const field of ['timeInForce', 'limitPrice', 'stopPrice', 'expireAt'] as const) {
    if (input[field] !== undefined) {
      throw badRequest(`${field} is not taken by MARKET orders, which fill in full at once or are refused`);
    }
  }
}

function orderTerms(input: CreateOrderDto, now: Date, replaces: string | null): OrderTerms {
  const type = input.type as OrderTerms['type'];
  const takesLimit = type === 'LIMIT' || type === 'STOP_LIMIT';
  const takesStop = type === 'STOP' || type === 'STOP_LIMIT';
  const limitPrice = price(input.limitPrice, 'limitPrice', type, takesLimit);
  const stopPrice = price(input.stopPrice, 'stopPrice', type, takesStop);
  const timeInForce: TimeInForce = input.timeInForce ?? 'GTC';
  if ((timeInForce === 'IOC' || timeInForce === 'FOK') && type !== 'LIMIT') {
    throw badRequest(
      `timeInForce ${timeInForce} is taken by LIMIT orders only: a ${type} order rests until its stop is reached (GTC, DAY or GTD)`,
    );
  }
  return { type, timeInForce, limitPrice, stopPrice, expireAt: expiry(input, timeInForce, now), replaces };
}

function price(value: Dec | undefined, field: string, type: string, takes: boolean): Dec | null {
  if (takes && value === undefined) throw badRequest(`${field} is required for orders of type ${type}`);
  if (!takes && value !== undefined) throw badRequest(`${field} is not taken by orders of type ${type}`);
  return value ?? null;
}

function expiry(input: CreateOrderDto, timeInForce: TimeInForce, now: Date): Date | null {
  if (timeInForce !== 'GTD') {
    if (input.expireAt !== undefined) throw badRequest('expireAt is taken with timeInForce GTD only');
    return timeInForce === 'DAY' ? endOfDay(now) : null;
  }
  if (input.expireAt === undefined) throw badRequest('expireAt is required with timeInForce GTD');
  const at = parseInstant(input.expireAt);
  if (!at || at <= now) throw badRequest('expireAt must be in the future');
  return at;
}
