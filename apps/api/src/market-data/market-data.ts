// What a market-data source emits and what a sink does with it (docs/configuration.md#market-data): exact
// decimals throughout (Dec, read digit for digit from the exchange's text), never floats.
import type { Dec } from '../common/decimal.js';

/** A price level of a book: the size resting at the price. */
export interface PriceLevel {
  readonly price: Dec;
  readonly size: Dec;
}

/** The best levels of a pair's book, best first on each side (highest bid, lowest ask). */
export interface BookLevels {
  readonly bids: readonly PriceLevel[];
  readonly asks: readonly PriceLevel[];
}

/** One update of one pair from a source: its last price, its book, or both. */
export interface MarketDataUpdate {
  /** Ours: BASE_QUOTE. */
  readonly symbol: string;
  readonly lastPrice?: Dec;
  readonly bids?: readonly PriceLevel[];
  readonly asks?: readonly PriceLevel[];
  /** When the exchange quoted it (its event time), else when it arrived. */
  readonly at: Date;
}

/** A place prices come from. The operators' PUT is one (the prices feature); each exchange feed another. */
export interface MarketDataSource {
  /** Stored as each tick's `source`, e.g. `binance`. */
  readonly name: string;
  /** Starts emitting; `emit` is called for each update, in the order the source got them. */
  start(emit: (update: MarketDataUpdate) => void): void;
  /** Stops, closing what it holds; no `emit` after it resolves. */
  stop(): Promise<void>;
}

/** The Nest token of this deployment's sink (market-data.module.ts says which class). */
export const MARKET_DATA_SINK = Symbol('MARKET_DATA_SINK');

/** Where updates go. */
export interface MarketDataSink {
  /** The pair's last price changed (to `price`, quoted at `at`). */
  applyPrice(source: string, symbol: string, price: Dec, at: Date): Promise<void>;
  /** The pair's book is now `book` (the source's best levels, replacing the previous ones). */
  applyBook(source: string, symbol: string, book: BookLevels, at: Date): Promise<void>;
  /** The feed stopped in this process (another may run it now): forget what was kept between updates. */
  reset?(): void;
}
