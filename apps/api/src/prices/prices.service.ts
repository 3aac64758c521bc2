// Operator prices (docs/decisions.md, "Prices: operator prices"): the price of each trading pair at which the
// default venue fills market orders. A pair without a price has no market. Every operator change is audited
// in its transaction. A market-data feed sets prices too (not audited: no one acted), and every change from
// either is a price tick, the history operators read and pages chart.
import { Injectable } from '@nestjs/common';
import { transaction } from '@svc/db';
import { DataSource } from 'typeorm';

import { AuditService } from '../audit/audit.service.js';
import type { AuditActor } from '../audit/admin-actor.decorator.js';
import { badRequest, notFound } from '../common/errors.js';
import { parseInstant } from '../common/instant.js';
import { amountText, type Dec } from '../common/decimal.js';
import { mapPage, type Page, type PageQuery } from '../common/pagination.js';
import type { ListTicksQuery } from './dto/list-ticks.query.js';
import type { LevelDto, SetLevelsDto } from './dto/set-levels.dto.js';
import { priceTickView, type PriceTickView } from './price-tick.view.js';
import { levelsView, type LevelsView, priceView, type PriceView } from './price.view.js';
import { PricesRepository } from './prices.repository.js';

const DAY_MS = 86_400_000;

@Injectable()
export class PricesService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly prices: PricesRepository,
    private readonly audit: AuditService,
  ) {}

  async list(query: PageQuery): Promise<Page<PriceView>> {
    return mapPage(await this.prices.list(query), priceView);
  }

  async get(symbol: string): Promise<PriceView> {
    const price = await this.prices.find(symbol);
    if (!price) throw notFound(`no price for ${symbol}`);
    return priceView(price);
  }

  /** Sets (or first creates) the price; audited as `price.set` with the old and new price. */
  set(actor: AuditActor, symbol: string, price: Dec): Promise<PriceView> {
    const text = amountText(price);
    return transaction(this.dataSource, async (manager) => {
      const old = await this.prices.lock(manager, symbol);
      const row = await this.prices.upsert(manager, symbol, text);
      await this.prices.insertTick(manager, { symbol, price: row.price, at: 'now', source: 'operator' });
      await this.audit.record(manager, {
        actor,
        action: 'price.set',
        orgId: null,
        details: { symbol, from: old?.price ?? null, to: row.price },
      });
      return priceView(row);
    });
  }

  /** Removes the price, so the pair has no market; answers the price as it was. */
  remove(actor: AuditActor, symbol: string): Promise<PriceView> {
    return transaction(this.dataSource, async (manager) => {
      const row = await this.prices.delete(manager, symbol);
      if (!row) throw notFound(`no price for ${symbol}`);
      await this.audit.record(manager, {
        actor,
        action: 'price.delete',
        orgId: null,
        details: { symbol, from: row.price },
      });
      return priceView(row);
    });
  }

  async levels(symbol: string): Promise<LevelsView> {
    return levelsView(symbol, await this.prices.levels(null, symbol));
  }

  /**
   * Replaces the pair's levels (empty sides: the operator price alone again), audited as `price.levels.set`
   * with the old and new book. The pair needs an operator price: without one it has no market.
   */
  setLevels(actor: AuditActor, symbol: string, input: SetLevelsDto): Promise<LevelsView> {
    const levels = [...bookSide('asks', input.asks), ...bookSide('bids', input.bids)];
    const bestAsk = input.asks.reduce<Dec | null>(
      (best, l) => (best && best.lte(l.price) ? best : l.price),
      null,
    );
    const bestBid = input.bids.reduce<Dec | null>(
      (best, l) => (best && best.gte(l.price) ? best : l.price),
      null,
    );
    if (bestAsk && bestBid && bestAsk.lte(bestBid)) {
      throw badRequest(
        'asks must all be above bids: the lowest ask price must be higher than the highest bid price',
      );
    }
    return transaction(this.dataSource, async (manager) => {
      if (!(await this.prices.lock(manager, symbol))) {
        throw notFound(`no price for ${symbol}: set the pair's price before its levels`);
      }
      const old = levelsView(symbol, await this.prices.levels(manager, symbol));
      await this.prices.replaceLevels(manager, symbol, levels);
      const now = levelsView(symbol, await this.prices.levels(manager, symbol));
      await this.audit.record(manager, {
        actor,
        action: 'price.levels.set',
        orgId: null,
        details: { symbol, from: { asks: old.asks, bids: old.bids }, to: { asks: now.asks, bids: now.bids } },
      });
      return now;
    });
  }

  /** Prices for the pairs that have none, for the demo organisation of `npm start`; not audited. */
  setMissing(prices: Readonly<Record<string, string>>): Promise<void> {
    return this.prices.insertMissing(prices);
  }

  /**
   * A feed's book for the pair: its levels replace the pair's, in one transaction; not audited (no operator
   * acted). A crossed book (an ask at or below a bid: the exchange between two updates) is left out and
   * answered false, so the stored book is always one the matching can fill from.
   */
  setLevelsFromFeed(
    symbol: string,
    book: { readonly asks: readonly LevelDto[]; readonly bids: readonly LevelDto[] },
  ): Promise<boolean> {
    const bestAsk = book.asks.reduce<Dec | null>(
      (best, l) => (best && best.lte(l.price) ? best : l.price),
      null,
    );
    const bestBid = book.bids.reduce<Dec | null>(
      (best, l) => (best && best.gte(l.price) ? best : l.price),
      null,
    );
    if (bestAsk && bestBid && bestAsk.lte(bestBid)) return Promise.resolve(false);
    const levels = [...bookSide('asks', book.asks), ...bookSide('bids', book.bids)];
    return transaction(this.dataSource, async (manager) => {
      await this.prices.replaceLevels(manager, symbol, levels);
      return true;
    });
  }

  /**
   * A feed's price for the pair (decimal text of 8 decimals), with its tick when `tick`; one transaction.
   * Not audited: no operator acted.
   */
  setFromFeed(source: string, symbol: string, price: string, at: Date, tick: boolean): Promise<void> {
    return transaction(this.dataSource, async (manager) => {
      await this.prices.upsert(manager, symbol, price);
      if (tick) await this.prices.insertTick(manager, { symbol, price, at, source });
    });
  }

  /** A tick of a feed's price already set (one the sampler held back until its interval was over). */
  recordTick(source: string, symbol: string, price: string, at: Date): Promise<void> {
    return this.prices.insertTick(this.dataSource.manager, { symbol, price, at, source });
  }

  /** A page of the pair's price ticks quoted in [from, to) (default: the last day), oldest first. */
  async listTicks(symbol: string, query: ListTicksQuery): Promise<Page<PriceTickView>> {
    const to = parseInstant(query.to) ?? new Date();
    const from = parseInstant(query.from) ?? new Date(to.getTime() - DAY_MS);
    if (from >= to) throw badRequest('from must be before to');
    return mapPage(await this.prices.ticks(symbol, from, to, query), priceTickView);
  }

  /**
   * What a price chart draws: the pair's last price in each bucket of `bucketSeconds` (an hour by default)
   * in [from, to) that has ticks, oldest first, with how many ticks the bucket holds.
   */
  async chart(
    symbol: string,
    from: Date,
    to: Date,
    bucketSeconds = 3600,
  ): Promise<{ at: string; price: string; ticks: number }[]> {
    const rows = await this.prices.chart(symbol, from, to, bucketSeconds);
    return rows.map((row) => ({ at: row.bucket.toISOString(), price: row.price, ticks: row.ticks }));
  }
}

/** A side of the book as stored; a price given twice is a 400 naming the side. */
function bookSide(field: 'asks' | 'bids', levels: readonly LevelDto[]) {
  const seen = new Set<string>();
  return levels.map((level) => {
    const price = amountText(level.price);
    if (seen.has(price)) throw badRequest(`${field} has the price ${level.price.toFixed()} more than once`);
    seen.add(price);
    return {
      side: field === 'asks' ? ('ASK' as const) : ('BID' as const),
      price,
      size: amountText(level.size),
    };
  });
}
