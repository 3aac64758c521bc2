import type { Order as OrderRow } from '@svc/db';
import type { Order } from '@svc/protocol';

import { exactNumber } from '../common/decimal.js';

/**
 * The order record (docs/api-guide.md#orders-events), fields in the order of ORDER_SCHEMA (@svc/protocol),
 * which is the order they are sent in: what the api answers and what Orders events carry. Amounts are
 * written with exactly their stored digits. A MARKET order's record is the contract's fields alone; an order
 * of another type carries its lifecycle fields too, null where they do not apply.
 */
export function orderRecord(order: OrderRow): Order {
  const market = order.type === 'MARKET';
  return {
    id: Number(order.id),
    orgId: order.orgId,
    clientOrderId: order.clientOrderId,
    orgUserId: order.orgUserId,
    symbol: order.symbol,
    side: order.side,
    type: order.type,
    ...(market
      ? {}
      : {
          timeInForce: order.timeInForce ?? 'GTC',
          limitPrice: order.limitPrice === null ? null : exactNumber(order.limitPrice),
          stopPrice: order.stopPrice === null ? null : exactNumber(order.stopPrice),
          expireAt: order.expireAt?.toISOString() ?? null,
        }),
    quantity: exactNumber(order.quantity),
    quoteQuantity: exactNumber(order.quoteQuantity),
    filled: exactNumber(order.filled),
    status: order.status,
    price: exactNumber(order.price),
    averagePrice: exactNumber(order.averagePrice),
    estimatedPrice: exactNumber(order.estimatedPrice),
    baseAveragePrice: exactNumber(order.baseAveragePrice),
    commissionRate: exactNumber(order.commissionRate),
    vatRate: exactNumber(order.vatRate),
    commissionAmount: exactNumber(order.commissionAmount),
    vatAmount: exactNumber(order.vatAmount),
    netExecutedAmount: exactNumber(order.netExecutedAmount),
    totalExecutedAmount: exactNumber(order.totalExecutedAmount),
    commissionAsset: order.commissionAsset,
    rejectionReason: order.rejectionReason,
    ...(market
      ? {}
      : {
          cancelReason: order.cancelReason,
          replaces: order.replaces === null ? null : Number(order.replaces),
        }),
    createdAt: order.createdAt.toISOString(),
    updatedAt: order.updatedAt.toISOString(),
  };
}
