import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

import { Amount } from './columns.js';

/** Where a pair's price came from: an operator's PUT, or a market-data feed (its name, e.g. `binance`). */
export type PriceTickSource = 'operator' | (string & {});

/**
 * A pair's price as it changed, for charts and the price history: every operator change, and a feed's last
 * price at most once per pair per sampling interval (docs/configuration.md#market-data). Pruned after
 * PRICE_TICK_RETENTION_DAYS by the worker.
 */
@Entity({ name: 'price_ticks' })
// A pair's ticks by time (the history, the chart and the pruning all read a range of one pair); `id` last
// orders ticks of the same millisecond and is the rest of the page cursor.
@Index('price_ticks_symbol_at', ['symbol', 'at', 'id'])
export class PriceTick {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id!: string;

  /** BASE_QUOTE. */
  @Column({ type: 'text' })
  symbol!: string;

  @Amount('price')
  price!: string;

  /** When the price was quoted: the exchange's event time for a feed, the write's time for an operator. */
  @Column({ type: 'timestamptz', precision: 3 })
  at!: Date;

  @Column({ type: 'text' })
  source!: PriceTickSource;
}
