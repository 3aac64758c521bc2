// Every read of webhook health: across organisations for the operator console (docs/console.md), each
// organisation's endpoint with its FAILED events of the last 24 hours and its last failure, and the latest
// FAILED events of every organisation; and one organisation's recent health for its dashboard. Every read
// is bounded: endpoints a page at a time by org_id (one endpoint per organisation), failures read from the
// end of the (org_id, failed_at) and (failed_at) indexes, a count capped at FAILED_COUNT_CAP, an
// organisation's events and attempts on indexes that start with org_id (events_org_created,
// webhook_attempts_org_id).
// Style: SQL for every table it reads (webhook_endpoints, webhook_failures, webhook_attempts, events,
// organisations): aggregates and lateral joins that TypeORM's finders do not express.
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

import { decodeCursor, INT_ID, type Page, toPage } from '../common/pagination.js';

/** Failures counted per organisation at most; more reads as "1000 or more". */
export const FAILED_COUNT_CAP = 1000;

export interface EndpointHealth {
  readonly orgId: number;
  readonly orgName: string;
  readonly url: string;
  readonly status: string;
  readonly challengeError: string | null;
  readonly pausedUntil: Date | null;
  /** FAILED events of the last 24 hours (still FAILED: a recovered one no longer counts), capped. */
  readonly failedLastDay: number;
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
  failed_last_day: string;
  last_failure_at: Date | null;
}

@Injectable()
export class WebhookHealthRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Endpoints by org_id; `failingOnly` keeps those not ACTIVE, paused, or with a FAILED event in the last
   * 24 hours.
   */
  async endpoints(query: {
    limit?: number | undefined;
    cursor?: string | undefined;
    failingOnly: boolean;
  }): Promise<Page<EndpointHealth>> {
    const limit = query.limit ?? 20;
    const after = decodeCursor(query.cursor, INT_ID) ?? 0;
    const rows = await this.dataSource.query<EndpointRow[]>(
      `SELECT w.org_id, o.name AS org_name, w.url, w.status, w.challenge_error, w.paused_until,
              recent.n AS failed_last_day, last.failed_at AS last_failure_at
         FROM webhook_endpoints w
         JOIN organisations o ON o.id = w.org_id
         LEFT JOIN LATERAL (
           SELECT count(*) AS n FROM (
             SELECT 1 FROM webhook_failures f JOIN events e ON e.id = f.event_id AND e.status = 'FAILED'
              WHERE f.org_id = w.org_id AND f.failed_at > now() - interval '24 hours'
              LIMIT $3) capped
         ) recent ON true
         LEFT JOIN LATERAL (
           SELECT f.failed_at FROM webhook_failures f
            WHERE f.org_id = w.org_id ORDER BY f.failed_at DESC LIMIT 1
         ) last ON true
        WHERE w.org_id > $1
          AND (NOT $4::boolean OR w.status <> 'ACTIVE' OR w.paused_until > now() OR recent.n > 0)
        ORDER BY w.org_id
        LIMIT $2`,
      [after, limit + 1, FAILED_COUNT_CAP, query.failingOnly],
    );
    const page = toPage(rows, limit, (row) => row.org_id, INT_ID);
    return {
      nextCursor: page.nextCursor,
      items: page.items.map((row) => ({
        orgId: row.org_id,
        orgName: row.org_name,
        url: row.url,
        status: row.status,
        challengeError: row.challenge_error,
        pausedUntil: row.paused_until,
        failedLastDay: Number(row.failed_last_day),
        lastFailureAt: row.last_failure_at,
      })),
    };
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
