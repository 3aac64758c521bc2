// The events table as a log the organisations read and follow (docs/decisions.md, "Events: the log and the
// stream"): the channel its inserts notify, and pruning by age.
import type { DataSource } from 'typeorm';

import { query } from './sql.js';

/**
 * The channel the events table's trigger notifies at each commit that inserted events (migration
 * 1795500000000-EventLog): the payload is the organisations' ids, comma-separated, or `*` for many.
 */
export const EVENTS_CHANNEL = 'svc_events';

/** Events deleted per statement: each batch is its own short transaction (figures in docs/decisions.md). */
export const PRUNE_BATCH_SIZE = 5000;

export interface PruneOptions {
  /** Events created before this are deleted, with their attempts and failure records (ON DELETE CASCADE). */
  readonly before: Date;
  readonly batchSize?: number;
  /** Stop starting batches after this long (ms); the next run carries on. Default: until done. */
  readonly budgetMs?: number;
  /** Rest between batches (ms), so that pruning never holds the database for long. Default 0. */
  readonly pauseMs?: number;
}

export interface PruneResult {
  readonly deleted: number;
  readonly batches: number;
  /** False when the budget ran out with old events left. */
  readonly done: boolean;
}

/**
 * Each batch takes up to `batchSize` old events through the per-organisation index (org_id, created_at, …):
 * one short index probe per organisation, whatever the table's size, rather than a scan or an index of
 * its own that every insert would pay for.
 */
const DELETE_BATCH = {
  name: 'events_prune_batch',
  text: `WITH deleted AS (
           DELETE FROM events WHERE id IN (
             SELECT e.id FROM organisations o
             CROSS JOIN LATERAL (SELECT id FROM events WHERE org_id = o.id AND created_at < $1
                                  ORDER BY created_at LIMIT $2) e
             LIMIT $2)
           RETURNING 1)
         SELECT count(*)::int AS n FROM deleted`,
};

/** Deletes the events created before `before`, a batch at a time. */
export async function pruneEvents(dataSource: DataSource, options: PruneOptions): Promise<PruneResult> {
  const batchSize = options.batchSize ?? PRUNE_BATCH_SIZE;
  const stopAt = Date.now() + (options.budgetMs ?? Number.POSITIVE_INFINITY);
  let deleted = 0;
  let batches = 0;
  for (;;) {
    const [row] = await query<{ n: number }>(dataSource, DELETE_BATCH, [options.before, batchSize]);
    const count = row?.n ?? 0;
    deleted += count;
    batches++;
    if (count < batchSize) return { deleted, batches, done: true };
    if (Date.now() >= stopAt) return { deleted, batches, done: false };
    if (options.pauseMs) await new Promise((resolve) => setTimeout(resolve, options.pauseMs));
  }
}
