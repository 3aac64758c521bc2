// What open orders hold against the organisation's limits while they rest (docs/api-guide.md#orders,
// "Limits and reservations"): a BUY its quote amount with fees and VAT at its limit price (a STOP BUY at its
// stop price), a SELL its base quantity. Pure, so the placement and the sweep count them alike.
import type { OrderSide } from '@svc/protocol';

import { Dec } from '../common/decimal.js';
import { buyReservation, type Rates, round } from './fill-math.js';
import { NO_RESERVATIONS, type Reservations } from './order-math.js';

/** An open order as the limits see it. */
export interface OpenHold {
  readonly side: OrderSide;
  readonly base: string;
  readonly quote: string;
  /** What is left to fill, in the base asset. */
  readonly remaining: Dec;
  /** The limit price, else the stop price. */
  readonly price: Dec;
  readonly rates: Rates;
}

/** What `holds` reserve for an order of the pair base_quote. */
export function reservationsOf(holds: readonly OpenHold[], base: string, quote: string): Reservations {
  let reserved = NO_RESERVATIONS;
  for (const hold of holds) {
    if (hold.side === 'BUY') {
      const amount =
        hold.quote === quote ? buyReservation(hold.remaining, hold.price, hold.rates) : new Dec(0);
      reserved = {
        quote: reserved.quote.plus(amount),
        buyQuote: reserved.buyQuote.plus(amount),
        buyBase: hold.base === base ? reserved.buyBase.plus(hold.remaining) : reserved.buyBase,
        sellBase: reserved.sellBase,
      };
    } else {
      const value = hold.quote === quote ? round(hold.remaining.times(hold.price)) : new Dec(0);
      reserved = {
        ...reserved,
        quote: reserved.quote.plus(value),
        sellBase: hold.base === base ? reserved.sellBase.plus(hold.remaining) : reserved.sellBase,
      };
    }
  }
  return reserved;
}

/** The price a resting order is held to: its limit price, else its stop price. */
export function holdPrice(limitPrice: Dec | null, stopPrice: Dec | null): Dec {
  const price = limitPrice ?? stopPrice;
  if (price === null) throw new Error('a resting order has a limit or a stop price');
  return price;
}

/**
 * What an order of `quantity` at `price` is worth against the limits: a BUY with fees and VAT, a SELL its
 * net.
 */
export function holdValue(side: OrderSide, quantity: Dec, price: Dec, rates: Rates): Dec {
  return side === 'BUY' ? buyReservation(quantity, price, rates) : round(quantity.times(price));
}
