// Every query of the prices and price_levels tables. A price is written with its previous value locked, so the audit
// entry says what it replaced. Style: TypeORM for prices (none of it is on a hot path: the order reads
// a pair's price in its own SQL statement, in the orders repository).
import { Injectable } from '@nestjs/common';
import { Price, PriceLevel } from '@svc/db';
import { DataSource, type EntityManager } from 'typeorm';

import { findPage, type Keyset, type Page, type PageQuery, SYMBOL_KEY } from '../common/pagination.js';

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
}
