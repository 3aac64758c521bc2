// Every query of the prices, price_levels and price_ticks tables. A price is written with its previous value
// locked, so the audit entry says what it replaced. Style: TypeORM for prices and levels (none of it is on a
// hot path: the order reads a pair's price in its own SQL statement, in the orders repository); SQL for the
// ticks' pages and chart, which read a range of the (symbol, at, id) index.
import { Injectable } from '@nestjs/common';
import { Price, PriceLevel, PriceTick, query } from '@svc/db';
import { DataSource, type EntityManager } from 'typeorm';

import {
  DEFAULT_PAGE_SIZE,
  decodeCursor,
  findPage,
  type Keyset,
  type Page,
  type PageQuery,
  SYMBOL_KEY,
  toPage,
} from '../common/pagination.js';
import { TICK_KEY, type TickKey } from './tick-cursor.js';

const BY_SYMBOL: Keyset<Price, 'symbol'> = { column: 'symbol', key: SYMBOL_KEY };

@Injectable()
export class PricesRepository {
  constructor(private readonly dataSource: DataSource) {}

  list(query: PageQuery): Promise<Page<Price>> {
    return findPage(this.dataSource.getRepository(Price), {}, BY_SYMBOL, query);
  }

  find(symbol: string): Promise<Price | null> {
    return this.dataSource.getRepository(Price).findOneBy({ symbol });
  }

  /** The pair's current price, locked for the rest of the transaction; null when it has none. */
  lock(manager: EntityManager, symbol: string): Promise<Price | null> {
    return manager.getRepository(Price).findOne({ where: { symbol }, lock: { mode: 'pessimistic_write' } });
  }

  /** Sets the pair's price (`price` is decimal text of 8 decimals), creating it when new. */
  async upsert(manager: EntityManager, symbol: string, price: string): Promise<Price> {
    await manager.upsert(Price, { symbol, price, updatedAt: () => 'now()' }, ['symbol']);
    return manager.findOneByOrFail(Price, { symbol });
  }

  /** Removes the price; answers it as it was, or null when there was none. */
  async delete(manager: EntityManager, symbol: string): Promise<Price | null> {
    const price = await this.lock(manager, symbol);
    if (price) await manager.delete(Price, { symbol });
    return price;
  }

  /** The pair's levels: asks lowest first, then bids highest first. */
  levels(manager: EntityManager | null, symbol: string): Promise<PriceLevel[]> {
    return (manager ?? this.dataSource.manager)
      .getRepository(PriceLevel)
      .createQueryBuilder('l')
      .where('l.symbol = :symbol', { symbol })
      .orderBy('l.side', 'ASC')
      .addOrderBy(`CASE WHEN l.side = 'ASK' THEN l.price ELSE -l.price END`)
      .getMany();
  }

  /** Replaces the pair's levels by `levels` (decimal text of 8 decimals). */
  async replaceLevels(
    manager: EntityManager,
    symbol: string,
    levels: readonly Pick<PriceLevel, 'side' | 'price' | 'size'>[],
  ): Promise<void> {
    await manager.delete(PriceLevel, { symbol });
    if (levels.length > 0)
      await manager.insert(
        PriceLevel,
        levels.map((level) => ({ symbol, ...level })),
      );
  }

  /** Sets the prices of the pairs that have none (`prices`: symbol to decimal text). */
  async insertMissing(prices: Readonly<Record<string, string>>): Promise<void> {
    const rows = Object.entries(prices).map(([symbol, price]) => ({ symbol, price }));
    if (rows.length === 0) return;
    await this.dataSource.createQueryBuilder().insert().into(Price).values(rows).orIgnore().execute();
  }

  /** Records a tick of the pair's price (decimal text of 8 decimals), in the caller's transaction. */
  async insertTick(
    manager: EntityManager,
    tick: Pick<PriceTick, 'symbol' | 'price' | 'source'> & { at: Date | 'now' },
  ): Promise<void> {
    const { at, ...rest } = tick;
    await manager.insert(PriceTick, { ...rest, at: at === 'now' ? () => 'now()' : at });
  }

  /** A page of the pair's ticks quoted in [from, to), oldest first (by time, then id). */
  async ticks(symbol: string, from: Date, to: Date, page: PageQuery): Promise<Page<PriceTick>> {
    const limit = page.limit ?? DEFAULT_PAGE_SIZE;
    const after = decodeCursor(page.cursor, TICK_KEY);
    const rows = await query<PriceTick>(
      this.dataSource,
      `SELECT id, symbol, price, at, source FROM price_ticks
        WHERE symbol = $1 AND at >= $2 AND at < $3 AND ($4::timestamptz IS NULL OR (at, id) > ($4, $5))
        ORDER BY at, id LIMIT $6`,
      [symbol, from, to, after?.at ?? null, after?.id ?? '0', limit + 1],
    );
    return toPage(rows, limit, (row): TickKey => ({ at: row.at, id: row.id }), TICK_KEY);
  }

  /**
   * The pair's last tick price of each bucket of `bucketSeconds` in [from, to) that has ticks, oldest first;
   * buckets start at whole multiples of the bucket since the epoch (whole hours for 3600).
   */
  chart(
    symbol: string,
    from: Date,
    to: Date,
    bucketSeconds: number,
  ): Promise<{ bucket: Date; price: string; ticks: number }[]> {
    return query(
      this.dataSource,
      `SELECT DISTINCT ON (bucket) bucket, price, count(*) OVER (PARTITION BY bucket)::int AS ticks
         FROM (SELECT date_bin($4 * interval '1 second', at, timestamptz 'epoch') AS bucket, price, at, id
                 FROM price_ticks WHERE symbol = $1 AND at >= $2 AND at < $3) t
        ORDER BY bucket, at DESC, id DESC`,
      [symbol, from, to, bucketSeconds],
    );
  }
}
