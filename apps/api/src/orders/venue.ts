// Where market orders are executed (docs/decisions.md, "Orders: one transaction per order"). The service
// decides whether an order may trade; the venue says at what price it filled. Another venue (a broker's or an
// exchange's adapter) is passed to the app as `AppDependencies.venue`.
import type { OrderSide } from '@svc/protocol';
import type { EntityManager } from 'typeorm';

import type { Dec } from '../common/decimal.js';

export const VENUE = Symbol('VENUE');

export interface VenueOrder {
  readonly clientOrderId: string;
  readonly symbol: string;
  readonly side: OrderSide;
  /** Base quantity to fill, 8 decimals. */
  readonly quantity: Dec;
  /** The operator price the checks were made with, read in this transaction. */
  readonly markPrice: Dec;
}

export interface VenueFill {
  /** Quote currency per unit of base, at most 8 decimals. */
  readonly price: Dec;
}

export interface Venue {
  /**
   * Fills a market order in full. Called inside the order's transaction with the user's row locked, so
   * it must answer quickly; an exception makes the order FAILED with VENUE_ERROR and changes no position.
   */
  execute(order: VenueOrder, manager: EntityManager): Promise<VenueFill>;
}

/**
 * The default venue: fills at the operator-set price of the pair (PUT /api/v1/admin/prices/{symbol}/),
 * which the order's transaction has just read as its mark price.
 */
export class OperatorPriceVenue implements Venue {
  execute(order: VenueOrder): Promise<VenueFill> {
    return Promise.resolve({ price: order.markPrice });
  }
}
