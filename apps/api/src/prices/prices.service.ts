// Operator prices (DESIGN section 8): the price of each trading pair at which the default venue fills
// market orders. A pair without a price has no market. Every change is audited in its transaction.
import { Injectable } from '@nestjs/common';
import { Price } from '@svc/db';
import { DataSource, type FindOptionsWhere, MoreThan } from 'typeorm';

import { AuditService } from '../admin/audit.service.js';
import { badRequest, notFound } from '../common/errors.js';
import { SYMBOL } from '../common/assets.js';
import { amountText, decimalOf } from '../common/decimal.js';
import { DEFAULT_PAGE_SIZE, type Page, type PageQuery } from '../common/pagination.js';
import { priceView, type PriceView } from './price.view.js';

interface PriceRow {
  symbol: string;
  price: string;
  updated_at: Date;
}

const fromRow = (row: PriceRow): PriceView =>
  priceView({ symbol: row.symbol, price: row.price, updatedAt: row.updated_at });

/** Prices are listed by symbol, their key; the cursor is the last symbol of the page. */
function decodeSymbolCursor(cursor: string | undefined): string | undefined {
  if (cursor === undefined) return undefined;
  const symbol = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!SYMBOL.test(symbol)) throw badRequest('cursor must be a nextCursor returned by the previous page');
  return symbol;
}

@Injectable()
export class PricesService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly audit: AuditService,
  ) {}

  async list(query: PageQuery): Promise<Page<PriceView>> {
    const limit = query.limit ?? DEFAULT_PAGE_SIZE;
    const after = decodeSymbolCursor(query.cursor);
    const where: FindOptionsWhere<Price> = {};
    if (after !== undefined) where.symbol = MoreThan(after);
    const rows = await this.dataSource
      .getRepository(Price)
      .find({ where, order: { symbol: 'ASC' }, take: limit + 1 });
    const items = rows.slice(0, limit);
    const last = items.at(-1);
    return {
      items: items.map(priceView),
      nextCursor: rows.length > limit && last ? Buffer.from(last.symbol).toString('base64url') : null,
    };
  }

  async get(symbol: string): Promise<PriceView> {
    const row = await this.dataSource.getRepository(Price).findOneBy({ symbol });
    if (!row) throw notFound(`no price for ${symbol}`);
    return priceView(row);
  }

  /** Sets (or first creates) the price; audited as `price.set` with the old and new price. */
  set(actor: string, symbol: string, price: number): Promise<PriceView> {
    const text = amountText(decimalOf(price));
    return this.dataSource.transaction(async (manager) => {
      const [old] = await manager.query<{ price: string }[]>(
        'SELECT price FROM prices WHERE symbol = $1 FOR UPDATE',
        [symbol],
      );
      const [row] = await manager.query<PriceRow[]>(
        `INSERT INTO prices (symbol, price, updated_at) VALUES ($1, $2, now())
         ON CONFLICT (symbol) DO UPDATE SET price = EXCLUDED.price, updated_at = EXCLUDED.updated_at
         RETURNING symbol, price, updated_at`,
        [symbol, text],
      );
      if (!row) throw new Error('the price upsert returned no row');
      const view = fromRow(row);
      await this.audit.record(manager, {
        actor,
        action: 'price.set',
        orgId: null,
        details: { symbol, from: old?.price ?? null, to: row.price },
      });
      return view;
    });
  }

  /** Removes the price, so the pair has no market; answers the price as it was. */
  remove(actor: string, symbol: string): Promise<PriceView> {
    return this.dataSource.transaction(async (manager) => {
      const [rows] = await manager.query<[PriceRow[], number]>(
        'DELETE FROM prices WHERE symbol = $1 RETURNING symbol, price, updated_at',
        [symbol],
      );
      const row = rows[0];
      if (!row) throw notFound(`no price for ${symbol}`);
      await this.audit.record(manager, {
        actor,
        action: 'price.delete',
        orgId: null,
        details: { symbol, from: row.price },
      });
      return fromRow(row);
    });
  }
}
