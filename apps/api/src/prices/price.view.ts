import type { Price } from '@svc/db';

import { exactNumber } from '../common/decimal.js';

/** An operator price on the wire: the stored digits as a JSON number. */
export function priceView(row: Pick<Price, 'symbol' | 'price' | 'updatedAt'>) {
  return { symbol: row.symbol, price: exactNumber(row.price), updatedAt: row.updatedAt.toISOString() };
}

export type PriceView = ReturnType<typeof priceView>;
