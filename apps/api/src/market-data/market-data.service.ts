// Runs this deployment's market-data feed (docs/configuration.md#market-data) in the api process that holds
// the feed lock, and hands its updates to the sink. Between source and sink, each pair keeps only its
// newest price and newest book waiting (a slot per pair, not a queue): a slow database makes the sink skip
// intermediate updates instead of holding memory, and writes happen one at a time.
import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';

import { LOGGER } from '../common/logger.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import type { MarketDataSettings } from '../config/market-data.config.js';
import { BinanceSource } from './binance/binance-source.js';
import { FeedLock } from './feed-lock.js';
import {
  type BookLevels,
  MARKET_DATA_SINK,
  type MarketDataSink,
  type MarketDataSource,
  type MarketDataUpdate,
} from './market-data.js';

interface Waiting {
  price?: MarketDataUpdate & { lastPrice: NonNullable<MarketDataUpdate['lastPrice']> };
  book?: { readonly levels: BookLevels; readonly at: Date };
}

/** The source a deployment configured. */
export function createSource(settings: MarketDataSettings, logger: Logger): MarketDataSource | undefined {
  switch (settings.feed) {
    case 'binance':
      return new BinanceSource(settings, logger);
    case null:
      return undefined;
  }
}

@Injectable()
export class MarketDataService implements OnApplicationBootstrap, OnApplicationShutdown {
  private lock: FeedLock | undefined;
  private readonly waiting = new Map<string, Waiting>();
  private draining: Promise<void> | undefined;

  constructor(
    @Inject(MARKET_DATA_SINK) private readonly sink: MarketDataSink,
    private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** Whether this instance runs the deployment's feed (holds the feed lock). */
  get runsFeed(): boolean {
    return this.lock?.held ?? false;
  }

  onApplicationBootstrap(): void {
    const settings = this.config.marketData;
    if (!settings.feed) return;
    const url = (this.dataSource.options as { url?: string }).url;
    if (!url) throw new Error('the market-data feed needs the database URL for its lock');
    const logger = this.logger.child({ feed: settings.feed });
    this.lock = new FeedLock({ url, checkMs: settings.staleMs, logger });
    this.lock.run(() => {
      const source = createSource(settings, logger);
      if (!source) return () => Promise.resolve();
      source.start((update) => this.receive(source.name, update));
      return async () => {
        await source.stop();
        await this.draining;
        this.waiting.clear();
        this.sink.reset?.();
      };
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.lock?.close();
  }

  /** Takes an update into its pair's slot, replacing what was waiting there, and writes when free. */
  receive(source: string, update: MarketDataUpdate): void {
    const slot = this.waiting.get(update.symbol) ?? {};
    if (update.lastPrice) slot.price = { ...update, lastPrice: update.lastPrice };
    if (update.bids || update.asks) {
      slot.book = { levels: { bids: update.bids ?? [], asks: update.asks ?? [] }, at: update.at };
    }
    this.waiting.set(update.symbol, slot);
    this.draining ??= this.drain(source).finally(() => {
      this.draining = undefined;
    });
  }

  private async drain(source: string): Promise<void> {
    for (let next = this.take(); next; next = this.take()) {
      const [symbol, { price, book }] = next;
      try {
        if (price) await this.sink.applyPrice(source, symbol, price.lastPrice, price.at);
        if (book) await this.sink.applyBook(source, symbol, book.levels, book.at);
      } catch (error) {
        this.logger.warn({ err: error, symbol }, 'market data update not applied');
      }
    }
  }

  private take(): [string, Waiting] | undefined {
    const first = this.waiting.entries().next();
    if (first.done) return undefined;
    this.waiting.delete(first.value[0]);
    return first.value;
  }
}
