// Idempotency-Keys past their 24 hours (docs/decisions.md, "Requests: Idempotency-Key"), deleted on a pg-boss
// schedule as the event log's retention is: each tick runs once whatever the number of workers, in short
// batches through the index on expiry, within a time budget.
import { QUEUES, pruneIdempotencyKeys } from '@svc/db';
import type { PgBoss } from 'pg-boss';
import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';

/** Every ten minutes: a key outlives its 24 hours by at most that, unseen (a new use takes it over). */
export const IDEMPOTENCY_PRUNING_CRON = '*/10 * * * *';
/** A run stops starting batches after this long; the next run carries on. */
const BUDGET_MS = 60_000;

export class IdempotencyKeyPruning {
  constructor(
    private readonly dataSource: DataSource,
    private readonly logger: Logger,
  ) {}

  /** Puts the schedule in place (idempotent: every worker does it at start). */
  async schedule(boss: PgBoss): Promise<void> {
    await boss.schedule(QUEUES.idempotencyKeyPruning, IDEMPOTENCY_PRUNING_CRON);
  }

  /** The pg-boss handler: one pruning run. */
  readonly handle = async (): Promise<void> => {
    const result = await pruneIdempotencyKeys(this.dataSource, { budgetMs: BUDGET_MS });
    if (result.deleted > 0 || !result.done) this.logger.info(result, 'expired idempotency keys pruned');
  };
}
