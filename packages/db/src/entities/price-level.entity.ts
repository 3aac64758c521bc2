import { Check, Entity, PrimaryColumn } from 'typeorm';

import { Amount, UpdatedAt } from './columns.js';

export const BOOK_SIDES = ['ASK', 'BID'] as const;
export type BookSide = (typeof BOOK_SIDES)[number];

/**
 * A price level of a pair's book, set by operators: BUY orders fill against its ASK levels, SELL orders
 * against its BID levels, each fill taking from the level's size. A pair without levels fills at its
 * operator price without a size limit (docs/api-guide.md#orders).
 */
@Entity({ name: 'price_levels' })
@Check('price_levels_size_not_negative', '"size" >= 0')
export class PriceLevel {
  /** BASE_QUOTE. */
  @PrimaryColumn({ type: 'text' })
  symbol!: string;

  @PrimaryColumn({ type: 'text' })
  side!: BookSide;

  @PrimaryColumn({ type: 'numeric', precision: 38, scale: 8 })
  price!: string;

  /** What is left to take at this price, in the base asset. */
  @Amount('size')
  size!: string;

  @UpdatedAt()
  updatedAt!: Date;
}
