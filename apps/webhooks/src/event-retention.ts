// The event log's retention (docs/decisions.md, "Events: retention and pruning"): on a pg-boss schedule,
// which runs each tick once whatever the number of workers, events older than EVENT_RETENTION_DAYS are
// deleted in short batches (their attempts and failure records go with them), within a time budget so that
// a backlog is worked off over several runs instead of one long one.
import { QUEUES, pruneEvents } from '@svc/db';
import type { PgBoss } from 'pg-boss';
import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';

import type { WorkerConfig } from './config.js';

/** Every ten minutes: a day's events of a busy table go in a few runs, a quiet one's in one batch. */
export const RETENTION_CRON = '*/10 * * * *';
/** A run stops starting batches after this long; the next run carries on. */
const BUDGET_MS = 60_000;
/** Rest between batches, so other writers are never kept waiting long. */
const PAUSE_MS = 50;

export class EventRetention {
  constructor(
    private readonly config: WorkerConfig,
    private readonly dataSource: DataSource,
    private readonly logger: Logger,
  ) {}

  /** Puts the schedule in place (idempotent: every worker does it at start). */
  async schedule(boss: PgBoss): Promise<void> {
    await boss.schedule(QUEUES.eventRetention, RETENTION_CRON);
  }

  /** The pg-boss handler: one pruning run. */
  readonly handle = async (): Promise<void> => {
    const before = new Date(Date.now() - this.config.eventRetentionMs);
    const started = Date.now();
    const result = await pruneEvents(this.dataSource, { before, budgetMs: BUDGET_MS, pauseMs: PAUSE_MS });
    if (result.deleted > 0 || !result.done) {
      this.logger.info(
        { ...result, before: before.toISOString(), durationMs: Date.now() - started },
        'old events pruned',
      );
    }
  };
}
