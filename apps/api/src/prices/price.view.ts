import type { Price, PriceLevel } from '@svc/db';

import { exactNumber } from '../common/decimal.js';

/** An operator price on the wire: the stored digits as a JSON number. */
export function priceView(row: Pick<Price, 'symbol' | 'price' | 'updatedAt'>) {
  return { symbol: row.symbol, price: exactNumber(row.price), updatedAt: row.updatedAt.toISOString() };
}

export type PriceView = ReturnType<typeof priceView>;

/** A pair's book on the wire: asks lowest first, bids highest first. */
export function levelsView(symbol: string, levels: readonly Pick<PriceLevel, 'side' | 'price' | 'size'>[]) {
  const side = (name: 'ASK' | 'BID') =>
    levels
      .filter((level) => level.side === name)
      .map((level) => ({ price: exactNumber(level.price), size: exactNumber(level.size) }));
  return { symbol, asks: side('ASK'), bids: side('BID') };
}

export type LevelsView = ReturnType<typeof levelsView>;
