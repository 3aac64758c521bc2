// Pruning price ticks by age: the worker's pg-boss schedule calls it like the event log's pruning
// (docs/decisions.md, "Events: retention and pruning"), in short batches through the (symbol, at, id) index,
// one pair after another, so that no statement holds many rows or scans the table.
import type { DataSource } from 'typeorm';

import type { PruneOptions, PruneResult } from './event-log.js';
import { query } from './sql.js';

export const PRICE_TICK_PRUNE_BATCH_SIZE = 5000;

/**
 * The pairs that have ticks, one index probe each (a loose index scan): ticks have few pairs and many rows,
 * and `SELECT DISTINCT` would read them all.
 */
const SYMBOLS = {
  name: 'price_ticks_symbols',
  text: `WITH RECURSIVE pairs AS (
           (SELECT symbol FROM price_ticks ORDER BY symbol LIMIT 1)
           UNION ALL
           SELECT (SELECT t.symbol FROM price_ticks t WHERE t.symbol > p.symbol ORDER BY t.symbol LIMIT 1)
             FROM pairs p WHERE p.symbol IS NOT NULL)
         SELECT symbol FROM pairs WHERE symbol IS NOT NULL`,
};

/** One batch of one pair's oldest ticks, deleted by id through the primary key. */
const DELETE_BATCH = {
  name: 'price_ticks_prune_batch',
  text: `WITH deleted AS (
           DELETE FROM price_ticks WHERE id = ANY (ARRAY(
             SELECT id FROM price_ticks WHERE symbol = $1 AND at < $2 ORDER BY at, id LIMIT $3))
           RETURNING 1)
         SELECT count(*)::int AS n FROM deleted`,
};

/** Deletes the ticks quoted before `before`, a batch at a time. */
export async function prunePriceTicks(dataSource: DataSource, options: PruneOptions): Promise<PruneResult> {
  const batchSize = options.batchSize ?? PRICE_TICK_PRUNE_BATCH_SIZE;
  const stopAt = Date.now() + (options.budgetMs ?? Number.POSITIVE_INFINITY);
  let deleted = 0;
  let batches = 0;
  const symbols = await query<{ symbol: string }>(dataSource, SYMBOLS);
  for (const { symbol } of symbols) {
    for (;;) {
      const [row] = await query<{ n: number }>(dataSource, DELETE_BATCH, [symbol, options.before, batchSize]);
      const count = row?.n ?? 0;
      deleted += count;
      batches++;
      if (count < batchSize) break;
      if (Date.now() >= stopAt) return { deleted, batches, done: false };
      if (options.pauseMs) await new Promise((resolve) => setTimeout(resolve, options.pauseMs));
    }
  }
  return { deleted, batches, done: true };
}
