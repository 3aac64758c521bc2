// What a batch of the delivery queue (delivery-queue.ts) reads and writes: an event with its organisation's
// endpoint, an attempt's outcome, the statements every batch runs and those its other outcomes need.
import type { Statement } from '@svc/db';
import type { AttemptResult } from '@svc/webhook-sender';

import type { Pause } from './endpoint-pauses.js';

export interface EventRow {
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
  /** Set while its scheduled retry was asked for at once ("Retry now"): that attempt is logged manual. */
  retry_asked_at: Date | null;
  endpoint_id: string | null;
  url: string | null;
  secret_ciphertext: string | null;
  endpoint_status: string | null;
  paused_until: Date | null;
  last_failure_email_at: Date | null;
}

/**
 * An attempt to make: a due PENDING event (the retry schedule's), or one asked for outside it (`asked`: a
 * redelivery, or one event of a recovery).
 */
export interface DueAttempt {
  readonly row: EventRow;
  readonly asked?: AskedAttempt;
}

export interface AskedAttempt {
  /** Its row in webhook_redeliveries. */
  readonly id: string;
  /** The recovery it is part of, which counts its outcome; null for a single redelivery. */
  readonly recoveryId: string | null;
}

export interface Attempted {
  readonly due: DueAttempt;
  /** The numRetries sent: the event's own for a scheduled attempt, one more for an asked one. */
  readonly numRetries: number;
  readonly result: AttemptResult;
  /** The pause its answer asked for (429 or 503 with Retry-After), capped; else null. */
  readonly pause: Pause | null;
}

/*
 * The statements of every batch, prepared once per connection: planning the join and the unnest insert
 * cost PostgreSQL more than running them (measured with bench/webhooks.bench.mjs).
 *
 * The statements that move a scheduled event on (delivered, put back, retried, skipped, failed) find it by
 * id alone: its batch holds its row lock (FOR UPDATE in FETCH_DUE_EVENTS), so its status is the PENDING the
 * batch read. A `status = 'PENDING'` condition would also let the planner scan the partial index events_due
 * instead of the primary key, every PENDING event for each batch, which it chose whenever the statistics
 * were taken with few events pending, that is in a backlog, when it costs most (2 to 20 ms a statement
 * at 20,000 pending in bench/webhooks.bench.mjs).
 */
/** The event and its organisation's endpoint: what an attempt needs, for both fetches below. */
const EVENT_COLUMNS = `e.id, e.org_id, e.entity, e.event_type, e.data::text AS data, e.status, e.num_retries, e.created_at,
       e.updated_at, e.retry_asked_at, w.id AS endpoint_id, w.url, w.secret_ciphertext, w.status AS endpoint_status,
       w.paused_until, w.last_failure_email_at`;

/** The due PENDING events and their endpoints, oldest due first, skipping those another batch holds. */
export const FETCH_DUE_EVENTS: Statement = {
  name: 'webhooks_fetch_due',
  text: `SELECT ${EVENT_COLUMNS}
           FROM events e LEFT JOIN webhook_endpoints w ON w.org_id = e.org_id
          WHERE e.status = 'PENDING' AND e.next_attempt_at <= now()
          ORDER BY e.next_attempt_at LIMIT $1
            FOR UPDATE OF e SKIP LOCKED`,
};

/** The due asked-for attempts with their events and endpoints, oldest due first, as above. */
export const FETCH_DUE_REDELIVERIES: Statement = {
  name: 'webhooks_fetch_redeliveries',
  text: `SELECT r.id AS redelivery_id, r.recovery_id, ${EVENT_COLUMNS}
           FROM webhook_redeliveries r JOIN events e ON e.id = r.event_id
           LEFT JOIN webhook_endpoints w ON w.org_id = e.org_id
          WHERE r.due_at <= now()
          ORDER BY r.due_at LIMIT $1
            FOR UPDATE OF r SKIP LOCKED`,
};

/**
 * Inserts the attempts and marks the events a scheduled (not asked-for) attempt delivered DELIVERED, in one
 * statement (the INSERT in WITH runs though nothing refers to it). Values: {@link attemptValues}.
 */
