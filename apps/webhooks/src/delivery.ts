// Delivers the api's events (docs/decisions.md, "Webhooks"). Each batch of jobs: read the events and their
// organisations' endpoints, make the attempts (the per-endpoint cap applies), then write every outcome
// in one transaction with the jobs that follow from it (retries, put-back jobs, failure e-mails). A
// crash before that commit loses nothing: pg-boss hands the jobs out again and the attempts repeat (at
// least once; receivers drop duplicates by svc-event-id). A job whose event has moved on (delivered,
// or a later retry scheduled) is dropped, so a duplicate job never sends twice in one state.
import {
  decryptSecret,
  QUEUES,
  bossDb,
  query,
  transaction,
  type Statement,
  type WebhookDeliveryJob,
} from '@svc/db';
import { eventBodyText, MAX_EVENT_RETRIES } from '@svc/protocol';
import type { AttemptResult, WebhookSender } from '@svc/webhook-sender';
import type { Job, JobInsert, PgBoss } from 'pg-boss';
import type { Logger } from 'pino';
import type { DataSource, QueryRunner } from 'typeorm';

import type { WorkerConfig } from './config.js';
import { EndpointSlots } from './endpoint-slots.js';

interface EventRow {
  id: string;
  org_id: number;
  entity: string;
  event_type: string | null;
  /** The event's data as stored: json text, sent as is so amounts keep every digit. */
  data: string;
  status: string;
  num_retries: number;
  created_at: Date;
  updated_at: Date;
  endpoint_id: string | null;
  url: string | null;
  secret_ciphertext: string | null;
  endpoint_status: string | null;
  last_failure_email_at: Date | null;
}

interface Attempted {
  readonly row: EventRow;
  readonly numRetries: number;
  readonly manual: boolean;
  readonly result: AttemptResult;
}

/** What a batch decided, written in one transaction. */
interface Outcomes {
  attempts: Attempted[];
  /** Events to put back in the queue because their endpoint had no free slot. */
  deferred: WebhookDeliveryJob[];
  /** Events with no active endpoint: nothing to deliver to. */
  skipped: string[];
  /** Events that failed for good, with the numRetries of their last attempt. */
  failed: { row: EventRow; numRetries: number }[];
}

/**
 * How long a job waits for a slot of its endpoint before it is put back: long enough for a fast
 * endpoint's slots to turn over many times, short enough that jobs of a slow one leave their batch (and
 * its fetcher) free for other endpoints.
 */
const SLOT_WAIT_MS = 200;
/** When a put-back job comes round again. */
const DEFER_MS = 500;

export class DeliveryProcessor {
  private readonly slots: EndpointSlots;
  private readonly secrets = new Map<string, string>();

  constructor(
    private readonly config: WorkerConfig,
    private readonly dataSource: DataSource,
    private readonly boss: PgBoss,
    private readonly sender: WebhookSender,
    private readonly logger: Logger,
  ) {
    this.slots = new EndpointSlots(config.perEndpointConcurrency);
  }

  /** The pg-boss batch handler. Throwing fails the batch, and pg-boss retries its jobs. */
  readonly handle = async (jobs: Job<WebhookDeliveryJob>[]): Promise<void> => {
    const rows = await this.load(jobs.map((job) => job.data.eventId));
    const outcomes: Outcomes = { attempts: [], deferred: [], skipped: [], failed: [] };
    const now = Date.now();
    await Promise.all(
      jobs.map(async ({ data: job }) => {
        const row = rows.get(job.eventId);
        if (!row) return; // the event is gone (its organisation was deleted)
        const manual = job.manual === true;
        const expected = job.numRetries ?? 0;
        if (!manual && (row.status !== 'PENDING' || row.num_retries !== expected)) return; // stale job
        if (!row.endpoint_id || row.endpoint_status !== 'ACTIVE') {
          if (!manual) outcomes.skipped.push(row.id);
          return;
        }
        if (now >= row.created_at.getTime() + this.config.webhooks.windowMs) {
          // docs/api-guide.md#delivery-retries-and-the-24-hour-window: not delivered after one day,
          // redeliveries included.
          if (!manual) outcomes.failed.push({ row, numRetries: expected });
          return;
        }
        const numRetries = manual ? Math.min(row.num_retries + 1, MAX_EVENT_RETRIES) : expected;
        const release = await this.slots.acquire(row.endpoint_id, SLOT_WAIT_MS);
        if (!release) {
          outcomes.deferred.push(job);
          return;
        }
        try {
          const result = await this.attempt(row, numRetries);
          outcomes.attempts.push({ row, numRetries, manual, result });
        } finally {
          release();
        }
      }),
    );
    await this.record(outcomes);
  };

