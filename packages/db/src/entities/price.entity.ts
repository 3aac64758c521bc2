import { Entity, PrimaryColumn } from 'typeorm';

import { Amount, UpdatedAt } from './columns.js';

/** The operator-set price of a trading pair, at which the default venue fills market orders. */
@Entity({ name: 'prices' })
export class Price {
  /** BASE_QUOTE. */
  @PrimaryColumn({ type: 'text' })
  symbol!: string;

  @Amount('price')
  price!: string;

  @UpdatedAt()
  updatedAt!: Date;
}