export const RECORD_ATTEMPTS: Statement = {
  name: 'webhooks_record_attempts',
  text: `WITH inserted AS (
           INSERT INTO webhook_attempts
             (event_id, org_id, url, num_retries, manual, attempted_at, duration_ms, status_code, error_kind, response, delivered,
              event_updated_at)
           SELECT * FROM unnest($1::uuid[], $2::int[], $3::text[], $4::int[], $5::bool[], $6::timestamptz[], $7::int[],
                                $8::int[], $9::text[], $10::text[], $11::bool[], $12::timestamptz[]))
         UPDATE events SET status = 'DELIVERED', updated_at = now(), retry_asked_at = NULL
          WHERE id = ANY($13::uuid[])`,
};

/** Asked-for attempts: the event's numRetries raised to the attempt's, DELIVERED when it was. Values: ids, numRetries, delivered. */
export const MARK_ASKED_ATTEMPTS = `UPDATE events e SET num_retries = GREATEST(e.num_retries, v.n), updated_at = now(),
                  status = CASE WHEN v.delivered THEN 'DELIVERED' ELSE e.status END
             FROM unnest($1::uuid[], $2::int[], $3::bool[]) AS v(id, n, delivered) WHERE e.id = v.id`;

/** Events with no ACTIVE endpoint to deliver to. Values: ids. */
export const MARK_SKIPPED = `UPDATE events SET status = 'SKIPPED', updated_at = now(), retry_asked_at = NULL
            WHERE id = ANY($1::uuid[])`;

/** Asked-for attempts done with (made, or impossible). Values: their ids in webhook_redeliveries. */
export const DONE_REDELIVERIES = `DELETE FROM webhook_redeliveries WHERE id = ANY($1::uuid[])`;

/** Asked-for attempts put back until `at`. Values: ids, times. */
export const PUT_BACK_REDELIVERIES = `UPDATE webhook_redeliveries r SET due_at = v.at
             FROM unnest($1::uuid[], $2::timestamptz[]) AS v(id, at) WHERE r.id = v.id`;

/** Events put back in the events table until their next attempt's time. Values: ids, times. */
export const PUT_BACK = `UPDATE events e SET next_attempt_at = v.at FROM unnest($1::uuid[], $2::timestamptz[]) AS v(id, at)
            WHERE e.id = v.id`;

/** The next retry of each event; answers the events and their new numRetries. Values: ids, numRetries, times. */
export const SCHEDULE_RETRIES = `UPDATE events e SET num_retries = v.n + 1, next_attempt_at = v.at, updated_at = now(),
                  retry_asked_at = NULL
             FROM unnest($1::uuid[], $2::int[], $3::timestamptz[]) AS v(id, n, at)
            WHERE e.id = v.id
        RETURNING e.id, e.num_retries`;

/** FAILED for good, each noted once for its organisation's failure e-mail; answers the events noted. Values: ids, numRetries. */
export const MARK_FAILED = `WITH failed AS (
         UPDATE events e SET status = 'FAILED', updated_at = now(), retry_asked_at = NULL
           FROM unnest($1::uuid[], $2::int[]) AS v(id, n)
          WHERE e.id = v.id AND e.num_retries = v.n
      RETURNING e.id, e.org_id)
       INSERT INTO webhook_failures (event_id, org_id, failed_at)
       SELECT id, org_id, now() FROM failed ON CONFLICT DO NOTHING RETURNING event_id, org_id`;

export function attemptValues(attempts: readonly Attempted[]): unknown[] {
  const column = <T>(pick: (a: Attempted) => T) => attempts.map(pick);
  return [
    column((a) => a.due.row.id),
    column((a) => a.due.row.org_id),
    column((a) => a.due.row.url),
    column((a) => a.numRetries),
    // Asked for: a redelivery, or a scheduled retry made at once by hand ("Retry now").
    column((a) => a.due.asked !== undefined || a.due.row.retry_asked_at !== null),
    column((a) => a.result.startedAt.toISOString()),
    column((a) => a.result.durationMs),
    column((a) => a.result.statusCode),
    column((a) => a.result.errorKind),
    // PostgreSQL text cannot hold NUL; an answer may.
    column((a) => a.result.response.replaceAll('\u0000', '')),
    column((a) => a.result.delivered),
    // The body's updatedAt (delivery.ts sends the row's), so the dashboard can show the body sent.
    column((a) => a.due.row.updated_at.toISOString()),
    attempts.filter((a) => a.result.delivered && !a.due.asked).map((a) => a.due.row.id),
  ];
}
