// The worker's Prometheus metrics (docs/operations.md, "The webhooks worker"): what it delivered and how,
// how long events took from commit to their receiver's 200, the retries and give-ups, the failure
// e-mails, and the delivery queue read at each scrape. Labels take a bounded set of values: outcomes,
// error kinds, reasons; never an id or a URL.
import { query, transaction } from '@svc/db';
import { MAX_EVENT_RETRIES } from '@svc/protocol';
import { createMetricsRegistry, observeDatabasePool } from '@svc/runtime';
import type { AttemptResult } from '@svc/webhook-sender';
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';

/** Why an event was given up: its delivery window ran out, or its retries did. */
export type GiveUpReason = 'window_expired' | 'retries_exhausted';

/** Why an attempt was put back for later: its endpoint had no free slot soon, or asked for time. */
export type PutBackReason = 'endpoint_busy' | 'endpoint_paused';

/** How a failure e-mail left: over SMTP, or written to the outbox folder. */
export type EmailTransport = 'smtp' | 'outbox';

/** The queue read at one scrape. */
interface QueueStats {
  readonly due: number;
  readonly scheduled: number;
  readonly oldestDueAgeSeconds: number;
}

/** The `queue` label of the queue gauges: every attempt, scheduled or asked for, waits in this one queue. */
const DELIVERY_QUEUE = 'webhook-delivery';
/** A scrape waits this long for the queue query at most; then the queue gauges are left out. */
const QUEUE_QUERY_TIMEOUT_MS = 1000;
/** Gauges read within this time of each other share one query (one scrape reads several). */
const QUEUE_STATS_TTL_MS = 1000;

/** From 50 ms (a receiver on the same network) to the end of the 24-hour window. */
const LATENCY_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600, 7200, 21600, 86400];

export class WorkerMetrics {
  readonly registry: Registry = createMetricsRegistry();

  private readonly deliveries = new Counter({
    name: 'webhook_deliveries_total',
    help: 'Delivery attempts (manual redeliveries included) by outcome (delivered: HTTP 200; failed) and error kind (none when delivered)',
    labelNames: ['outcome', 'error_kind'] as const,
    registers: [this.registry],
  });

  private readonly latency = new Histogram({
    name: 'webhook_delivery_latency_seconds',
    help: "Time from an event's createdAt (its commit) to its receiver's HTTP 200, for the attempts of the retry schedule (not manual redeliveries)",
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });

  private readonly retries = new Counter({
    name: 'webhook_retries_total',
    help: 'Retries scheduled after a failed attempt, by retry number (1 to 3)',
    labelNames: ['retry'] as const,
    registers: [this.registry],
  });

  private readonly givenUp = new Counter({
    name: 'webhook_events_given_up_total',
    help: 'Events marked FAILED for good, by reason: window_expired (24 hours after createdAt) or retries_exhausted',
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });

  private readonly putBack = new Counter({
    name: 'webhook_attempts_put_back_total',
    help: 'Attempts put back for later, by reason: endpoint_busy (no free slot under WEBHOOK_CONCURRENCY_PER_ENDPOINT soon enough) or endpoint_paused (the receiver asked for time with Retry-After)',
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });

  private readonly emails = new Counter({
    name: 'webhook_failure_emails_total',
    help: 'Failure e-mails sent to organisations, by transport (smtp, or outbox when no SMTP server or no address is set)',
    labelNames: ['transport'] as const,
    registers: [this.registry],
  });

  constructor() {
    // Every series is there from the start at 0, so rate() and alerts see the first increase.
    this.deliveries.inc({ outcome: 'delivered', error_kind: 'none' }, 0);
    for (let retry = 1; retry <= MAX_EVENT_RETRIES; retry++) this.retries.inc({ retry: String(retry) }, 0);
    for (const reason of ['window_expired', 'retries_exhausted']) this.givenUp.inc({ reason }, 0);
    for (const reason of ['endpoint_busy', 'endpoint_paused']) this.putBack.inc({ reason }, 0);
    for (const transport of ['smtp', 'outbox']) this.emails.inc({ transport }, 0);
  }

