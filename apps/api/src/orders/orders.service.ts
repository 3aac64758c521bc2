// Market orders of an organisation's users (docs/api-guide.md#orders-events, docs/decisions.md, "Orders: one
// transaction per order"). One transaction per order: lock the user, read the facts the checks need, fill
// through the venue or reject, store the order, move the position and record the Orders event, so an order,
// its position change and its event commit together.
import { Inject, Injectable } from '@nestjs/common';
import { type Order, type OrgPolicy, transaction } from '@svc/db';
import { DataSource, type EntityManager } from 'typeorm';

import { pairOf } from '../common/assets.js';
import { badRequest, conflict, notFound } from '../common/errors.js';
import { Dec, exactNumber, fitsAmount } from '../common/decimal.js';
import { csvChunks } from '../common/csv.js';
import type { TimeRange } from '../common/export-range.js';
import { keysetBatches, mapBatches } from '../common/keyset-batches.js';
import { mapPage, type Page, type PageOrder } from '../common/pagination.js';
import { OutboxService } from '../outbox/outbox.service.js';
import { MetricsService } from '../metrics/metrics.service.js';
import { type SandboxOrderOutcome, sandboxOrderOutcome } from '../sandbox/magic-values.js';
import { OrgClock } from '../sandbox/org-clock.service.js';
import type { CreateOrderDto } from './dto/create-order.dto.js';
import type { ListOrdersQuery } from './dto/list-orders.query.js';
import {
  failedCheck,
  fillAmounts,
  newOrder,
  type Outcome,
  type OrderRequest,
  sizeOrder,
  type TradingFacts,
  unfilledAmounts,
} from './order-math.js';
import { ORDER_CSV_HEADER, orderCsvRow } from './order-csv.js';
import { orderRecord } from './order.view.js';
import { type LockedUser, OrdersRepository } from './orders.repository.js';
import { VENUE, type Venue } from './venue.js';

/** Rows per statement of an export: big enough that a million take a minute, small enough to hold. */
const EXPORT_BATCH = 2000;

const UNIQUE_VIOLATION = '23505';

export interface PositionsView {
  readonly orgUserId: string;
  readonly positions: { asset: string; quantity: number; updatedAt: string }[];
}

