// An order as a row of the orders export (docs/dashboard.md#exports): the order record's fields in its
// order (ORDER_SCHEMA), amounts with their stored digits, times in UTC.
import type { Order } from '@svc/db';

import { type CsvCell, CsvDecimal } from '../common/csv.js';

export const ORDER_CSV_HEADER = [
  'id',
  'clientOrderId',
  'orgUserId',
  'symbol',
  'side',
  'type',
  'quantity',
  'quoteQuantity',
  'filled',
  'status',
  'price',
  'averagePrice',
  'estimatedPrice',
  'baseAveragePrice',
  'commissionRate',
  'vatRate',
  'commissionAmount',
  'vatAmount',
  'netExecutedAmount',
  'totalExecutedAmount',
  'commissionAsset',
  'rejectionReason',
  'createdAt',
  'updatedAt',
] as const;

const amount = (text: string | null) => (text === null ? null : new CsvDecimal(text));

export function orderCsvRow(order: Order): CsvCell[] {
  return [
    order.id,
    order.clientOrderId,
    order.orgUserId,
    order.symbol,
    order.side,
    order.type,
    amount(order.quantity),
    amount(order.quoteQuantity),
    amount(order.filled),
    order.status,
    amount(order.price),
    amount(order.averagePrice),
    amount(order.estimatedPrice),
    amount(order.baseAveragePrice),
    amount(order.commissionRate),
    amount(order.vatRate),
    amount(order.commissionAmount),
    amount(order.vatAmount),
    amount(order.netExecutedAmount),
    amount(order.totalExecutedAmount),
    order.commissionAsset,
    order.rejectionReason,
    order.createdAt,
    order.updatedAt,
  ];
}
