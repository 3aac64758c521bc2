// The events table as a log the organisations read and follow (docs/decisions.md, "Events: serving the
// stream"): the channel its inserts notify, and pruning by age.
import type { DataSource } from 'typeorm';

import { query } from './sql.js';

/**
 * The channel the api's outbox notifies in the statement that inserts events, so that PostgreSQL delivers it
 * at commit: the payload is the organisations' ids, comma-separated, or `*` for more than fit.
 */
export const EVENTS_CHANNEL = 'svc_events';

/** NOTIFY payloads are limited to 8,000 bytes: longer lists become `*` (every stream looks). */
export function eventsNotification(orgIds: Iterable<number>): string {
  const list = [...new Set(orgIds)].join(',');
  return list.length > 7000 ? '*' : list;
}

/**
 * Events deleted per statement: each batch is its own short transaction (docs/decisions.md, "Events:
 * retention and pruning").
 */
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
 * One batch: up to `batchSize` old events, taken through the per-organisation index (org_id, created_at,
 * position), one organisation after another in id order; the organisation the last batch stopped in is
 * continued after the last row it deleted, so that no batch walks again over the index entries of rows
 * deleted earlier in the run (dead until vacuumed). The rows are deleted by id through the primary key:
 * `id IN (subquery)` let the planner choose a hash join over the whole table. Answers how many were
 * deleted and the last one's (org_id, created_at, position).
 */
const DELETE_BATCH = {
  name: 'events_prune_batch',
  text: `WITH picked AS MATERIALIZED (
           (SELECT id, org_id, created_at, position FROM events
             WHERE org_id = $3 AND created_at < $1 AND (created_at, position) > ($4, $5)
             ORDER BY created_at, position LIMIT $2)
           UNION ALL
           (SELECT e.id, e.org_id, e.created_at, e.position FROM organisations o
             CROSS JOIN LATERAL (SELECT id, org_id, created_at, position FROM events
                                  WHERE org_id = o.id AND created_at < $1
                                  ORDER BY created_at, position LIMIT $2) e
             WHERE o.id > $3 ORDER BY o.id LIMIT $2)
           LIMIT $2),
         deleted AS (DELETE FROM events WHERE id = ANY (ARRAY(SELECT id FROM picked)) RETURNING 1)
         SELECT (SELECT count(*) FROM deleted)::int AS n, last.org_id, last.created_at, last.position
           FROM (SELECT 1) one
           LEFT JOIN LATERAL (SELECT org_id, created_at, position FROM picked
                               ORDER BY org_id DESC, created_at DESC, position DESC LIMIT 1) last ON true`,
};

/** Deletes the events created before `before`, a batch at a time. */
export async function pruneEvents(dataSource: DataSource, options: PruneOptions): Promise<PruneResult> {
  const batchSize = options.batchSize ?? PRUNE_BATCH_SIZE;
  const stopAt = Date.now() + (options.budgetMs ?? Number.POSITIVE_INFINITY);
  let deleted = 0;
  let batches = 0;
  // Where the last batch stopped: (organisation, created_at, position); organisation ids start at 1.
  let after: [number, Date, string] = [0, new Date(0), '0'];
  for (;;) {
    const [row] = await query<{ n: number; org_id: number; created_at: Date; position: string }>(
      dataSource,
      DELETE_BATCH,
      [options.before, batchSize, ...after],
    );
    const count = row?.n ?? 0;
    if (row && count > 0) after = [row.org_id, row.created_at, row.position];
    deleted += count;
    batches++;
    if (count < batchSize) return { deleted, batches, done: true };
    if (Date.now() >= stopAt) return { deleted, batches, done: false };
    if (options.pauseMs) await new Promise((resolve) => setTimeout(resolve, options.pauseMs));
  }
}
