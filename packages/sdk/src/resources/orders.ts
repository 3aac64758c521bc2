// The client's `orders` group: place, read, list, cancel and replace orders.
import { randomUUID } from 'node:crypto';

import { PageRequest } from '../pagination.js';
import type { RequestOptions } from '../transport.js';
import type {
  CreateOrderParams,
  ListOrdersParams,
  Order,
  OrderList,
  Page,
  PageParams,
  ReplaceOrderParams,
} from '../types.js';
import { path, pick, requireId, type Call } from './call.js';

export class OrdersResource {
  constructor(private readonly call: Call) {}

  /**
   * POST /api/v1/orders/: an order of any type. A failed business check is not an error: the order comes back
   * with status REJECTED and its rejectionReason. Retried like a read: `clientOrderId` (generated when
   * left out) makes a repeat answer the same order.
   */
  create(params: CreateOrderParams, options?: RequestOptions): Promise<Order> {
    const hasQuantity = params.quantity !== undefined;
    const hasQuote = params.quoteQuantity !== undefined;
    if (hasQuantity === hasQuote) {
      throw new TypeError('give exactly one of quantity and quoteQuantity');
    }
    const body = {
      orgUserId: params.orgUserId,
      clientOrderId: params.clientOrderId ?? randomUUID(),
      symbol: params.symbol,
      side: params.side,
      type: params.type,
      ...(hasQuantity ? { quantity: params.quantity } : { quoteQuantity: params.quoteQuantity }),
      ...(params.timeInForce === undefined ? {} : { timeInForce: params.timeInForce }),
      ...(params.limitPrice === undefined ? {} : { limitPrice: params.limitPrice }),
      ...(params.stopPrice === undefined ? {} : { stopPrice: params.stopPrice }),
      ...(params.expireAt === undefined ? {} : { expireAt: params.expireAt }),
    };
    return this.call(
      { method: 'POST', path: path('orders'), body: { kind: 'json', value: body }, idempotent: true },
      options,
    );
  }

  get(id: number | string, options?: RequestOptions): Promise<Order> {
    return this.call({ method: 'GET', path: path('orders', String(id)), idempotent: true }, options);
  }

  getByClientOrderId(clientOrderId: string, options?: RequestOptions): Promise<Order> {
    const key = requireId('clientOrderId', clientOrderId);
    return this.call({ method: 'GET', path: path('orders', 'client', key), idempotent: true }, options);
  }

  /**
   * DELETE /api/v1/orders/{id}/: cancels the rest of an open order. Retried like a read: a repeat finds
   * the order CANCELLED and is a 409 (SvcConflictError) naming its status.
   */
  cancel(id: number | string, options?: RequestOptions): Promise<Order> {
    return this.call({ method: 'DELETE', path: path('orders', String(id)), idempotent: false }, options);
  }

  cancelByClientOrderId(clientOrderId: string, options?: RequestOptions): Promise<Order> {
    const key = requireId('clientOrderId', clientOrderId);
    return this.call({ method: 'DELETE', path: path('orders', 'client', key), idempotent: false }, options);
  }

  /** DELETE /api/v1/user/{orgUserId}/orders/: cancels every open order of the user. */
  cancelAll(orgUserId: string, options?: RequestOptions): Promise<OrderList> {
    const user = requireId('orgUserId', orgUserId);
    return this.call({ method: 'DELETE', path: path('user', user, 'orders'), idempotent: false }, options);
  }

  /**
   * PATCH /api/v1/orders/{id}/: replaces an open order by a new one (the old one CANCELLED, REPLACED).
   * Retried safely: `clientOrderId` (generated when left out) makes a repeat answer the same new order.
   */
  replace(id: number | string, params: ReplaceOrderParams, options?: RequestOptions): Promise<Order> {
    const body = { ...params, clientOrderId: params.clientOrderId ?? randomUUID() };
    return this.call(
      {
        method: 'PATCH',
        path: path('orders', String(id)),
        body: { kind: 'json', value: body },
        idempotent: true,
      },
      options,
    );
  }

  list(params: ListOrdersParams = {}, options?: RequestOptions): PageRequest<Order> {
    return new PageRequest(
      (page: PageParams) =>
        this.call<Page<Order>>(
          {
            method: 'GET',
            path: path('orders'),
            query: {
              orgUserId: params.orgUserId,
              symbol: params.symbol,
              side: params.side,
              status: params.status,
              clientOrderId: params.clientOrderId,
              limit: page.limit,
              cursor: page.cursor,
            },
            idempotent: true,
          },
          options,
        ),
      pick(params),
    );
  }
}
