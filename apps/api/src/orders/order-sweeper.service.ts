// The sweep of resting orders (docs/decisions.md, "Orders: the book and the sweep"): stops reached are marked, open orders
// that now cross their pair's book fill in price-time priority, and DAY and GTD orders past their expiry
// expire. It runs for one pair when its price, its levels or its halt change, and every ORDER_SWEEP_MS in
// each api process for every pair, which also catches what a process that died left undone. One sweep at a
// time fills a pair (an advisory lock per pair), so its orders fill in price-time priority; a batch is
// locked with SKIP LOCKED, decided in JS with exact decimals and written with multi-row statements, with
// one Orders event per changed order, in one transaction: several processes sweep side by side and each
// order is decided once.
import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { type Order, transaction } from '@svc/db';
import type { Logger } from 'pino';
import { DataSource, type EntityManager } from 'typeorm';

import { pairOf } from '../common/assets.js';
import { Dec } from '../common/decimal.js';
import { LOGGER } from '../common/logger.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { OutboxService } from '../outbox/outbox.service.js';
import { ExecutionRepository, type FillRow } from './execution.repository.js';
import { changed } from './order-math.js';
import { orderRecord } from './order.view.js';
import {
  type BatchFacts,
  type FactNeeds,
  OrderSweepRepository,
  type SweptUser,
} from './order-sweep.repository.js';
import { decideResting, type UserFacts } from './resting.js';

/**
 * Orders locked and decided per transaction: each batch reads the pairs' open orders once, so larger
 * batches cost less per order, while one transaction stays short enough not to hold a pair for long.
 */
export const SWEEP_BATCH = 5000;

export interface SweepResult {
  /** Orders whose status or fills changed. */
  readonly changed: number;
  readonly expired: number;
}

@Injectable()
export class OrderSweeperService implements OnModuleInit, OnModuleDestroy {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;

