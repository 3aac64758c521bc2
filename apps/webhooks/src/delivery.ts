// Delivers the api's events (docs/decisions.md, "Webhooks: the events table as the queue"). A batch is either
// due PENDING events the events table's queue locked (event-queue.ts) or redelivery jobs from pg-boss
// (manual, recoveries' included): make the attempts (the per-endpoint cap applies), then write every outcome
// in one transaction with what follows from it (the next attempt's time, put-back events and jobs, FAILED and
// the failure e-mail). A crash before that commit loses nothing: the row locks or the jobs are let go and the
// attempts repeat (at least once; receivers drop duplicates by svc-event-id). A receiver that asked for time
// (endpoint-pauses.ts) gets no attempt before then; recoveries count their events' outcomes (recovery.ts).
import { decryptSecret, QUEUES, bossDb, query, transaction, type WebhookDeliveryJob } from '@svc/db';
import { eventBodyText, MAX_EVENT_RETRIES } from '@svc/protocol';
import { ATTEMPT_TIMEOUT_MS, type AttemptResult, type WebhookSender } from '@svc/webhook-sender';
import type { Job, JobInsert, PgBoss } from 'pg-boss';
import type { Logger } from 'pino';
import type { PoolClient } from 'pg';
import type { DataSource } from 'typeorm';

import type { WorkerConfig } from './config.js';
import {
  LOAD_EVENTS,
  MARK_FAILED,
  MARK_MANUAL_ATTEMPTS,
  MARK_SKIPPED,
  PUT_BACK,
  RECORD_ATTEMPTS,
  SCHEDULE_RETRIES,
  attemptValues,
  type Attempted,
  type EventRow,
} from './delivery-rows.js';
import { EndpointPauses, storePauses } from './endpoint-pauses.js';
import { EndpointSlots } from './endpoint-slots.js';
import type { GiveUpReason, WorkerMetrics } from './metrics.js';
import { openRecoveryItems, recordRecoveryOutcomes, recoveryKey, type RecoveryOutcome } from './recovery.js';

/** What a batch decided, written in one transaction. */
interface Outcomes {
  attempts: Attempted[];
  /** Events or jobs to put back: their endpoint had no free slot, or is paused until `at`. */
  deferred: { job: WebhookDeliveryJob; at: number }[];
  /** Events with no active endpoint: nothing to deliver to. */
  skipped: string[];
  /** Events that failed for good, with the numRetries of their last attempt. */
  failed: GivenUp[];
  /** Events of recoveries whose attempt could not be made (no ACTIVE endpoint, the window over). */
  unrecovered: RecoveryOutcome[];
}

interface GivenUp {
  readonly row: EventRow;
  readonly numRetries: number;
  readonly reason: GiveUpReason;
}

/**
 * How an attempt waits for a slot of its endpoint (endpoint-slots.ts): given up after 200 ms when its line
 * has not moved or the endpoint is slow (its event put back, leaving the batch free for other endpoints),
 * else for as long as one attempt may take, so waiting holds a batch no longer than its attempts can
 * already. A flat 200 ms put back a fifth of healthy endpoints' events whenever the worker was busy
 * (docs/decisions.md, "Webhooks: the per-endpoint cap").
 */
const SLOT_WAITS = { checkMs: 200, maxWaitMs: ATTEMPT_TIMEOUT_MS };
/** When a put-back job comes round again. */
const DEFER_MS = 500;

export class DeliveryProcessor {
  private readonly slots: EndpointSlots;
  private readonly pauses: EndpointPauses;
  private readonly secrets = new Map<string, string>();
  private readonly urls = new Map<string, URL>();

  constructor(
    private readonly config: WorkerConfig,
    private readonly dataSource: DataSource,
    private readonly boss: PgBoss,
    private readonly sender: WebhookSender,
    private readonly logger: Logger,
    private readonly metrics: WorkerMetrics,
  ) {
    this.slots = new EndpointSlots(config.perEndpointConcurrency, SLOT_WAITS);
    this.pauses = new EndpointPauses(config.retryAfterMaxMs);
  }

  /**
   * The pg-boss batch handler, for redeliveries. Throwing fails the batch, and pg-boss retries its jobs. A
   * job that is not manual (written by a version that queued a job per event) is dropped: its event is
   * PENDING in the events table, whose queue delivers it.
   */
  readonly handle = async (jobs: Job<WebhookDeliveryJob>[]): Promise<void> => {
    const data = jobs.map((job) => job.data).filter((job) => job.manual === true);
    if (data.length === 0) return;
    const rows = await this.load(data.map((job) => job.eventId));
    const open = await openRecoveryItems(this.dataSource, data);
    const outcomes = noOutcomes();
    await Promise.all(data.map((job) => this.deliver(job, rows.get(job.eventId), open, outcomes)));
    await this.record(outcomes);
  };

