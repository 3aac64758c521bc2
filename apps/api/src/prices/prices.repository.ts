// Every query of the prices table. A price is written with its previous value locked, so the audit
// entry says what it replaced.
import { Injectable } from '@nestjs/common';
import { Price } from '@svc/db';
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
    const [row] = await manager.query<{ symbol: string; price: string; updated_at: Date }[]>(
      `INSERT INTO prices (symbol, price, updated_at) VALUES ($1, $2, now())
       ON CONFLICT (symbol) DO UPDATE SET price = EXCLUDED.price, updated_at = EXCLUDED.updated_at
       RETURNING symbol, price, updated_at`,
      [symbol, price],
    );
    if (!row) throw new Error('the price upsert returned no row');
    return Object.assign(new Price(), { symbol: row.symbol, price: row.price, updatedAt: row.updated_at });
  }

  /** Removes the price; answers it as it was, or null when there was none. */
  async delete(manager: EntityManager, symbol: string): Promise<Price | null> {
    const price = await this.lock(manager, symbol);
    if (price) await manager.delete(Price, { symbol });
    return price;
  }

  /** Sets the prices of the pairs that have none (`prices`: symbol to decimal text). */
  async insertMissing(prices: Readonly<Record<string, string>>): Promise<void> {
    await this.dataSource.query(
      'INSERT INTO prices (symbol, price) SELECT * FROM unnest($1::text[], $2::numeric[]) ON CONFLICT (symbol) DO NOTHING',
      [Object.keys(prices), Object.values(prices)],
    );
  }
}
