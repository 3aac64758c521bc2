// The client's `orders` group: place, read and list market orders.
import { randomUUID } from 'node:crypto';

import { PageRequest } from '../pagination.js';
import type { RequestOptions } from '../transport.js';
import type { CreateOrderParams, ListOrdersParams, Order, Page, PageParams } from '../types.js';
import { path, pick, type Call } from './call.js';

export class OrdersResource {
  constructor(private readonly call: Call) {}

  /**
   * POST /api/v1/orders/: a market order. A failed business check is not an error: the order comes back
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
    };
    return this.call(
      { method: 'POST', path: path('orders'), body: { kind: 'json', value: body }, idempotent: true },
      options,
    );
  }

  get(id: number | string, options?: RequestOptions): Promise<Order> {
    return this.call({ method: 'GET', path: path('orders', String(id)), idempotent: true }, options);
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
