// The worker's scheduled upkeep on pg-boss: the event log's retention (docs/decisions.md, "Events: retention
// and pruning"), the price ticks' and the expired Idempotency-Keys. Every ten minutes, each tick run once
// whatever the number of workers; a run deletes in short batches within a time budget, so that a backlog is
// worked off over several runs instead of one long one.
import { QUEUES, pruneEvents, pruneIdempotencyKeys, prunePriceTicks } from '@svc/db';
import type { PgBoss, WorkOptions } from 'pg-boss';
import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';

import type { WorkerConfig } from './config.js';

/** Every ten minutes: a day's events of a busy table go in a few runs, a quiet one's in one batch. */
export const UPKEEP_CRON = '*/10 * * * *';
/** A run stops starting batches after this long; the next run carries on. */
const BUDGET_MS = 60_000;
/** Rest between batches, so other writers are never kept waiting long. */
const PAUSE_MS = 50;

/** One piece of upkeep: its queue, what its log line says, and one run. */
interface Upkeep {
  readonly queue: string;
  readonly logged: string;
  readonly run: () => Promise<{ readonly deleted: number; readonly done: boolean }>;
}

function upkeepOf(config: WorkerConfig, dataSource: DataSource): Upkeep[] {
  const olderThan = (ms: number) => new Date(Date.now() - ms);
  return [
    {
      queue: QUEUES.eventRetention,
      logged: 'old events pruned',
      run: () => {
        const before = olderThan(config.eventRetentionMs);
        return pruneEvents(dataSource, { before, budgetMs: BUDGET_MS, pauseMs: PAUSE_MS });
      },
    },
    {
      queue: QUEUES.priceTickRetention,
      logged: 'old price ticks pruned',
      run: () => {
        const before = olderThan(config.priceTickRetentionMs);
        return prunePriceTicks(dataSource, { before, budgetMs: BUDGET_MS, pauseMs: PAUSE_MS });
      },
    },
    {
      queue: QUEUES.idempotencyKeyPruning,
      logged: 'expired idempotency keys pruned',
      run: () => pruneIdempotencyKeys(dataSource, { budgetMs: BUDGET_MS }),
    },
  ];
}

/** Puts each schedule in place (idempotent: every worker does it at start) and works its queue. */
export async function startUpkeep(
  boss: PgBoss,
  polling: WorkOptions,
  config: WorkerConfig,
  dataSource: DataSource,
  logger: Logger,
): Promise<void> {
  for (const { queue, logged, run } of upkeepOf(config, dataSource)) {
    await boss.schedule(queue, UPKEEP_CRON);
    await boss.work(queue, polling, async () => {
      const started = Date.now();
      const result = await run();
      if (result.deleted > 0 || !result.done)
        logger.info({ ...result, durationMs: Date.now() - started }, logged);
    });
  }
}