  constructor(
    private readonly dataSource: DataSource,
    private readonly sweeps: OrderSweepRepository,
    private readonly execution: ExecutionRepository,
    private readonly events: OutboxService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onModuleInit(): void {
    const ms = this.config.orderSweepMs;
    if (ms <= 0) return;
    this.timer = setInterval(() => this.tick(), ms);
    this.timer.unref();
  }

  /** Stops the timer and waits for a sweep in flight, so shutdown never cuts one short. */
  async onModuleDestroy(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** One periodic sweep of every pair, unless the previous one is still running. */
  tick(): void {
    if (this.running) return;
    this.running = this.sweep(null)
      .then((result) => {
        if (result.changed + result.expired > 0) this.logger.info(result, 'orders swept');
      })
      .catch((error: unknown) => this.logger.warn({ err: error }, 'order sweep failed'))
      .finally(() => {
        this.running = undefined;
      });
  }

  /**
   * After a pair's price, levels or halt changed: sweeps it at once. A failure is logged, not raised: the
   * change itself is committed, and the periodic sweep does what this one could not.
   */
  async afterMarketChange(symbol: string): Promise<void> {
    try {
      await this.sweep([symbol]);
    } catch (error) {
      this.logger.warn({ err: error, symbol }, 'order sweep after a market change failed');
    }
  }

  /** Expires, triggers and fills until nothing more is due for `symbols` (null: every pair). */
  async sweep(symbols: readonly string[] | null): Promise<SweepResult> {
    let expired = 0;
    if (symbols === null) {
      for (let n = SWEEP_BATCH; n === SWEEP_BATCH; expired += n) {
        n = await transaction(this.dataSource, (manager) => this.expireBatch(manager));
      }
    }
    for (let n = SWEEP_BATCH; n === SWEEP_BATCH;) {
      n = await transaction(this.dataSource, (manager) =>
        this.sweeps.triggerStops(manager, symbols, SWEEP_BATCH),
      );
    }
    let changed = 0;
    for (;;) {
      const { locked, decided } = await transaction(this.dataSource, (manager) =>
        this.fillBatch(manager, symbols),
      );
      changed += decided;
      if (locked < SWEEP_BATCH || decided === 0) break;
    }
    return { changed, expired };
  }

  /** One batch of expired orders: EXPIRED, the rest no longer reserved; answers how many. */
  private async expireBatch(manager: EntityManager): Promise<number> {
    const orders = await this.sweeps.lockExpired(manager, SWEEP_BATCH);
    const expired = orders.map((order) => changed(order, { status: 'EXPIRED' }));
    await this.write(manager, expired, []);
    return orders.length;
  }

  /** One batch of crossing orders, decided in priority order; answers how many were locked and changed. */
  private async fillBatch(
    manager: EntityManager,
    symbols: readonly string[] | null,
  ): Promise<{ locked: number; decided: number }> {
    const pairs = await this.sweeps.claimPairs(manager, symbols);
    if (pairs.length === 0) return { locked: 0, decided: 0 };
    const orders = await this.sweeps.lockCrossing(manager, pairs, SWEEP_BATCH);
    if (orders.length === 0) return { locked: 0, decided: 0 };
    const locked = await this.sweeps.lockUsers(
      manager,
      orders.map((order) => order.userId),
    );
    const facts = await this.sweeps.readFacts(
      manager,
      locked.map((user) => user.id),
      factNeeds(orders, locked),
    );
    const users = userFacts(locked, facts);
    const prices = new Map(facts.prices.map(({ symbol, price }) => [symbol, new Dec(price)]));
    const markets = await this.execution.lockMarkets(
      manager,
      orders.map((order) => order.symbol),
    );
    const changed: Order[] = [];
    const fills: FillRow[] = [];
    for (const order of orders) {
      const user = users.get(order.userId);
      const market = markets.get(order.symbol);
      if (!user || !market) continue;
      const decision = decideResting(order, user, market, prices);
      if (decision.kind === 'none') continue;
      changed.push(decision.order);
      if (decision.kind !== 'fill') continue;
      const { base } = pairOf(order.symbol);
      for (const cost of decision.fills) {
        fills.push({
          orderId: order.id,
          userId: order.userId,
          orgId: order.orgId,
          symbol: order.symbol,
          base,
          side: order.side,
          fromLevel: market.hasLevels,
          cost,
        });
      }
    }
    await this.write(manager, changed, fills);
    return { locked: orders.length, decided: changed.length };
  }

  /** The orders as decided, their fills and one Orders event each, in the batch's transaction. */
  private async write(manager: EntityManager, orders: readonly Order[], fills: readonly FillRow[]) {
    if (orders.length === 0) return;
    await this.sweeps.update(manager, orders);
    await this.execution.writeFills(manager, fills);
    await this.events.recordMany(
      manager,
      orders.map((order) => ({ orgId: order.orgId, entity: 'Orders', data: orderRecord(order) })),
    );
  }
}

/** What the batch's checks read beyond positions: only what the users' limits need. */
function factNeeds(orders: readonly Order[], users: readonly SweptUser[]): FactNeeds {
  const has = (limits: Readonly<Record<string, string>> | undefined) => Object.keys(limits ?? {}).length > 0;
  const sellers = new Set(orders.filter((order) => order.side === 'SELL').map((order) => order.userId));
  return {
    traded: users.filter((user) => has(user.policy.totalLimit)).map((user) => user.id),
    byQuote: users
      .filter((user) => has(user.policy.totalLimit) || has(user.policy.totalExposure))
      .map((user) => user.id),
    byBase: users
      .filter((user) => sellers.has(user.id) || has(user.policy.assetExposure))
      .map((user) => user.id),
    bases: [...new Set(orders.map((order) => pairOf(order.symbol).base))],
    prices: users.some((user) => has(user.policy.totalExposure)),
  };
}

/** Each user's facts of the batch, by user id. */
function userFacts(locked: readonly SweptUser[], facts: BatchFacts): Map<string, UserFacts> {
  const users = new Map<string, UserFacts>();
  for (const user of locked) {
    users.set(user.id, {
      userStatus: user.user_status,
      kyc: user.kyc,
      tnc: user.tnc,
      policy: user.policy,
      positions: new Map(),
      traded: new Map(),
      byQuote: new Map(),
      byBase: new Map(),
    });
  }
  for (const row of facts.positions) users.get(row.user_id)?.positions.set(row.asset, new Dec(row.quantity));
  for (const row of facts.traded) users.get(row.user_id)?.traded.set(row.quote, new Dec(row.amount));
  for (const row of facts.byQuote) {
    const held = users.get(row.user_id)?.byQuote;
    const entry = held?.get(row.code) ?? { all: new Dec(0), buy: new Dec(0) };
    entry.all = entry.all.plus(row.amount);
    if (row.side === 'BUY') entry.buy = entry.buy.plus(row.amount);
    held?.set(row.code, entry);
  }
  for (const row of facts.byBase) {
    const held = users.get(row.user_id)?.byBase;
    const entry = held?.get(row.code) ?? { buy: new Dec(0), sell: new Dec(0) };
    if (row.side === 'BUY') entry.buy = entry.buy.plus(row.amount);
    else entry.sell = entry.sell.plus(row.amount);
    held?.set(row.code, entry);
  }
  return users;
}