  /**
   * One attempt made. With the event's `createdAt` (attempts of the retry schedule), a delivery also
   * observes the time from the commit to the 200.
   */
  attempt(result: AttemptResult, createdAt?: Date): void {
    const errorKind = result.delivered ? 'none' : (result.errorKind ?? 'http_status');
    this.deliveries.inc({ outcome: result.delivered ? 'delivered' : 'failed', error_kind: errorKind });
    if (result.delivered && createdAt) {
      const answeredAt = result.startedAt.getTime() + result.durationMs;
      this.latency.observe(Math.max(0, answeredAt - createdAt.getTime()) / 1000);
    }
  }

  /** Retries committed, each by the number of the retry it schedules. */
  retriesScheduled(retryNumbers: readonly number[]): void {
    for (const retry of retryNumbers) this.retries.inc({ retry: String(retry) });
  }

  eventsGivenUp(reasons: readonly GiveUpReason[]): void {
    for (const reason of reasons) this.givenUp.inc({ reason });
  }

  attemptPutBack(reason: PutBackReason): void {
    this.putBack.inc({ reason });
  }

  emailSent(transport: EmailTransport): void {
    this.emails.inc({ transport });
  }

  /**
   * The gauges read from the database at each scrape: its pool, and the delivery queue (the due and
   * scheduled PENDING events, and the redeliveries).
   */
  observeDatabase(dataSource: DataSource, logger: Logger): void {
    observeDatabasePool(this.registry, dataSource);
    let cached: { at: number; stats: Promise<QueueStats | undefined> } | undefined;
    const stats = () => {
      if (!cached || Date.now() - cached.at > QUEUE_STATS_TTL_MS) {
        cached = {
          at: Date.now(),
          stats: withTimeout(deliveryQueueStats(dataSource), QUEUE_QUERY_TIMEOUT_MS).catch(
            (error: unknown) => {
              logger.warn({ err: error }, 'reading the delivery queue for /metrics failed');
              return undefined;
            },
          ),
        };
      }
      return cached.stats;
    };
    new Gauge({
      name: 'webhook_delivery_queue_depth',
      help: 'Attempts waiting: due (may start now) or scheduled (retries and put-back attempts not due yet)',
      labelNames: ['queue', 'state'] as const,
      registers: [this.registry],
      async collect() {
        const current = await stats();
        this.reset();
        if (!current) return;
        this.set({ queue: DELIVERY_QUEUE, state: 'due' }, current.due);
        this.set({ queue: DELIVERY_QUEUE, state: 'scheduled' }, current.scheduled);
      },
    });
    new Gauge({
      name: 'webhook_delivery_queue_oldest_age_seconds',
      help: 'How long the oldest due attempt has been due (0 when none is)',
      // A label, so the series can be left out when the queue cannot be read (a gauge without one shows 0).
      labelNames: ['queue'] as const,
      registers: [this.registry],
      async collect() {
        const current = await stats();
        this.reset();
        if (current) this.set({ queue: DELIVERY_QUEUE }, current.oldestDueAgeSeconds);
      },
    });
  }
}

/** `work`, or a rejection once `ms` have passed (a connection the pool cannot open waits longer). */
export function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/**
 * One pass over what waits to be delivered: the PENDING events (the partial index events_due) and the
 * redeliveries, under a statement timeout so a slow database cannot hold the scrape.
 */
async function deliveryQueueStats(dataSource: DataSource): Promise<QueueStats> {
  return transaction(dataSource, async (manager) => {
    await query(manager, `SET LOCAL statement_timeout = ${QUEUE_QUERY_TIMEOUT_MS}`);
    const [row] = await query<{ due: number; scheduled: number; oldest: number | null }>(
      manager,
      `SELECT count(*) FILTER (WHERE start_after <= now())::int AS due,
              count(*) FILTER (WHERE start_after > now())::int AS scheduled,
              extract(epoch FROM now() - min(start_after) FILTER (WHERE start_after <= now()))::float8 AS oldest
         FROM (SELECT due_at AS start_after FROM webhook_redeliveries
               UNION ALL SELECT next_attempt_at FROM events WHERE status = 'PENDING') waiting`,
    );
    return { due: row?.due ?? 0, scheduled: row?.scheduled ?? 0, oldestDueAgeSeconds: row?.oldest ?? 0 };
  });
}