  private async attempt(row: EventRow, numRetries: number): Promise<AttemptResult> {
    const fields = {
      orgId: row.org_id,
      entity: row.entity,
      eventType: row.event_type,
      numRetries,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    };
    const result = await this.sender.send({
      url: new URL(row.url ?? ''),
      body: eventBodyText(fields, row.data),
      secret: this.secret(row.secret_ciphertext ?? ''),
      eventId: row.id,
    });
    const line = {
      eventId: row.id,
      orgId: row.org_id,
      url: row.url,
      numRetries,
      durationMs: result.durationMs,
      statusCode: result.statusCode,
      errorKind: result.errorKind,
    };
    if (result.delivered) this.logger.debug(line, 'webhook delivered');
    else this.logger.info({ ...line, response: result.response }, 'webhook attempt failed');
    return result;
  }

  private secret(ciphertext: string): string {
    let secret = this.secrets.get(ciphertext);
    if (secret === undefined) {
      secret = decryptSecret(this.config.masterKey, ciphertext);
      if (this.secrets.size > 10_000) this.secrets.clear();
      this.secrets.set(ciphertext, secret);
    }
    return secret;
  }

  private async load(ids: string[]): Promise<Map<string, EventRow>> {
    const rows = await query<EventRow>(this.dataSource, LOAD_EVENTS, [ids]);
    return new Map(rows.map((row) => [row.id, row]));
  }

  /** Every outcome of the batch and the jobs they call for, in one transaction. */
  private async record(outcomes: Outcomes): Promise<void> {
    const { attempts, deferred, skipped } = outcomes;
    const failed = [...outcomes.failed];
    const retries: { row: EventRow; numRetries: number; at: Date }[] = [];
    const now = Date.now();
    for (const attempt of attempts) {
      if (attempt.manual || attempt.result.delivered) continue;
      const at = now + this.backoff(attempt.numRetries);
      const deadline = attempt.row.created_at.getTime() + this.config.webhooks.windowMs;
      if (attempt.numRetries < MAX_EVENT_RETRIES && at < deadline) {
        retries.push({ row: attempt.row, numRetries: attempt.numRetries, at: new Date(at) });
      } else {
        failed.push({ row: attempt.row, numRetries: attempt.numRetries });
      }
    }
    if (attempts.length + deferred.length + skipped.length + failed.length === 0) return;
    const manual = attempts.filter((a) => a.manual);
    const recorded = attempts.length > 0 ? attemptValues(attempts) : undefined;
    if (recorded && manual.length + deferred.length + skipped.length + failed.length + retries.length === 0) {
      // The common batch, every attempt delivered: one statement, so one round trip and one commit.
      await query(this.dataSource, RECORD_ATTEMPTS, recorded);
      return;
    }

    await transaction(this.dataSource, async (runner) => {
      const db = bossDb(runner);
      if (recorded) await query(runner, RECORD_ATTEMPTS, recorded);
      if (manual.length > 0) {
        await query(
          runner,
          `UPDATE events e SET num_retries = v.n, updated_at = now(),
                  status = CASE WHEN v.delivered THEN 'DELIVERED' ELSE e.status END
             FROM unnest($1::uuid[], $2::int[], $3::bool[]) AS v(id, n, delivered) WHERE e.id = v.id`,
          [
            manual.map((a) => a.row.id),
            manual.map((a) => a.numRetries),
            manual.map((a) => a.result.delivered),
          ],
        );
      }
      if (skipped.length > 0) {
        await query(
          runner,
          `UPDATE events SET status = 'SKIPPED', updated_at = now() WHERE id = ANY($1::uuid[]) AND status = 'PENDING'`,
          [skipped],
        );
      }
      const jobs: JobInsert<WebhookDeliveryJob>[] = deferred.map((job) => ({
        data: job,
        startAfter: new Date(now + DEFER_MS),
      }));
      if (retries.length > 0) {
        // Only events still where this batch found them move on: a duplicate job cannot schedule twice.
        const moved = await query<{ id: string; num_retries: number }>(
          runner,
          `UPDATE events e SET num_retries = v.n + 1, updated_at = now()
             FROM unnest($1::uuid[], $2::int[]) AS v(id, n)
            WHERE e.id = v.id AND e.status = 'PENDING' AND e.num_retries = v.n
        RETURNING e.id, e.num_retries`,
          [retries.map((r) => r.row.id), retries.map((r) => r.numRetries)],
        );
        const at = new Map(retries.map((r) => [r.row.id, r.at]));
        for (const row of moved) {
          jobs.push({
            data: { eventId: row.id, numRetries: row.num_retries },
            startAfter: at.get(row.id) ?? new Date(),
          });
        }
      }
      if (jobs.length > 0) await this.boss.insert(QUEUES.webhookDelivery, jobs, { db });
      if (failed.length > 0) await this.fail(runner, failed);
    });
  }

