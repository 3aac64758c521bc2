// What becomes of a new order in its placement's transaction, with its user locked (docs/api-guide.md#orders):
// a MARKET order fills in full at once or is refused; an order of another type is checked with what it
// reserves, fills at once as far as its pair's book allows within its limit (once its stop is reached),
// and then rests, is cancelled (IOC) or is refused whole (FOK).
import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

import { badRequest } from '../common/errors.js';
import { Dec, fitsAmount } from '../common/decimal.js';
import { costFills, NO_FILLS } from './fill-math.js';
import { ExecutionRepository, type PairMarket } from './execution.repository.js';
import {
  executionLimit,
  filledQuantity,
  type MatchedFill,
  matchQuantity,
  matchQuote,
  stopReached,
  takerSide,
} from './matching.js';
import {
  failedCheck,
  type OrderRequest,
  orderAmounts,
  type Outcome,
  sizeOrder,
  type Sizing,
  type TradingFacts,
  unfilledAmounts,
} from './order-math.js';
import { holdPrice, holdValue } from './reservations.js';
import { VENUE, type Venue } from './venue.js';

@Injectable()
export class OrderDecisions {
  constructor(
    private readonly execution: ExecutionRepository,
    @Inject(VENUE) private readonly venue: Venue,
  ) {}

  /** A MARKET order: filled in full, or REJECTED (FAILED when the venue fails). */
  async market(manager: EntityManager, request: OrderRequest, facts: TradingFacts): Promise<Outcome> {
    const { markPrice } = facts;
    if (facts.hasLevels && markPrice && !facts.halted) return this.marketOnLevels(manager, request, facts);
    const sizing = markPrice && sizeOrder(request, markPrice);
    if (sizing && (!fitsAmount(sizing.quantity) || !fitsAmount(sizing.value))) throw tooLarge(request);
    const reason = failedCheck(request, facts, sizing);
    if (reason !== null || !sizing) return refused(request, markPrice, reason ?? 'PRICE_UNAVAILABLE');
    let price: Dec;
    try {
      ({ price } = await this.venue.execute(
        {
          clientOrderId: request.clientOrderId,
          symbol: request.symbol,
          side: request.side,
          quantity: sizing.quantity,
          markPrice,
        },
        manager,
      ));
    } catch {
      return { ...refused(request, markPrice, 'VENUE_ERROR'), status: 'FAILED' };
    }
    return filled(request, facts, [{ price, quantity: sizing.quantity }], markPrice, false);
  }

  /**
   * A MARKET order on a pair with price levels: it walks the book from the best level; the checks see what
   * it would fill, and a book that cannot fill it in full refuses it (INSUFFICIENT_LIQUIDITY).
   */
  private async marketOnLevels(
    manager: EntityManager,
    request: OrderRequest,
    facts: TradingFacts,
  ): Promise<Outcome> {
    const { markPrice } = facts;
    if (!markPrice) throw new Error('a MARKET order on levels needs the operator price');
    const levels = takerSide((await this.lockMarket(manager, request)).book, request.side);
    const { fills, complete } =
      request.amountField === 'quantity'
        ? completeFill(matchQuantity(levels, request.side, null, request.amount), request.amount)
        : matchQuote(levels, request.amount);
    let sizing: Sizing = sizeOrder(request, markPrice);
    if (complete) {
      const { totals } = costFills(request.side, NO_FILLS, fills, facts.policy);
      const value = request.amountField === 'quantity' ? totals.net : request.amount;
      sizing = { quantity: totals.filled, value };
    }
    if (!fitsAmount(sizing.quantity) || !fitsAmount(sizing.value)) throw tooLarge(request);
    const reason = failedCheck(request, facts, sizing) ?? (complete ? null : 'INSUFFICIENT_LIQUIDITY');
    if (reason !== null) return refused(request, markPrice, reason);
    return filled(request, facts, fills, markPrice, true);
  }

  /**
   * An order other than MARKET: checked with what it reserves, then filled at once as far as the book
   * allows; the rest rests (GTC, DAY, GTD) or is cancelled (IOC); FOK is refused unless it fills in full.
   */
  async resting(manager: EntityManager, request: OrderRequest, facts: TradingFacts): Promise<Outcome> {
    const { terms } = request;
    if (!terms) throw new Error('an order other than MARKET has terms');
    const { markPrice } = facts;
    const price = holdPrice(terms.limitPrice, terms.stopPrice);
    const sizing = {
      quantity: request.amount,
      value: holdValue(request.side, request.amount, price, facts.policy),
    };
    if (!fitsAmount(sizing.value)) throw tooLarge(request);
    const reason = failedCheck(request, facts, sizing);
    if (reason !== null) return refused(request, markPrice, reason);
    const triggered =
      terms.stopPrice === null ||
      (markPrice !== null && stopReached(request.side, terms.stopPrice, markPrice));
    let fills: MatchedFill[] = [];
    let fromLevels = false;
    // A pair without an operator price has no market: the order rests until it has one.
    if (triggered && markPrice !== null) {
      const market = await this.lockMarket(manager, request);
      fromLevels = market.hasLevels;
      const limit = executionLimit(terms.type, terms.limitPrice);
      fills = matchQuantity(takerSide(market.book, request.side), request.side, limit, request.amount);
    }
    const quantity = filledQuantity(fills);
    if (terms.timeInForce === 'FOK' && quantity.lt(request.amount)) {
      return refused(request, markPrice, 'INSUFFICIENT_LIQUIDITY');
    }
    const outcome = filled(request, facts, fills, markPrice, fromLevels);
    const triggeredAt = terms.stopPrice !== null && triggered ? new Date() : null;
    if (quantity.eq(request.amount)) return { ...outcome, triggeredAt };
    if (terms.timeInForce === 'IOC') {
      return { ...outcome, status: 'CANCELLED', cancelReason: 'IMMEDIATE_OR_CANCEL', triggeredAt };
    }
    return { ...outcome, status: quantity.isZero() ? 'PENDING' : 'PARTIALLY_FILLED', triggeredAt };
  }

  private async lockMarket(manager: EntityManager, request: OrderRequest): Promise<PairMarket> {
    const market = (await this.execution.lockMarkets(manager, [request.symbol])).get(request.symbol);
    if (!market) throw new Error(`the market of ${request.symbol} was not read`);
    return market;
  }
}

function completeFill(fills: MatchedFill[], quantity: Dec): { fills: MatchedFill[]; complete: boolean } {
  return { fills, complete: filledQuantity(fills).eq(quantity) };
}

/** The outcome of an order that filled `fills` (COMPLETED; the caller says otherwise for a rest). */
function filled(
  request: OrderRequest,
  facts: TradingFacts,
  fills: readonly MatchedFill[],
  markPrice: Dec | null,
  fromLevels: boolean,
): Outcome {
  const { costs, totals } = costFills(request.side, NO_FILLS, fills, facts.policy);
  const last = costs.at(-1)?.price ?? null;
  return {
    status: 'COMPLETED',
    amounts: orderAmounts(request, totals, last),
    estimatedPrice: markPrice,
    rejectionReason: null,
    fills: costs,
    fromLevels,
  };
}

function refused(request: OrderRequest, markPrice: Dec | null, reason: Outcome['rejectionReason']): Outcome {
  return {
    status: 'REJECTED',
    amounts: unfilledAmounts(request),
    estimatedPrice: markPrice,
    rejectionReason: reason,
  };
}

export const tooLarge = (request: OrderRequest) =>
  badRequest(
    `${request.amountField} is too large: the order's amounts (quantity x price, fees, the position) ` +
      'must have at most 30 digits before the point (numeric(38,8))',
  );
