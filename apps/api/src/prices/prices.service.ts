// Operator prices (docs/decisions.md, "Prices: operator prices"): the price of each trading pair at which the
// default venue fills market orders. A pair without a price has no market. Every change is audited in its
// transaction.
import { Injectable } from '@nestjs/common';
import { transaction } from '@svc/db';
import { DataSource } from 'typeorm';

import { AuditService } from '../audit/audit.service.js';
import type { AuditActor } from '../audit/admin-actor.decorator.js';
import { notFound } from '../common/errors.js';
import { amountText, type Dec } from '../common/decimal.js';
import { mapPage, type Page, type PageQuery } from '../common/pagination.js';
import { priceView, type PriceView } from './price.view.js';
import { PricesRepository } from './prices.repository.js';

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

  /** Prices for the pairs that have none, for the demo organisation of `npm start`; not audited. */
  setMissing(prices: Readonly<Record<string, string>>): Promise<void> {
    return this.prices.insertMissing(prices);
  }
}
