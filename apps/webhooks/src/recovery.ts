// Recovery (docs/decisions.md, "Webhooks: redelivery and recovery"): the worker's side of
// POST /api/v1/webhooks/recover/. Its job chooses the organisation's FAILED events created between `since`
// and the request and still inside the delivery window, and queues one manual attempt of each, in one
// transaction; the delivery processor then counts each event's outcome once (recordRecoveryOutcomes).
import {
  QUEUES,
  bossDb,
  query,
  transaction,
  type WebhookDeliveryJob,
  type WebhookRecoveryJob,
} from '@svc/db';
import type { Job, PgBoss } from 'pg-boss';
import type { Logger } from 'pino';
import type { PoolClient } from 'pg';
import type { DataSource } from 'typeorm';

import type { WorkerConfig } from './config.js';

/** Jobs per pg-boss insert, as the api inserts them. */
const BULK_JOBS = 5000;

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
    private readonly boss: PgBoss,
    private readonly logger: Logger,
  ) {}

  /** The pg-boss handler: one job per recovery. */
  readonly handle = async (jobs: Job<WebhookRecoveryJob>[]): Promise<void> => {
    for (const job of jobs) await this.start(job.data.recoveryId);
  };

  private async start(recoveryId: string): Promise<void> {
    await transaction(this.dataSource, async (client) => {
      const [recovery] = await query<{ org_id: number; since: Date; created_at: Date }>(
        client,
        `SELECT org_id, since, created_at FROM webhook_recoveries WHERE id = $1 AND status = 'PENDING' FOR UPDATE`,
        [recoveryId],
      );
      if (!recovery) return; // started already (a repeated job), or its organisation is gone
      const windowStart = new Date(Date.now() - this.config.webhooks.windowMs);
      const chosen = await query<{ event_id: string }>(
        client,
        `INSERT INTO webhook_recovery_items (recovery_id, event_id)
         SELECT $1, id FROM events
          WHERE org_id = $2 AND status = 'FAILED' AND created_at >= $3 AND created_at > $4 AND created_at <= $5
          ORDER BY created_at, id
         RETURNING event_id`,
        [recoveryId, recovery.org_id, recovery.since, windowStart, recovery.created_at],
      );
      const db = bossDb(client);
      for (let start = 0; start < chosen.length; start += BULK_JOBS) {
        const jobs = chosen.slice(start, start + BULK_JOBS).map(({ event_id }) => {
          const job: WebhookDeliveryJob = { eventId: event_id, manual: true, recoveryId };
          return { data: job };
        });
        await this.boss.insert(QUEUES.webhookDelivery, jobs, { db });
      }
      await query(
        client,
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

/** The undecided (recovery, event) pairs among `jobs`, as `recoveryId eventId` keys. */
export async function openRecoveryItems(
  on: DataSource,
  jobs: readonly WebhookDeliveryJob[],
): Promise<Set<string>> {
  const recovering = jobs.filter((job) => job.manual === true && job.recoveryId !== undefined);
  if (recovering.length === 0) return new Set();
  const rows = await query<{ recovery_id: string; event_id: string }>(
    on,
    `SELECT i.recovery_id, i.event_id FROM webhook_recovery_items i
       JOIN unnest($1::uuid[], $2::uuid[]) AS v(recovery_id, event_id)
         ON i.recovery_id = v.recovery_id AND i.event_id = v.event_id
      WHERE i.outcome IS NULL`,
    [recovering.map((job) => job.recoveryId), recovering.map((job) => job.eventId)],
  );
  return new Set(rows.map((row) => recoveryKey(row.recovery_id, row.event_id)));
}

export function recoveryKey(recoveryId: string, eventId: string): string {
  return `${recoveryId} ${eventId}`;
}

/**
 * Each event's outcome, set once (a repeated job changes nothing), and its recovery's counts; a recovery
 * whose every event has its outcome is COMPLETED. Recoveries are updated one at a time in id order, so
 * two batches touching the same ones cannot deadlock.
 */
export async function recordRecoveryOutcomes(
  client: PoolClient,
  outcomes: readonly RecoveryOutcome[],
): Promise<void> {
  if (outcomes.length === 0) return;
  const decided = await query<{ recovery_id: string; outcome: string }>(
    client,
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
      client,
      `UPDATE webhook_recoveries
          SET delivered = delivered + $2, failed = failed + $3,
              status = CASE WHEN delivered + $2 + failed + $3 >= total THEN 'COMPLETED' ELSE status END,
              completed_at = CASE WHEN delivered + $2 + failed + $3 >= total THEN now() ELSE completed_at END
        WHERE id = $1`,
      [recoveryId, count.delivered, count.failed],
    );
  }
}
