// Our pairs (BTC_EUR) and the exchange's names for them (BTCEUR, BTC-EUR), both ways. Only the configured
// pairs are known: anything else a stream sends is ignored.
import { exchangeSymbol, type MarketDataFeedName } from '../config/market-data.config.js';

export class SymbolMap {
  private readonly ours = new Map<string, string>();

  constructor(
    private readonly feed: MarketDataFeedName,
    readonly symbols: readonly string[],
  ) {
    for (const symbol of symbols) this.ours.set(exchangeSymbol(feed, symbol).toUpperCase(), symbol);
  }

  /** The exchange's name of our pair. */
  exchange(symbol: string): string {
    return exchangeSymbol(this.feed, symbol);
  }

  /** Our pair of the exchange's name (any case: Binance's stream names are lower case), if configured. */
  ourSymbol(exchangeName: string): string | undefined {
    return this.ours.get(exchangeName.toUpperCase());
  }
}
