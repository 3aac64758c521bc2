// The sink of this deployment: a feed's last price becomes the pair's price (what stops trigger on, and
// what market orders of a pair without levels fill at) and, sampled (tick-sampler.ts), its price tick; its
// book becomes the pair's price levels, which orders fill from. After each, the pair's resting orders that
// now cross are swept. A feed's write is no operator's action: not audited.
import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';

import { amountText, type Dec } from '../common/decimal.js';
import { LOGGER } from '../common/logger.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { OrderSweeperService } from '../orders/order-sweeper.service.js';
import { PricesService } from '../prices/prices.service.js';
import type { BookLevels, MarketDataSink } from './market-data.js';
import { TickSampler } from './tick-sampler.js';

@Injectable()
export class PricesSink implements MarketDataSink {
  private sampler: TickSampler;
  /** The price this process last wrote per pair, so an unchanged price costs no write. */
  private readonly written = new Map<string, string>();
  private flushTimer: NodeJS.Timeout | undefined;
  private readonly intervalMs: number;

  constructor(
    private readonly prices: PricesService,
    private readonly sweeper: OrderSweeperService,
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.intervalMs = config.marketData.tickIntervalMs;
    this.sampler = new TickSampler(this.intervalMs);
  }

  async applyPrice(source: string, symbol: string, price: Dec, at: Date): Promise<void> {
    // The parsers refuse a price of more than 8 decimals, so this writes exactly the exchange's digits.
    const text = amountText(price);
    const sampled = this.sampler.offer({ symbol, price: text, at }, Date.now());
    if (sampled === 'held') this.flushLater(source);
    if (this.written.get(symbol) === text) return;
    await this.prices.setFromFeed(source, symbol, text, at, sampled === 'tick');
    this.written.set(symbol, text);
    await this.sweeper.afterMarketChange(symbol);
  }

  /** A pair's best levels from the feed replace its price levels; a crossed book is skipped (logged). */
  async applyBook(source: string, symbol: string, book: BookLevels): Promise<void> {
    if (!(await this.prices.setLevelsFromFeed(symbol, book))) {
      this.logger.warn({ source, symbol }, 'crossed book from the feed left out');
      return;
    }
    await this.sweeper.afterMarketChange(symbol);
  }

  /** Forgets what this process wrote and stops the timer (the feed stopped: another process may lead). */
  reset(): void {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    this.written.clear();
    this.sampler = new TickSampler(this.intervalMs);
  }

  /** Keeps the held ticks once their interval is over. */
  private flushLater(source: string): void {
    if (this.flushTimer) return;
    this.flushTimer = setTimeout(() => {
      this.flushTimer = undefined;
      const now = Date.now();
      for (const tick of this.sampler.due(now)) {
        this.prices.recordTick(source, tick.symbol, tick.price, tick.at).catch((error: unknown) => {
          this.logger.warn({ err: error, symbol: tick.symbol }, 'price tick not recorded');
        });
      }
      // Pairs whose interval began later than the others' are still waiting.
      if (this.sampler.holding()) this.flushLater(source);
    }, this.intervalMs);
    this.flushTimer.unref();
  }
}
