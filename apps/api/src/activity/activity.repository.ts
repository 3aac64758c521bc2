// Every read behind the charts of the dashboard's overview and the console's home (docs/decisions.md,
// "Web pages: charts drawn on the server"): webhook attempts by outcome and their durations per hour and
// per day, orders and their volume per day, and the KYC cases waiting by age. One organisation's, or every
// organisation's when orgId is null. Each read is bounded by time (the last 24 hours, 7 or 30 days) and
// grouped in PostgreSQL (date_trunc over UTC, generate_series for the hours and days with nothing), so a
// page gets a few dozen rows whatever the volume; each walks an index that starts with its time column
// (after org_id for one organisation's): webhook_attempts_org_attempted, webhook_attempts_attempted,
// orders_org_created, orders_created, and users' kyc_state for the queue.
// Style: SQL for every table it reads (webhook_attempts, orders, users): aggregates over series.
import { Injectable } from '@nestjs/common';
import { query } from '@svc/db';
import { DataSource } from 'typeorm';

/** Attempts in one hour or day: by outcome, and (per hour) the median and 95th percentile of durations. */
export interface AttemptBucket {
  readonly start: Date;
  readonly delivered: number;
  readonly failed: number;
  /** Milliseconds; null when no attempt was made. */
  readonly p50: number | null;
  readonly p95: number | null;
}

/** Orders of one UTC day in one quote currency: counts by how they ended, and the volume completed. */
export interface OrderDayRow {
  readonly day: Date;
  readonly quote: string;
  readonly completed: number;
  /** REJECTED or FAILED. */
  readonly refused: number;
  /** Any other status (PENDING). */
  readonly other: number;
  /** The sum of the completed orders' netExecutedAmount, with exactly its digits; "0" when none. */
  readonly volume: string;
}

/** KYC cases waiting, by bracket of their waiting time, and the oldest one's waiting start. */
export interface KycWaiting {
  /** Count per bracket, in the order of the bounds given (bracket i: waiting since before bound i-1 ...). */
  readonly brackets: readonly number[];
  readonly total: number;
  /** The expiry of the case waiting longest (its waiting start is a fixed time before it), or null. */
  readonly oldestExpiresAt: Date | null;
}

/** The condition on org_id as the statement's parameter `$n` (none: every organisation), and its values. */
const byOrg = (orgId: number | null, n: number) =>
  orgId === null ? { where: 'true', values: [] } : { where: `org_id = $${n}`, values: [orgId] };

@Injectable()
export class ActivityRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Attempts per `unit` from `from` (the start of a UTC hour or day) for `count` units: every unit is
   * answered, those without attempts with zeros. Percentiles only per hour (a day's would sort its every
   * attempt for a figure the hours already show).
   */
  async attempts(
    orgId: number | null,
    unit: 'hour' | 'day',
    from: Date,
    count: number,
  ): Promise<AttemptBucket[]> {
    const percentiles =
      unit === 'hour'
        ? `percentile_disc(0.5) WITHIN GROUP (ORDER BY duration_ms) AS p50,
           percentile_disc(0.95) WITHIN GROUP (ORDER BY duration_ms) AS p95`
        : 'NULL::int AS p50, NULL::int AS p95';
    const org = byOrg(orgId, 3);
    const rows = await query<{
      start: Date;
      delivered: number;
      failed: number;
      p50: number | null;
      p95: number | null;
    }>(
      this.dataSource,
      `WITH buckets AS (
         SELECT date_trunc('${unit}', attempted_at, 'UTC') AS start,
                count(*) FILTER (WHERE delivered)::int AS delivered,
                count(*) FILTER (WHERE NOT delivered)::int AS failed,
                ${percentiles}
           FROM webhook_attempts
          WHERE ${org.where} AND attempted_at >= $1
          GROUP BY 1)
       SELECT s.start, coalesce(b.delivered, 0) AS delivered, coalesce(b.failed, 0) AS failed, b.p50, b.p95
         FROM generate_series($1::timestamptz, $1::timestamptz + ($2::int - 1) * interval '1 ${unit}',
                              interval '1 ${unit}') AS s(start)
         LEFT JOIN buckets b ON b.start = s.start
        ORDER BY s.start`,
      [from, count, ...org.values],
    );
    return rows;
  }

  /** Orders per UTC day and quote currency from `from` (a UTC midnight); days without orders are absent. */
  async ordersPerDay(orgId: number | null, from: Date): Promise<OrderDayRow[]> {
    const org = byOrg(orgId, 2);
    return query<OrderDayRow>(
      this.dataSource,
      `SELECT date_trunc('day', created_at, 'UTC') AS day, split_part(symbol, '_', 2) AS quote,
              count(*) FILTER (WHERE status = 'COMPLETED')::int AS completed,
              count(*) FILTER (WHERE status IN ('REJECTED', 'FAILED'))::int AS refused,
              count(*) FILTER (WHERE status NOT IN ('COMPLETED', 'REJECTED', 'FAILED'))::int AS other,
              coalesce(sum(net_executed_amount) FILTER (WHERE status = 'COMPLETED'), 0)::text AS volume
         FROM orders
        WHERE ${org.where} AND created_at >= $1
        GROUP BY 1, 2
        ORDER BY 1, 2`,
      [from, ...org.values],
    );
  }

  /**
   * The cases in `states` (with an expiry: the step's start is a fixed time before it), counted per
   * bracket of expiry: `bounds` ascending, bracket 0 expiring before bounds[0], the last at or after the
   * last bound. One scan of the waiting users.
   */
  async kycWaiting(states: readonly string[], bounds: readonly Date[]): Promise<KycWaiting> {
    const rows = await query<{ bracket: number; n: number; oldest: Date }>(
      this.dataSource,
      `SELECT width_bucket(kyc_expires_at, $2::timestamptz[]) AS bracket, count(*)::int AS n,
              min(kyc_expires_at) AS oldest
         FROM users WHERE kyc_state = ANY($1) AND kyc_expires_at IS NOT NULL
        GROUP BY 1`,
      [states, bounds],
    );
    const brackets = Array.from({ length: bounds.length + 1 }, () => 0);
    let oldest: Date | null = null;
    for (const row of rows) {
      brackets[row.bracket] = row.n;
      if (!oldest || row.oldest < oldest) oldest = row.oldest;
    }
    return { brackets, total: brackets.reduce((sum, n) => sum + n, 0), oldestExpiresAt: oldest };
  }
}
