// The organisations' Idempotency-Keys past their 24 hours, deleted by the worker's schedule in short
// batches through the index on expiry (docs/decisions.md, "Requests: Idempotency-Key").
import type { DataSource } from 'typeorm';

import { query } from './sql.js';

/** Keys deleted per statement: each batch is its own short transaction. */
export const IDEMPOTENCY_PRUNE_BATCH_SIZE = 5000;

/**
 * One batch of expired keys, in expiry order through `idempotency_keys_expires`. A key a request is taking
 * over at this moment (a new use after expiry updates the row) is locked, so skipped, not waited for.
 */
const DELETE_BATCH = {
  name: 'idempotency_keys_prune_batch',
  text: `WITH picked AS (SELECT org_id, key FROM idempotency_keys WHERE expires_at <= now()
                          ORDER BY expires_at LIMIT $1 FOR UPDATE SKIP LOCKED),
              deleted AS (DELETE FROM idempotency_keys k USING picked p
                           WHERE k.org_id = p.org_id AND k.key = p.key RETURNING 1)
         SELECT count(*)::int AS n FROM deleted`,
};

export interface IdempotencyPruneResult {
  readonly deleted: number;
  /** False when the budget ran out with expired keys left. */
  readonly done: boolean;
}

/** Deletes expired keys a batch at a time, starting no batch after `budgetMs`. */
export async function pruneIdempotencyKeys(
  dataSource: DataSource,
  options: { readonly budgetMs?: number; readonly batchSize?: number } = {},
): Promise<IdempotencyPruneResult> {
  const batchSize = options.batchSize ?? IDEMPOTENCY_PRUNE_BATCH_SIZE;
  const stopAt = Date.now() + (options.budgetMs ?? Number.POSITIVE_INFINITY);
  let deleted = 0;
  for (;;) {
    const [row] = await query<{ n: number }>(dataSource, DELETE_BATCH, [batchSize]);
    const count = row?.n ?? 0;
    deleted += count;
    if (count < batchSize) return { deleted, done: true };
    if (Date.now() >= stopAt) return { deleted, done: false };
  }
}
