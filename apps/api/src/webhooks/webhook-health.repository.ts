// Every read of webhook health: the facts an endpoint's health is decided from (endpoint-health.ts), for one
// organisation (the api, its dashboard) or every organisation's endpoint a page at a time (the operator
// console, docs/console.md); the latest FAILED events of every organisation; and one organisation's counts
// of the last 24 hours for its overview. Every read is bounded: endpoints a page at a time by org_id (one
// endpoint per organisation), an endpoint's latest attempts from the end of webhook_attempts_org_attempted,
// failures from the end of the (org_id, failed_at) and (failed_at) indexes, a count capped at
// FAILED_COUNT_CAP, an organisation's events on events_org_created.
// Style: SQL for every table it reads (webhook_endpoints, webhook_failures, webhook_attempts, events,
// organisations): aggregates and lateral joins that TypeORM's finders do not express.
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

import { decodeCursor, INT_ID, type Page, toPage } from '../common/pagination.js';
import { type HealthFacts, RECENT_ATTEMPTS } from './endpoint-health.js';

/** Failures counted per organisation at most; more reads as "1000 or more". */
export const FAILED_COUNT_CAP = 1000;

/** An organisation's endpoint with what its health is decided from (endpoint-health.ts). */
export interface EndpointFacts extends HealthFacts {
  readonly orgId: number;
  readonly orgName: string;
  readonly url: string;
  readonly challengeError: string | null;
  /** When the latest of its events that failed for good did, if any did. */
  readonly lastFailureAt: Date | null;
}

export interface RecentFailure {
  readonly eventId: string;
  readonly orgId: number;
  readonly orgName: string;
  readonly entity: string;
  readonly numRetries: number;
  readonly failedAt: Date;
}

/** One organisation's counts over the last `hours`: events by status, attempts by outcome, and the latest of each outcome. */
export interface WebhookHealth {
  readonly hours: number;
  readonly events: Readonly<Record<string, number>>;
  readonly attempts: { readonly delivered: number; readonly failed: number };
  readonly lastDeliveredAt: Date | null;
  readonly lastFailedAt: Date | null;
}

interface EndpointRow {
  org_id: number;
  org_name: string;
  url: string;
  status: string;
  challenge_error: string | null;
  paused_until: Date | null;
  recent: number;
  failures: number;
  streak: number;
  error_at: Date | null;
  error_kind: string | null;
  error_status: number | null;
  error_response: string | null;
  failed_events: number;
  last_failure_at: Date | null;
}

/**
 * Each endpoint's facts, for `{where}`: its latest RECENT_ATTEMPTS attempts since its registration
 * (updated_at, which only a registration moves) and in the last 24 hours, read from the end of
 * webhook_attempts_org_attempted and numbered newest first (the streak is how many come before the first
 * delivered one); its organisation's FAILED events of the last 24 hours, still FAILED, counted up to
 * FAILED_COUNT_CAP; and its latest failure.
 */
const endpointFacts = (where: string) =>
  `SELECT w.org_id, o.name AS org_name, w.url, w.status, w.challenge_error, w.paused_until,
          r.recent, r.failures, r.streak, r.error_at, r.error_kind, r.error_status, r.error_response,
          fe.n AS failed_events, lf.failed_at AS last_failure_at
     FROM webhook_endpoints w
     JOIN organisations o ON o.id = w.org_id
     LEFT JOIN LATERAL (
       SELECT count(*)::int AS recent,
              count(*) FILTER (WHERE NOT a.delivered)::int AS failures,
              (coalesce(min(a.n) FILTER (WHERE a.delivered), count(*) + 1) - 1)::int AS streak,
              (array_agg(a.attempted_at ORDER BY a.n) FILTER (WHERE NOT a.delivered))[1] AS error_at,
              (array_agg(a.error_kind ORDER BY a.n) FILTER (WHERE NOT a.delivered))[1] AS error_kind,
              (array_agg(a.status_code ORDER BY a.n) FILTER (WHERE NOT a.delivered))[1] AS error_status,
              (array_agg(a.response ORDER BY a.n) FILTER (WHERE NOT a.delivered))[1] AS error_response
         FROM (SELECT latest.*, row_number() OVER (ORDER BY latest.attempted_at DESC) AS n
                 FROM (SELECT delivered, attempted_at, error_kind, status_code, response FROM webhook_attempts
                        WHERE org_id = w.org_id
                          AND attempted_at > GREATEST(now() - interval '24 hours', w.updated_at)
                        ORDER BY attempted_at DESC LIMIT ${RECENT_ATTEMPTS}) latest) a
     ) r ON true
     LEFT JOIN LATERAL (
       SELECT count(*)::int AS n FROM (
         SELECT 1 FROM webhook_failures f JOIN events e ON e.id = f.event_id AND e.status = 'FAILED'
          WHERE f.org_id = w.org_id AND f.failed_at > now() - interval '24 hours'
          LIMIT ${FAILED_COUNT_CAP}) capped
     ) fe ON true
     LEFT JOIN LATERAL (
       SELECT f.failed_at FROM webhook_failures f
        WHERE f.org_id = w.org_id ORDER BY f.failed_at DESC LIMIT 1
     ) lf ON true
    WHERE ${where}`;