@Injectable()
export class OrdersService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly orders: OrdersRepository,
    private readonly events: OutboxService,
    @Inject(VENUE) private readonly venue: Venue,
    private readonly metrics: MetricsService,
    private readonly clock: OrgClock,
  ) {}

  /** Places a market order; a failed check answers a REJECTED order, not an error. */
  async place(orgId: number, input: CreateOrderDto) {
    const request = orderRequest(input);
    try {
      const { record, placed } = await transaction(this.dataSource, (manager) =>
        this.placeLocked(manager, orgId, request),
      );
      if (placed) this.metrics.orderPlaced(record.status, record.rejectionReason);
      return record;
    } catch (error) {
      // Two requests with one new clientOrderId raced (for different users, or one lost the lock wait):
      // the loser answers like any retry.
      if ((error as { code?: string }).code !== UNIQUE_VIOLATION) throw error;
      return this.replay(this.dataSource.manager, orgId, request);
    }
  }

  private async placeLocked(manager: EntityManager, orgId: number, request: OrderRequest) {
    const user = await this.orders.lockUser(manager, orgId, request);
    if (!user || user.existing_order_id !== null) {
      return { record: await this.replay(manager, orgId, request), placed: false };
    }
    const facts = await this.orders.readFacts(manager, user, request);
    const outcome = await this.decide(manager, request, facts, await this.magic(manager, orgId, request));
    refuseOverflow(request, outcome, facts);
    const order = await this.insertOrder(manager, orgId, user, request, facts.policy, outcome);
    if (order.status === 'COMPLETED') await this.orders.movePosition(manager, order, request.base);
    const record = orderRecord(order);
    await this.events.record(manager, { orgId, entity: 'Orders', data: record });
    return { record, placed: true };
  }

  /**
   * The outcome a magic clientOrderId asks for in a sandbox organisation (docs/testing.md#magic-values),
   * else null. The organisation is read only for a magic id, so ordinary orders pay nothing for it.
   */
  private async magic(manager: EntityManager, orgId: number, request: OrderRequest) {
    const outcome = sandboxOrderOutcome(request.clientOrderId);
    return outcome && (await this.clock.isSandbox(orgId, manager)) ? outcome : null;
  }

  /** Checks the order and fills it through the venue, or says why not. */
  private async decide(
    manager: EntityManager,
    request: OrderRequest,
    facts: TradingFacts,
    magic: SandboxOrderOutcome | null,
  ): Promise<Outcome> {
    const { markPrice } = facts;
    const sizing = markPrice && sizeOrder(request, markPrice);
    if (sizing && (!fitsAmount(sizing.quantity) || !fitsAmount(sizing.value))) throw tooLarge(request);
    // Filling partially waits for orders that rest; a MARKET order with that id fills whole meanwhile.
    if (magic && magic.kind !== 'fill-partially') {
      return {
        status: magic.kind === 'reject' ? 'REJECTED' : 'FAILED',
        amounts: unfilledAmounts(request),
        estimatedPrice: markPrice,
        rejectionReason: magic.reason,
      };
    }
    const reason = failedCheck(request, facts, sizing);
    if (reason !== null || !sizing) {
      return {
        status: 'REJECTED',
        amounts: unfilledAmounts(request),
        estimatedPrice: markPrice,
        rejectionReason: reason ?? 'PRICE_UNAVAILABLE',
      };
    }
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
      return {
        status: 'FAILED',
        amounts: unfilledAmounts(request),
        estimatedPrice: markPrice,
        rejectionReason: 'VENUE_ERROR',
      };
    }
    return {
      status: 'COMPLETED',
      amounts: fillAmounts(request, sizing.quantity, price, facts.policy),
      estimatedPrice: markPrice,
      rejectionReason: null,
    };
  }

  private async insertOrder(
    manager: EntityManager,
    orgId: number,
    user: LockedUser,
    request: OrderRequest,
    policy: OrgPolicy,
    outcome: Outcome,
  ): Promise<Order> {
    return this.orders.insert(manager, newOrder(orgId, user.id, request, policy, outcome));
  }

  /**
   * The answer to a clientOrderId already used: the order itself when the parameters are the same, else
   * 409. Also the answer for an unknown user, once no order claims the clientOrderId.
   */
  private async replay(manager: EntityManager, orgId: number, request: OrderRequest) {
    const order = await this.orders.findByClientOrderId(manager, orgId, request.clientOrderId);
    if (!order) throw notFound(`no user with orgUserId ${JSON.stringify(request.orgUserId)}`);
    const differs = differingParameter(order, request);
    if (differs !== null) {
      throw conflict(
        `clientOrderId ${request.clientOrderId} was used for another order (${differs} differs)`,
      );
    }
    return orderRecord(order);
  }

  async get(orgId: number, id: string) {
    const order = /^[0-9]{1,15}$/.test(id) ? await this.orders.findById(orgId, id) : null;
    if (!order) throw notFound(`no order ${JSON.stringify(id)}`);
    return orderRecord(order);
  }

  async list(
    orgId: number,
    query: ListOrdersQuery,
    order?: PageOrder,
  ): Promise<Page<ReturnType<typeof orderRecord>>> {
    return mapPage(await this.orders.list(orgId, query, order), orderRecord);
  }

  /** The user's non-zero positions, by asset code. */
  /** The organisation's orders created in `range`, oldest first, as CSV read a batch at a time. */
  exportCsv(orgId: number, range: TimeRange): AsyncGenerator<string> {
    const batches = keysetBatches<Order, Order>(
      (after, size) => this.orders.exportBatch(orgId, range, after, size),
      (order) => order,
      EXPORT_BATCH,
    );
    return csvChunks(ORDER_CSV_HEADER, mapBatches(batches, orderCsvRow));
  }

  async positions(orgId: number, orgUserId: string): Promise<PositionsView> {
    const positions = await this.orders.positions(orgId, orgUserId);
    if (!positions) throw notFound(`no user with orgUserId ${JSON.stringify(orgUserId)}`);
    return {
      orgUserId,
      positions: positions.map(({ asset, quantity, updatedAt }) => ({
        asset,
        quantity: exactNumber(quantity),
        updatedAt: updatedAt.toISOString(),
      })),
    };
  }
}

/** The request as the service works with it: one amount, exact, and the pair split. */
function orderRequest(input: CreateOrderDto): OrderRequest {
  const quantity = input.quantity ?? null;
  const quoteQuantity = input.quoteQuantity ?? null;
  if ((quantity === null) === (quoteQuantity === null)) {
    throw badRequest('send exactly one of quantity and quoteQuantity');
  }
  const { base, quote } = pairOf(input.symbol);
  return {
    orgUserId: input.orgUserId,
    clientOrderId: input.clientOrderId.toLowerCase(),
    symbol: input.symbol,
    base,
    quote,
    side: input.side,
    amountField: quantity === null ? 'quoteQuantity' : 'quantity',
    amount: (quantity ?? quoteQuantity) as Dec,
  };
}

/**
 * An order whose amounts (quantity x price, fees, the new position) would not fit numeric(38,8) is a 400
 * naming its amount field, thrown inside the transaction so that nothing is written.
 */
function refuseOverflow(request: OrderRequest, outcome: Outcome, facts: TradingFacts): void {
  const amounts = Object.values(outcome.amounts).map((text: string) => new Dec(text));
  if (outcome.status === 'COMPLETED') {
    const filled = new Dec(outcome.amounts.filled);
    amounts.push(request.side === 'BUY' ? facts.holding.plus(filled) : facts.holding.minus(filled));
  }
  if (!amounts.every(fitsAmount)) throw tooLarge(request);
}

const tooLarge = (request: OrderRequest) =>
  badRequest(
    `${request.amountField} is too large: the order's amounts (quantity x price, fees, the position) ` +
      'must have at most 30 digits before the point (numeric(38,8))',
  );

/** The first parameter of `request` that the stored order does not share, or null. */
function differingParameter(order: Order, request: OrderRequest): string | null {
  if (order.orgUserId !== request.orgUserId) return 'orgUserId';
  if (order.symbol !== request.symbol) return 'symbol';
  if (order.side !== request.side) return 'side';
  if (order.amountField !== request.amountField) return request.amountField;
  const stored = order.amountField === 'quantity' ? order.quantity : order.quoteQuantity;
  if (!request.amount.eq(stored)) return request.amountField;
  return null;
}
