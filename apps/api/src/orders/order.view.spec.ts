// The order record as the api answers and sends it: the fields of ORDER_SCHEMA (@svc/protocol), in its
// order, which is the order of the serialised record.
import { Order as OrderRow } from '@svc/db';
import { ORDER_SCHEMA, parseOrder } from '@svc/protocol';

import { orderRecord } from './order.view.js';

const row = {
  id: '1001',
  orgId: 42,
  userId: '7',
  orgUserId: 'user-42',
  clientOrderId: '5b0e4a8e-2c0f-4f57-9a43-0d6f3f1c2a11',
  symbol: 'BTC_EUR',
  side: 'BUY',
  type: 'MARKET',
  amountField: 'quoteQuantity',
  quantity: '0.01000000',
  quoteQuantity: '500.00',
  filled: '0.01',
  status: 'COMPLETED',
  price: '50000',
  averagePrice: '50000',
  estimatedPrice: '50000',
  baseAveragePrice: '50000',
  commissionRate: '0.0015',
  vatRate: '0.21',
  commissionAmount: '0.75',
  vatAmount: '0.1575',
  netExecutedAmount: '500',
  totalExecutedAmount: '500.9075',
  commissionAsset: 'EUR',
  rejectionReason: null,
  createdAt: new Date('2026-01-15T10:30:00.000Z'),
  updatedAt: new Date('2026-01-15T10:30:01.250Z'),
} as OrderRow;

describe('orderRecord', () => {
  it("a MARKET order: the schema's required fields in the schema's order, passing the protocol's parser", () => {
    const text = JSON.stringify(orderRecord(row));
    const parsed = parseOrder(JSON.parse(text));
    expect(Object.keys(parsed)).toEqual(ORDER_SCHEMA.required);
    expect(Object.keys(parsed)).toHaveLength(25);
    expect(parsed).toMatchObject({ id: 1001, quantity: 0.01, updatedAt: '2026-01-15T10:30:01.250Z' });
    // Amounts keep their stored digits (exactNumber) but trailing zeros.
    expect(text).toContain('"quantity":0.01,"quoteQuantity":500,"filled":0.01,');
  });
});

describe('orderRecord of an order other than MARKET', () => {
  it('has every field of the schema in its order, the lifecycle fields null where they do not apply', () => {
    const limit = Object.assign(new OrderRow(), row, {
      type: 'LIMIT',
      timeInForce: 'GTD',
      limitPrice: '49000.50000000',
      stopPrice: null,
      expireAt: new Date('2026-01-16T00:00:00.000Z'),
      cancelReason: null,
      replaces: '1000',
    });
    const parsed = parseOrder(JSON.parse(JSON.stringify(orderRecord(limit))));
    expect(Object.keys(parsed)).toEqual(Object.keys(ORDER_SCHEMA.properties));
    expect(parsed).toMatchObject({
      type: 'LIMIT',
      timeInForce: 'GTD',
      limitPrice: 49000.5,
      stopPrice: null,
      expireAt: '2026-01-16T00:00:00.000Z',
      cancelReason: null,
      replaces: 1000,
    });
  });
});
