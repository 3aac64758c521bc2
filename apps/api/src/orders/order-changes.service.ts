// Cancel and replace (docs/api-guide.md#orders, docs/decisions.md, "Orders: cancel and replace"). Each locks
// the order first, so it waits for a sweep deciding the same order and then sees what the sweep did: an
// order is cancelled or filled, never both. Only an open order (PENDING, PARTIALLY_FILLED) can be cancelled
// or replaced; anything else is a 409 naming its status. A replace cancels the old order (REPLACED) and
// places the new one, with `replaces` = the old id, in one transaction.
import { Injectable } from '@nestjs/common';
import { type Order, transaction } from '@svc/db';
import { OPEN_ORDER_STATUSES, type Order as OrderRecord } from '@svc/protocol';
import { DataSource, type EntityManager } from 'typeorm';

import { conflict, notFound } from '../common/errors.js';
import { Dec } from '../common/decimal.js';
import { OutboxService } from '../outbox/outbox.service.js';
import type { CreateOrderDto } from './dto/create-order.dto.js';
import type { ReplaceOrderDto } from './dto/replace-order.dto.js';
import { changed } from './order-math.js';
import { orderRequest } from './order-terms.js';
import { orderRecord } from './order.view.js';
import { OrdersRepository } from './orders.repository.js';
import { OrdersService, UUID } from './orders.service.js';

export type OrderKey = { id: string } | { clientOrderId: string };

@Injectable()
export class OrderChangesService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly orders: OrdersRepository,
    private readonly placing: OrdersService,
    private readonly events: OutboxService,
  ) {}

  /** Cancels the rest of an open order; answers it CANCELLED (REQUESTED). */
  cancel(orgId: number, given: OrderKey): Promise<OrderRecord> {
    const key = 'id' in given ? given : { clientOrderId: given.clientOrderId.toLowerCase() };
    return transaction(this.dataSource, async (manager) => {
      const order = await this.lockOpen(manager, orgId, key, 'cancelled');
      const [record] = await this.close(manager, [order], 'REQUESTED');
      if (!record) throw new Error('the cancelled order has no record');
      return record;
    });
  }

  /** Cancels every open order of the user, oldest first; answers them CANCELLED (REQUESTED). */
  cancelAll(orgId: number, orgUserId: string): Promise<{ items: OrderRecord[] }> {
    return transaction(this.dataSource, async (manager) => {
      const open = await this.orders.lockOpen(manager, orgId, orgUserId);
      if (open.length === 0 && !(await this.orders.userExists(orgId, orgUserId))) {
        throw notFound(`no user with orgUserId ${JSON.stringify(orgUserId)}`);
      }
      return { items: await this.close(manager, open, 'REQUESTED') };
    });
  }

  /**
   * Replaces an open order by a new one (Alpaca's replace): the old one CANCELLED (REPLACED), the new one
   * placed with `replaces` = its id, both in one transaction. A retry with the same clientOrderId answers
   * the same new order. A replacement the checks would refuse leaves the old order as it was (409).
   */
  async replace(orgId: number, id: string, input: ReplaceOrderDto): Promise<OrderRecord> {
    const clientOrderId = input.clientOrderId.toLowerCase();
    return transaction(this.dataSource, async (manager) => {
      const old = validId(id) ? await this.orders.lock(manager, orgId, { id }) : null;
      if (!old) throw notFound(`no order ${JSON.stringify(id)}`);
      const earlier = await this.orders.findByClientOrderId(manager, orgId, clientOrderId);
      if (earlier && earlier.replaces === old.id) return orderRecord(earlier);
      refuseFinal(old, 'replaced');
      const request = orderRequest(replacement(old, input, clientOrderId), new Date(), old.id);
      await this.close(manager, [old], 'REPLACED');
      const { record } = await this.placing.placeIn(manager, orgId, request);
      if (record.replaces !== Number(old.id)) {
        throw conflict(`clientOrderId ${clientOrderId} was used for another order`);
      }
      if (record.status === 'REJECTED') {
        throw conflict(
          `the replacement would be REJECTED (${record.rejectionReason}): order ${old.id} is left as it was`,
        );
      }
      return record;
    });
  }

  private async lockOpen(manager: EntityManager, orgId: number, key: OrderKey, verb: string): Promise<Order> {
    const valid = 'id' in key ? validId(key.id) : UUID.test(key.clientOrderId);
    const order = valid ? await this.orders.lock(manager, orgId, key) : null;
    if (!order) throw notFound(`no order ${JSON.stringify('id' in key ? key.id : key.clientOrderId)}`);
    refuseFinal(order, verb);
    return order;
  }

  /** The orders CANCELLED with `reason`, written with one Orders event each; answers their records. */
  private async close(
    manager: EntityManager,
    orders: readonly Order[],
    reason: string,
  ): Promise<OrderRecord[]> {
    if (orders.length === 0) return [];
    const cancelled = orders.map((order) => changed(order, { status: 'CANCELLED', cancelReason: reason }));
    const at = await this.orders.cancel(
      manager,
      cancelled.map((order) => order.id),
      reason,
    );
    for (const order of cancelled) order.updatedAt = at;
    const records = cancelled.map(orderRecord);
    await this.events.recordMany(
      manager,
      records.map((record) => ({ orgId: record.orgId, entity: 'Orders', data: record })),
    );
    return records;
  }
}

const validId = (id: string) => /^[0-9]{1,15}$/.test(id);

function refuseFinal(order: Order, verb: string): void {
  if (!(OPEN_ORDER_STATUSES as readonly string[]).includes(order.status)) {
    throw conflict(
      `order ${order.id} is ${order.status}: only a PENDING or PARTIALLY_FILLED order can be ${verb}`,
    );
  }
}

/** The new order's request: what the replace gives, the rest from the old order. */
function replacement(old: Order, input: ReplaceOrderDto, clientOrderId: string): CreateOrderDto {
  const remaining = new Dec(old.quantity).minus(old.filled);
  const timeInForce = input.timeInForce ?? old.timeInForce ?? 'GTC';
  const keepExpiry = timeInForce === 'GTD' && old.timeInForce === 'GTD' && old.expireAt !== null;
  const price = (given: Dec | undefined, stored: string | null) =>
    given ?? (stored === null ? undefined : new Dec(stored));
  const body = {
    orgUserId: old.orgUserId,
    clientOrderId,
    symbol: old.symbol,
    side: old.side,
    type: old.type,
    quantity: input.quantity ?? remaining,
    timeInForce,
    limitPrice: price(input.limitPrice, old.limitPrice),
    stopPrice: price(input.stopPrice, old.stopPrice),
    expireAt: input.expireAt ?? (keepExpiry ? old.expireAt?.toISOString() : undefined),
  };
  return Object.fromEntries(
    Object.entries(body).filter(([, value]) => value !== undefined),
  ) as unknown as CreateOrderDto;
}