@Injectable()
export class WebhookHealthRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** The organisation's endpoint with its facts; null when none is registered. */
  async orgFacts(orgId: number): Promise<EndpointFacts | null> {
    const [row] = await this.dataSource.query<EndpointRow[]>(endpointFacts('w.org_id = $1'), [orgId]);
    return row ? toFacts(row) : null;
  }

  /** Every organisation's endpoint with its facts, by org_id, a page at a time. */
  async endpoints(query: { limit: number; cursor?: string | undefined }): Promise<Page<EndpointFacts>> {
    const after = decodeCursor(query.cursor, INT_ID) ?? 0;
    const rows = await this.dataSource.query<EndpointRow[]>(
      `${endpointFacts('w.org_id > $1')} ORDER BY w.org_id LIMIT $2`,
      [after, query.limit + 1],
    );
    const page = toPage(rows, query.limit, (row) => row.org_id, INT_ID);
    return { nextCursor: page.nextCursor, items: page.items.map(toFacts) };
  }

  /** The latest events that failed for good, of every organisation, newest first, still FAILED. */
  async recentFailures(limit = 20): Promise<RecentFailure[]> {
    const rows = await this.dataSource.query<
      {
        event_id: string;
        org_id: number;
        org_name: string;
        entity: string;
        num_retries: number;
        failed_at: Date;
      }[]
    >(
      `SELECT f.event_id, f.org_id, o.name AS org_name, e.entity, e.num_retries, f.failed_at
         FROM webhook_failures f
         JOIN events e ON e.id = f.event_id AND e.status = 'FAILED'
         JOIN organisations o ON o.id = f.org_id
        ORDER BY f.failed_at DESC
        LIMIT $1`,
      [limit],
    );
    return rows.map((row) => ({
      eventId: row.event_id,
      orgId: row.org_id,
      orgName: row.org_name,
      entity: row.entity,
      numRetries: row.num_retries,
      failedAt: row.failed_at,
    }));
  }

  /** The organisation's events by status and webhook attempts by outcome over the last `hours`. */
  async orgHealth(orgId: number, hours = 24): Promise<WebhookHealth> {
    const since = new Date(Date.now() - hours * 3600_000);
    const events = await this.dataSource.query<{ status: string; n: number }[]>(
      'SELECT status, count(*)::int AS n FROM events WHERE org_id = $1 AND created_at > $2 GROUP BY status',
      [orgId, since],
    );
    const [attempts] = await this.dataSource.query<
      { delivered: number; failed: number; last_delivered: Date | null; last_failed: Date | null }[]
    >(
      `SELECT count(*) FILTER (WHERE delivered)::int AS delivered,
              count(*) FILTER (WHERE NOT delivered)::int AS failed,
              max(attempted_at) FILTER (WHERE delivered) AS last_delivered,
              max(attempted_at) FILTER (WHERE NOT delivered) AS last_failed
         FROM webhook_attempts WHERE org_id = $1 AND attempted_at > $2`,
      [orgId, since],
    );
    return {
      hours,
      events: Object.fromEntries(events.map((row) => [row.status, row.n])),
      attempts: { delivered: attempts?.delivered ?? 0, failed: attempts?.failed ?? 0 },
      lastDeliveredAt: attempts?.last_delivered ?? null,
      lastFailedAt: attempts?.last_failed ?? null,
    };
  }
}

function toFacts(row: EndpointRow): EndpointFacts {
  return {
    orgId: row.org_id,
    orgName: row.org_name,
    url: row.url,
    challengeError: row.challenge_error,
    endpointStatus: row.status,
    pausedUntil: row.paused_until,
    recentAttempts: row.recent,
    recentFailures: row.failures,
    consecutiveFailures: row.streak,
    failedEvents: row.failed_events,
    lastFailureAt: row.last_failure_at,
    lastError:
      row.error_at === null
        ? null
        : {
            at: row.error_at,
            errorKind: row.error_kind,
            statusCode: row.error_status,
            response: row.error_response ?? '',
          },
  };
}
