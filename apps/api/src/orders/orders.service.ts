// Orders of an organisation's users (docs/api-guide.md#orders, docs/decisions.md, "Orders: one transaction
// per order"). One transaction per order: lock the user, read the facts the checks need, fill what fills at
// once (order-decisions.service.ts) or reject, store the order and its fills, move the position and record
// the Orders event, so an order, its fills, its position change and its event commit together.
import { Injectable } from '@nestjs/common';
import { type Order, type OrgPolicy, transaction } from '@svc/db';
import { DataSource, type EntityManager } from 'typeorm';

import { conflict, notFound } from '../common/errors.js';
import { Dec, exactNumber, fitsAmount } from '../common/decimal.js';
import { csvChunks } from '../common/csv.js';
import type { TimeRange } from '../common/export-range.js';
import { keysetBatches, mapBatches } from '../common/keyset-batches.js';
import { mapPage, type Page, type PageOrder } from '../common/pagination.js';
import { OutboxService } from '../outbox/outbox.service.js';
import { MetricsService } from '../metrics/metrics.service.js';
import { sandboxOrderOutcome } from '../sandbox/magic-values.js';
import { OrgClock } from '../sandbox/org-clock.service.js';
import type { CreateOrderDto } from './dto/create-order.dto.js';
import type { ListOrdersQuery } from './dto/list-orders.query.js';
import { ExecutionRepository } from './execution.repository.js';
import { OrderDecisions, tooLarge } from './order-decisions.service.js';
import {
  newOrder,
  type Outcome,
  type OrderRequest,
  type TradingFacts,
  unfilledAmounts,
} from './order-math.js';
import { ORDER_CSV_HEADER, orderCsvRow } from './order-csv.js';
import { orderRequest } from './order-terms.js';
import { orderRecord } from './order.view.js';
import { type LockedUser, OrdersRepository } from './orders.repository.js';

/** Rows per statement of an export: big enough that a million take a minute, small enough to hold. */
const EXPORT_BATCH = 2000;

const UNIQUE_VIOLATION = '23505';
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export interface PositionsView {
  readonly orgUserId: string;
  readonly positions: { asset: string; quantity: number; updatedAt: string }[];
}

@Injectable()
export class OrdersService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly orders: OrdersRepository,
    private readonly execution: ExecutionRepository,
    private readonly decisions: OrderDecisions,
    private readonly events: OutboxService,
    private readonly metrics: MetricsService,
    private readonly clock: OrgClock,
  ) {}

  /** Places an order; a failed check answers a REJECTED order, not an error. */
  async place(orgId: number, input: CreateOrderDto) {
    const request = orderRequest(input, new Date());
    try {
      const { record, placed } = await transaction(this.dataSource, (manager) =>
        this.placeIn(manager, orgId, request),
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

  /**
   * Places the order in the caller's transaction (a replace places its new order in its own); `placed` is
   * false when the clientOrderId answered an order placed before.
   */
  async placeIn(manager: EntityManager, orgId: number, request: OrderRequest) {
    const user = await this.orders.lockUser(manager, orgId, request);
    if (!user || user.existing_order_id !== null) {
      return { record: await this.replay(manager, orgId, request), placed: false };
    }
    const facts = await this.orders.readFacts(manager, user, request);
    const magic = await this.magic(manager, orgId, request, facts.markPrice);
    const outcome =
      magic ??
      (request.terms
        ? await this.decisions.resting(manager, request, facts)
        : await this.decisions.market(manager, request, facts));
    refuseOverflow(request, outcome, facts);
    const order = await this.insertOrder(manager, orgId, user, request, facts.policy, outcome);
    await this.execution.writeFills(
      manager,
      (outcome.fills ?? []).map((cost) => ({
        orderId: order.id,
        userId: user.id,
        orgId,
        symbol: request.symbol,
        base: request.base,
        side: request.side,
        fromLevel: outcome.fromLevels ?? false,
        cost,
      })),
    );
    const record = orderRecord(order);
    await this.events.record(manager, { orgId, entity: 'Orders', data: record });
    return { record, placed: true };
  }

  /**
   * The outcome a magic clientOrderId asks for in a sandbox organisation (docs/testing.md#magic-values): a
   * refusal with the reason it names, or a failure at the venue; else null. The organisation is read only for
   * a magic id, so ordinary orders pay nothing for it. Filling partially is left to the book: an order with
   * that id rests or fills as far as its pair's levels allow.
   */
  private async magic(
    manager: EntityManager,
    orgId: number,
    request: OrderRequest,
    markPrice: Dec | null,
  ): Promise<Outcome | null> {
    const magic = sandboxOrderOutcome(request.clientOrderId);
    if (!magic || magic.kind === 'fill-partially' || !(await this.clock.isSandbox(orgId, manager)))
      return null;
    return {
      status: magic.kind === 'reject' ? 'REJECTED' : 'FAILED',
      amounts: unfilledAmounts(request),
      estimatedPrice: markPrice,
      rejectionReason: magic.reason,
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

  async getByClientOrderId(orgId: number, clientOrderId: string) {
    const key = clientOrderId.toLowerCase();
    const order = UUID.test(key)
      ? await this.orders.findByClientOrderId(this.dataSource.manager, orgId, key)
      : null;
    if (!order) throw notFound(`no order with clientOrderId ${JSON.stringify(clientOrderId)}`);
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

/**
 * An order whose amounts (quantity x price, fees, the new position) would not fit numeric(38,8) is a 400
 * naming its amount field, thrown inside the transaction so that nothing is written.
 */
function refuseOverflow(request: OrderRequest, outcome: Outcome, facts: TradingFacts): void {
  const amounts = Object.values(outcome.amounts).map((text: string) => new Dec(text));
  const filled = new Dec(outcome.amounts.filled);
  if (filled.gt(0)) {
    amounts.push(request.side === 'BUY' ? facts.holding.plus(filled) : facts.holding.minus(filled));
  }
  if (!amounts.every(fitsAmount)) throw tooLarge(request);
}

/** The first parameter of `request` that the stored order does not share, or null. */
function differingParameter(order: Order, request: OrderRequest): string | null {
  if (order.orgUserId !== request.orgUserId) return 'orgUserId';
  if (order.symbol !== request.symbol) return 'symbol';
  if (order.side !== request.side) return 'side';
  if (order.amountField !== request.amountField) return request.amountField;
  const stored = order.amountField === 'quantity' ? order.quantity : order.quoteQuantity;
  if (!request.amount.eq(stored)) return request.amountField;
  if (order.type !== (request.terms?.type ?? 'MARKET')) return 'type';
  const { terms } = request;
  if (!terms) return null;
  if (order.timeInForce !== terms.timeInForce) return 'timeInForce';
  if (!samePrice(order.limitPrice, terms.limitPrice)) return 'limitPrice';
  if (!samePrice(order.stopPrice, terms.stopPrice)) return 'stopPrice';
  if (terms.timeInForce === 'GTD' && order.expireAt?.getTime() !== terms.expireAt?.getTime())
    return 'expireAt';
  return null;
}

function samePrice(stored: string | null, sent: Dec | null): boolean {
  return stored === null || sent === null ? stored === sent : sent.eq(stored);
}
