// The Binance spot feed: a market-data source over its combined public stream (binance-messages.ts).
import type { Logger } from 'pino';

import type { MarketDataSettings } from '../../config/market-data.config.js';
import type { MarketDataSource, MarketDataUpdate } from '../market-data.js';
import { SymbolMap } from '../symbol-map.js';
import { WebSocketFeed } from '../websocket-feed.js';
import { binanceSubscribe, parseBinanceMessage } from './binance-messages.js';

export class BinanceSource implements MarketDataSource {
  readonly name = 'binance';
  private readonly feed: WebSocketFeed;

  constructor(settings: MarketDataSettings, logger: Logger) {
    const symbols = new SymbolMap('binance', settings.symbols);
    this.feed = new WebSocketFeed({
      url: settings.url,
      staleMs: settings.staleMs,
      reconnectMs: settings.reconnectMs,
      logger,
      protocol: {
        subscriptions: () => [binanceSubscribe(symbols)],
        parse: (text, receivedAt) => parseBinanceMessage(text, symbols, receivedAt),
      },
    });
  }

  start(emit: (update: MarketDataUpdate) => void): void {
    this.feed.start(emit);
  }

  stop(): Promise<void> {
    return this.feed.stop();
  }
}
