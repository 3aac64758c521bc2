// The price history's retention (docs/configuration.md#market-data): on the worker's pg-boss schedule, like
// the event log's (event-retention.ts), price ticks older than PRICE_TICK_RETENTION_DAYS are deleted in short
// batches within a time budget.
import { QUEUES, prunePriceTicks } from '@svc/db';
import type { PgBoss } from 'pg-boss';
import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';

import type { WorkerConfig } from './config.js';
import { RETENTION_CRON } from './event-retention.js';

const BUDGET_MS = 60_000;
const PAUSE_MS = 50;

export class PriceTickRetention {
  constructor(
    private readonly config: WorkerConfig,
    private readonly dataSource: DataSource,
    private readonly logger: Logger,
  ) {}

  /** Puts the schedule in place (idempotent: every worker does it at start; pg-boss runs each tick once). */
  async schedule(boss: PgBoss): Promise<void> {
    await boss.schedule(QUEUES.priceTickRetention, RETENTION_CRON);
  }

  /** The pg-boss handler: one pruning run. */
  readonly handle = async (): Promise<void> => {
    const before = new Date(Date.now() - this.config.priceTickRetentionMs);
    const started = Date.now();
    const result = await prunePriceTicks(this.dataSource, { before, budgetMs: BUDGET_MS, pauseMs: PAUSE_MS });
    if (result.deleted > 0 || !result.done) {
      this.logger.info(
        { ...result, before: before.toISOString(), durationMs: Date.now() - started },
        'old price ticks pruned',
      );
    }
  };
}
