import type { PriceTick } from '@svc/db';

import { exactNumber } from '../common/decimal.js';

/** A price tick on the wire: the stored digits as a JSON number. */
export function priceTickView(row: Pick<PriceTick, 'symbol' | 'price' | 'at' | 'source'>) {
  return { symbol: row.symbol, price: exactNumber(row.price), at: row.at.toISOString(), source: row.source };
}

export type PriceTickView = ReturnType<typeof priceTickView>;