  /**
   * The events table's batch (event-queue.ts): due PENDING events locked by `client`'s transaction, whose
   * outcomes are written in it; the caller commits. Answers when the first event it put back is due.
   */
  async deliverDue(rows: readonly EventRow[], client: PoolClient): Promise<number | undefined> {
    const outcomes = noOutcomes();
    const none = new Set<string>();
    await Promise.all(rows.map((row) => this.deliver({ eventId: row.id }, row, none, outcomes)));
    await this.record(outcomes, client);
    // When the first event put back is due again (ms), so that a fetcher looks then rather than at its poll.
    return outcomes.deferred.length > 0 ? Math.min(...outcomes.deferred.map((d) => d.at)) : undefined;
  }

  /** One job: its attempt, or why it has none (dropped, skipped, given up, put back). */
  private async deliver(
    job: WebhookDeliveryJob,
    row: EventRow | undefined,
    openItems: ReadonlySet<string>,
    outcomes: Outcomes,
  ): Promise<void> {
    if (!row) return; // the event is gone (its organisation was deleted)
    const manual = job.manual === true;
    const recoveryId = manual ? job.recoveryId : undefined;
    if (recoveryId !== undefined && !openItems.has(recoveryKey(recoveryId, row.id))) return; // counted
    // No attempt can be made: a scheduled one skips or fails the event, a recovery counts it failed.
    const noAttempt = (outcome: 'skipped' | 'failed') => {
      if (recoveryId !== undefined)
        outcomes.unrecovered.push({ recoveryId, eventId: row.id, delivered: false });
      else if (manual) return;
      else if (outcome === 'skipped') outcomes.skipped.push(row.id);
      else outcomes.failed.push({ row, numRetries: row.num_retries, reason: 'window_expired' });
    };
    if (!row.endpoint_id || row.endpoint_status !== 'ACTIVE') {
      noAttempt('skipped');
      return;
    }
    // docs/api-guide.md#delivery-retries-and-the-24-hour-window: nothing after the window, redeliveries
    // included; nothing before the time the receiver asked for. True when the job was put back or given up.
    const deadline = row.created_at.getTime() + this.config.webhooks.windowMs;
    const notNow = (): boolean => {
      const now = Date.now();
      const until = now >= deadline ? deadline : this.pauses.until(row, now);
      if (until === 0) return false;
      if (until >= deadline) noAttempt('failed');
      else {
        outcomes.deferred.push({ job, at: until });
        this.metrics.attemptPutBack('endpoint_paused');
      }
      return true;
    };
    if (notNow()) return;
    const release = await this.slots.acquire(row.endpoint_id);
    if (!release) {
      outcomes.deferred.push({ job, at: Date.now() + DEFER_MS });
      this.metrics.attemptPutBack('endpoint_busy');
      return;
    }
    try {
      // The receiver may have asked for time while this job waited for its slot.
      if (notNow()) return;
      // A manual redelivery counts as one more redelivery, past the three automatic retries too.
      const numRetries = manual ? row.num_retries + 1 : row.num_retries;
      const result = await this.attempt(row, numRetries);
      this.metrics.attempt(result, manual ? undefined : row.created_at);
      const pause =
        result.retryAfterMs === null ? null : this.pauses.note(row, result.retryAfterMs, Date.now());
      outcomes.attempts.push({ row, numRetries, manual, recoveryId, result, pause });
    } finally {
      release();
    }
  }

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
      url: this.url(row.url ?? ''),
      body: eventBodyText(fields, row.data),
      secret: this.secret(row.secret_ciphertext ?? ''),
      eventId: row.id,
    });
    if (result.delivered && !this.logger.isLevelEnabled('debug')) return result;
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

  /** The endpoint's secret in clear, decrypted once. */
  private secret(ciphertext: string): string {
    return remembered(this.secrets, ciphertext, () => decryptSecret(this.config.masterKey, ciphertext));
  }

  /**
   * The endpoint's URL, parsed once (the sender does not change it; for the deliveries/s target:
   * docs/decisions.md, "Webhooks: the worker's own CPU per delivery").
   */
  private url(text: string): URL {
    return remembered(this.urls, text, () => new URL(text));
  }

  private async load(ids: string[]): Promise<Map<string, EventRow>> {
    const rows = await query<EventRow>(this.dataSource, LOAD_EVENTS, [ids]);
    return new Map(rows.map((row) => [row.id, row]));
  }

  /**
   * Every outcome of the batch and the jobs they call for, in one transaction: `client`'s when given (the
   * events table's batch), else one of its own.
   */
  private async record(outcomes: Outcomes, inside?: PoolClient): Promise<void> {
    const { attempts, deferred, skipped } = outcomes;
    const failed = [...outcomes.failed];
    const retries: { row: EventRow; numRetries: number; at: Date }[] = [];
    const pauses = attempts.flatMap((a) => (a.pause ? [a.pause] : []));
    const recovered: RecoveryOutcome[] = [...outcomes.unrecovered];
    for (const a of attempts) {
      if (a.recoveryId !== undefined)
        recovered.push({ recoveryId: a.recoveryId, eventId: a.row.id, delivered: a.result.delivered });
    }
    const now = Date.now();
    for (const attempt of attempts) {
      if (attempt.manual || attempt.result.delivered) continue;
      // The backoff, or later when the receiver asked for more time.
      const at = Math.max(now + this.backoff(attempt.numRetries), attempt.pause?.until.getTime() ?? 0);
      const deadline = attempt.row.created_at.getTime() + this.config.webhooks.windowMs;
      if (attempt.numRetries < MAX_EVENT_RETRIES && at < deadline) {
        retries.push({ row: attempt.row, numRetries: attempt.numRetries, at: new Date(at) });
      } else {
        const reason = attempt.numRetries < MAX_EVENT_RETRIES ? 'window_expired' : 'retries_exhausted';
        failed.push({ row: attempt.row, numRetries: attempt.numRetries, reason });
      }
    }
    const rest = deferred.length + skipped.length + failed.length + recovered.length + pauses.length;
    if (attempts.length + rest === 0) return;
    const manual = attempts.filter((a) => a.manual);
    const recorded = attempts.length > 0 ? attemptValues(attempts) : undefined;
    if (recorded && manual.length + retries.length + rest === 0) {
      // The common batch, every attempt delivered: one statement, so one round trip and one commit.
      await query(inside ?? this.dataSource, RECORD_ATTEMPTS, recorded);
      return;
    }
    const inTransaction = <T>(work: (client: PoolClient) => Promise<T>) =>
      inside ? work(inside) : transaction(this.dataSource, work);

    // Counted once committed: the retries scheduled (by number) and the events given up.
    let retried: number[] = [];
    let givenUp: GiveUpReason[] = [];
    await inTransaction(async (client) => {
      const db = bossDb(client);
      if (recorded) await query(client, RECORD_ATTEMPTS, recorded);
      if (manual.length > 0) {
        await query(client, MARK_MANUAL_ATTEMPTS, [
          manual.map((a) => a.row.id),
          manual.map((a) => a.numRetries),
          manual.map((a) => a.result.delivered),
        ]);
      }
      if (skipped.length > 0) {
        await query(client, MARK_SKIPPED, [skipped]);
      }
      await storePauses(client, pauses);
      await recordRecoveryOutcomes(client, recovered);
      // Put back: a scheduled attempt in the events table by its next attempt's time, a manual one as a job.
      const later = deferred.filter(({ job }) => job.manual !== true);
      if (later.length > 0) {
        await query(client, PUT_BACK, [
          later.map((d) => d.job.eventId),
          later.map((d) => new Date(d.at).toISOString()),
        ]);
      }
      const jobs: JobInsert<WebhookDeliveryJob>[] = deferred
        .filter((d) => !later.includes(d))
        .map(({ job, at }) => ({ data: job, startAfter: new Date(at) }));
      if (retries.length > 0) {
        const moved = await query<{ id: string; num_retries: number }>(client, SCHEDULE_RETRIES, [
          retries.map((r) => r.row.id),
          retries.map((r) => r.numRetries),
          retries.map((r) => r.at.toISOString()),
        ]);
        retried = moved.map((row) => row.num_retries);
      }
      if (jobs.length > 0) await this.boss.insert(QUEUES.webhookDelivery, jobs, { db });
      if (failed.length > 0) givenUp = await this.fail(client, failed);
    });
    this.metrics.retriesScheduled(retried);
    this.metrics.eventsGivenUp(givenUp);
  }

  /**
   * FAILED for good: noted for the organisation's failure e-mail, which is scheduled per endpoint.
   * Returns why each event that moved was given up.
   */
  private async fail(client: PoolClient, failed: GivenUp[]): Promise<GiveUpReason[]> {
    const noted = await query<{ event_id: string; org_id: number }>(client, MARK_FAILED, [
      failed.map((f) => f.row.id),
      failed.map((f) => f.numRetries),
    ]);
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
        { singletonKey: endpointId, startAfter: new Date(Math.max(soonest, allowed)), db: bossDb(client) },
      );
    }
    const reasons = new Map(failed.map((f) => [f.row.id, f.reason]));
    return noted.flatMap((row) => reasons.get(row.event_id) ?? []);
  }

  /** Wait before retry `numRetries + 1`: the configured step, spread by ± jitter. */
  private backoff(numRetries: number): number {
    const base = this.config.retryDelaysMs[numRetries] ?? this.config.retryDelaysMs[2];
    const spread = 1 + this.config.retryJitter * (Math.random() * 2 - 1);
    return Math.round(base * spread);
  }
}

/** Endpoints remembered (secrets, URLs) at most; past it the memory starts afresh. */
const MAX_REMEMBERED = 10_000;

/** `map`'s value for `key`, made by `make` the first time. */
function remembered<T>(map: Map<string, T>, key: string, make: () => T): T {
  let value = map.get(key);
  if (value === undefined) {
    value = make();
    if (map.size >= MAX_REMEMBERED) map.clear();
    map.set(key, value);
  }
  return value;
}

function noOutcomes(): Outcomes {
  return { attempts: [], deferred: [], skipped: [], failed: [], unrecovered: [] };
}