  /** FAILED for good: noted for the organisation's failure e-mail, which is scheduled per endpoint. */
  private async fail(runner: QueryRunner, failed: { row: EventRow; numRetries: number }[]): Promise<void> {
    const noted = await query<{ org_id: number }>(
      runner,
      `WITH failed AS (
         UPDATE events e SET status = 'FAILED', updated_at = now()
           FROM unnest($1::uuid[], $2::int[]) AS v(id, n)
          WHERE e.id = v.id AND e.status = 'PENDING' AND e.num_retries = v.n
      RETURNING e.id, e.org_id)
       INSERT INTO webhook_failures (event_id, org_id, failed_at)
       SELECT id, org_id, now() FROM failed ON CONFLICT DO NOTHING RETURNING org_id`,
      [failed.map((f) => f.row.id), failed.map((f) => f.numRetries)],
    );
    const orgs = new Set(noted.map((row) => row.org_id));
    const endpoints = new Map<string, EventRow>();
    for (const { row } of failed)
      if (orgs.has(row.org_id) && row.endpoint_id) endpoints.set(row.endpoint_id, row);
    for (const [endpointId, row] of endpoints) {
      this.logger.warn({ orgId: row.org_id, url: row.url }, 'webhook events failed for good');
      const soonest = Date.now() + this.config.failureEmailDelayMs;
      const allowed = (row.last_failure_email_at?.getTime() ?? 0) + this.config.failureEmailIntervalMs;
      // One job waiting per endpoint (the queue's policy): if one is already due, this joins it.
      await this.boss.send(
        QUEUES.webhookFailureEmail,
        { endpointId },
        { singletonKey: endpointId, startAfter: new Date(Math.max(soonest, allowed)), db: bossDb(runner) },
      );
    }
  }

  /** Wait before retry `numRetries + 1`: the configured step, spread by ± jitter. */
  private backoff(numRetries: number): number {
    const base = this.config.retryDelaysMs[numRetries] ?? this.config.retryDelaysMs[2];
    const spread = 1 + this.config.retryJitter * (Math.random() * 2 - 1);
    return Math.round(base * spread);
  }
}

/*
 * The statements of every batch, prepared once per connection: planning the join and the unnest insert
 * cost PostgreSQL more than running them (measured with bench/webhooks.bench.mjs).
 */
const LOAD_EVENTS: Statement = {
  name: 'webhooks_load_events',
  text: `SELECT e.id, e.org_id, e.entity, e.event_type, e.data::text AS data, e.status, e.num_retries, e.created_at, e.updated_at,
                w.id AS endpoint_id, w.url, w.secret_ciphertext, w.status AS endpoint_status, w.last_failure_email_at
           FROM events e LEFT JOIN webhook_endpoints w ON w.org_id = e.org_id
          WHERE e.id = ANY($1::uuid[])`,
};

/**
 * Inserts the attempts and marks the events a scheduled (not manual) attempt delivered DELIVERED, in one
 * statement (the INSERT in WITH runs though nothing refers to it). Values: {@link attemptValues}.
 */
const RECORD_ATTEMPTS: Statement = {
  name: 'webhooks_record_attempts',
  text: `WITH inserted AS (
           INSERT INTO webhook_attempts
             (event_id, org_id, url, num_retries, manual, attempted_at, duration_ms, status_code, error_kind, response, delivered)
           SELECT * FROM unnest($1::uuid[], $2::int[], $3::text[], $4::int[], $5::bool[], $6::timestamptz[], $7::int[],
                                $8::int[], $9::text[], $10::text[], $11::bool[]))
         UPDATE events SET status = 'DELIVERED', updated_at = now()
          WHERE id = ANY($12::uuid[]) AND status = 'PENDING'`,
};

function attemptValues(attempts: Attempted[]): unknown[] {
  const column = <T>(pick: (a: Attempted) => T) => attempts.map(pick);
  return [
    column((a) => a.row.id),
    column((a) => a.row.org_id),
    column((a) => a.row.url),
    column((a) => a.numRetries),
    column((a) => a.manual),
    column((a) => a.result.startedAt.toISOString()),
    column((a) => a.result.durationMs),
    column((a) => a.result.statusCode),
    column((a) => a.result.errorKind),
    // PostgreSQL text cannot hold NUL; an answer may.
    column((a) => a.result.response.replaceAll('\u0000', '')),
    column((a) => a.result.delivered),
    attempts.filter((a) => a.result.delivered && !a.manual).map((a) => a.row.id),
  ];
}
