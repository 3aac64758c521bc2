// Recovery (docs/decisions.md, "Webhooks: redelivery and recovery"): the worker's side of
// POST /api/v1/webhooks/recover/. Its job chooses the organisation's FAILED events created between `since`
// and the request and still inside the delivery window, and queues one asked-for attempt of each in the
// delivery queue, in one transaction; each event's outcome is then counted once (recordRecoveryOutcomes).
import { query, queueRedeliveries, transaction, type WebhookRecoveryJob } from '@svc/db';
import type { Job } from 'pg-boss';
import type { Logger } from 'pino';
import type { DataSource, EntityManager } from 'typeorm';

import type { WorkerConfig } from './config.js';
import type { Settlement } from './delivery-queue.js';

export interface RecoveryOutcome {
  readonly recoveryId: string;
  readonly eventId: string;
  /** A 200 to its one attempt; false when the attempt failed or could not be made. */
  readonly delivered: boolean;
}

export class RecoveryRunner {
  constructor(
    private readonly config: WorkerConfig,
    private readonly dataSource: DataSource,
    private readonly logger: Logger,
  ) {}

  /** The pg-boss handler: one job per recovery. */
  readonly handle = async (jobs: Job<WebhookRecoveryJob>[]): Promise<void> => {
    for (const job of jobs) await this.start(job.data.recoveryId);
  };

  private async start(recoveryId: string): Promise<void> {
    await transaction(this.dataSource, async (manager) => {
      const [recovery] = await query<{ org_id: number; since: Date; created_at: Date }>(
        manager,
        `SELECT org_id, since, created_at FROM webhook_recoveries WHERE id = $1 AND status = 'PENDING' FOR UPDATE`,
        [recoveryId],
      );
      if (!recovery) return; // started already (a repeated job), or its organisation is gone
      const windowStart = new Date(Date.now() - this.config.webhooks.windowMs);
      const chosen = await query<{ event_id: string }>(
        manager,
        `INSERT INTO webhook_recovery_items (recovery_id, event_id)
         SELECT $1, id FROM events
          WHERE org_id = $2 AND status = 'FAILED' AND created_at >= $3 AND created_at > $4 AND created_at <= $5
          ORDER BY created_at, id
         RETURNING event_id`,
        [recoveryId, recovery.org_id, recovery.since, windowStart, recovery.created_at],
      );
      await queueRedeliveries(
        manager,
        chosen.map(({ event_id }) => event_id),
        recoveryId,
      );
      await query(
        manager,
        `UPDATE webhook_recoveries
            SET total = $2, started_at = now(),
                status = CASE WHEN $2 = 0 THEN 'COMPLETED' ELSE 'RUNNING' END,
                completed_at = CASE WHEN $2 = 0 THEN now() END
          WHERE id = $1`,
        [recoveryId, chosen.length],
      );
      this.logger.info(
        { recoveryId, orgId: recovery.org_id, events: chosen.length },
        'webhook recovery started',
      );
    });
  }
}

/** The outcome of each recovery's event a batch settled: its attempt's, or undelivered when it had none. */
export function recoveryOutcomes(settlement: Settlement): RecoveryOutcome[] {
  const outcomes: RecoveryOutcome[] = [];
  for (const { due, result } of settlement.attempts) {
    const recoveryId = due.asked?.recoveryId;
    if (recoveryId) outcomes.push({ recoveryId, eventId: due.row.id, delivered: result.delivered });
  }
  for (const due of settlement.dropped) {
    const recoveryId = due.asked?.recoveryId;
    if (recoveryId) outcomes.push({ recoveryId, eventId: due.row.id, delivered: false });
  }
  return outcomes;
}

/**
 * Each event's outcome, set once (a repeated job changes nothing), and its recovery's counts; a recovery
 * whose every event has its outcome is COMPLETED. Recoveries are updated one at a time in id order, so
 * two batches touching the same ones cannot deadlock.
 */
export async function recordRecoveryOutcomes(
  manager: EntityManager,
  outcomes: readonly RecoveryOutcome[],
): Promise<void> {
  if (outcomes.length === 0) return;
  const decided = await query<{ recovery_id: string; outcome: string }>(
    manager,
    `UPDATE webhook_recovery_items i SET outcome = v.outcome
       FROM unnest($1::uuid[], $2::uuid[], $3::text[]) AS v(recovery_id, event_id, outcome)
      WHERE i.recovery_id = v.recovery_id AND i.event_id = v.event_id AND i.outcome IS NULL
  RETURNING i.recovery_id, i.outcome`,
    [
      outcomes.map((o) => o.recoveryId),
      outcomes.map((o) => o.eventId),
      outcomes.map((o) => (o.delivered ? 'DELIVERED' : 'FAILED')),
    ],
  );
  const counts = new Map<string, { delivered: number; failed: number }>();
  for (const row of decided) {
    const count = counts.get(row.recovery_id) ?? { delivered: 0, failed: 0 };
    if (row.outcome === 'DELIVERED') count.delivered++;
    else count.failed++;
    counts.set(row.recovery_id, count);
  }
  for (const [recoveryId, count] of [...counts].sort(([a], [b]) => a.localeCompare(b))) {
    await query(
      manager,
      `UPDATE webhook_recoveries
          SET delivered = delivered + $2, failed = failed + $3,
              status = CASE WHEN delivered + $2 + failed + $3 >= total THEN 'COMPLETED' ELSE status END,
              completed_at = CASE WHEN delivered + $2 + failed + $3 >= total THEN now() ELSE completed_at END
        WHERE id = $1`,
      [recoveryId, count.delivered, count.failed],
    );
  }
}
