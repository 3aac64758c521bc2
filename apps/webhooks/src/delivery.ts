// Makes the attempts of a batch the delivery queue took (docs/decisions.md, "Webhooks: one queue for every
// attempt") and decides what becomes of each: delivered, retried later, failed for good, put back while its
// endpoint is busy or asked for time (endpoint-pauses.ts), or skipped when there is no endpoint. The queue
// writes the decisions with the batch (delivery-queue.ts); a crash before that loses nothing: the attempts
// are due again (at least once; receivers drop duplicates by svc-event-id).
import { decryptSecret } from '@svc/db';
import { eventBodyText } from '@svc/protocol';
import { ATTEMPT_TIMEOUT_MS, type AttemptResult, type WebhookSender } from '@svc/webhook-sender';
import type { Logger } from 'pino';

import type { WorkerConfig } from './config.js';
import type { DueAttempt, EventRow } from './delivery-rows.js';
import type { Settlement } from './delivery-queue.js';
import { EndpointPauses, type Pause } from './endpoint-pauses.js';
import { EndpointSlots } from './endpoint-slots.js';
import type { WorkerMetrics } from './metrics.js';
import { afterFailure, deadlineOf, type RetrySchedule } from './retry-decision.js';

/**
 * How an attempt waits for a slot of its endpoint (endpoint-slots.ts): given up after 200 ms when its line
 * has not moved or the endpoint is slow (its attempt put back, leaving the batch free for other endpoints),
 * else for as long as one attempt may take, so waiting holds a batch no longer than its attempts can
 * already. A flat 200 ms put back a fifth of healthy endpoints' events whenever the worker was busy
 * (docs/decisions.md, "Webhooks: the per-endpoint cap").
 */
const SLOT_WAITS = { checkMs: 200, maxWaitMs: ATTEMPT_TIMEOUT_MS };
/** When an attempt put back for a busy endpoint comes round again. */
const BUSY_ENDPOINT_DELAY_MS = 500;

/** A batch's settlement as its attempts, which run concurrently, decide it; the pauses follow from them. */
type Decisions = { -readonly [K in Exclude<keyof Settlement, 'pauses'>]: Settlement[K][number][] };

export class DeliveryProcessor {
  private readonly slots: EndpointSlots;
  private readonly pauses: EndpointPauses;
  private readonly schedule: RetrySchedule;
  private readonly secrets = new Map<string, string>();
  private readonly urls = new Map<string, URL>();

  constructor(
    private readonly config: WorkerConfig,
    private readonly sender: WebhookSender,
    private readonly logger: Logger,
    private readonly metrics: WorkerMetrics,
  ) {
    this.slots = new EndpointSlots(config.perEndpointConcurrency, SLOT_WAITS);
    this.pauses = new EndpointPauses(config.retryAfterMaxMs);
    this.schedule = {
      retryDelaysMs: config.retryDelaysMs,
      retryJitter: config.retryJitter,
      windowMs: config.webhooks.windowMs,
    };
  }

  /** Makes the batch's attempts (the per-endpoint cap applies) and answers what became of each. */
  readonly decide = async (due: readonly DueAttempt[]): Promise<Settlement> => {
    const decisions: Decisions = {
      attempts: [],
      retries: [],
      failed: [],
      putBack: [],
      skipped: [],
      dropped: [],
    };
    await Promise.all(due.map((attempt) => this.deliver(attempt, decisions)));
    const pauses = decisions.attempts.flatMap((a): Pause[] => (a.pause ? [a.pause] : []));
    return { ...decisions, pauses };
  };

  /** One attempt, or why it has none (skipped, dropped, given up, put back). */
  private async deliver(due: DueAttempt, decisions: Decisions): Promise<void> {
    const { row, asked } = due;
    // No attempt can be made: a scheduled one skips or fails the event, an asked-for one is dropped.
    const impossible = (outcome: 'skipped' | 'failed') => {
      if (asked) decisions.dropped.push(due);
      else if (outcome === 'skipped') decisions.skipped.push(due);
      else decisions.failed.push({ row, numRetries: row.num_retries, reason: 'window_expired' });
    };
    if (!row.endpoint_id || row.endpoint_status !== 'ACTIVE') {
      impossible('skipped');
      return;
    }
    // docs/api-guide.md#delivery-retries-and-the-24-hour-window: nothing after the window, asked-for
    // attempts included; nothing before the time the receiver asked for. True when the attempt was put
    // back or given up.
    const deadline = deadlineOf(row.created_at, this.schedule);
    const waitsOrEnds = (): boolean => {
      const now = Date.now();
      const until = now >= deadline ? deadline : this.pauses.until(row, now);
      if (until === 0) return false;
      if (until >= deadline) impossible('failed');
      else {
        decisions.putBack.push({ due, at: until });
        this.metrics.attemptPutBack('endpoint_paused');
      }
      return true;
    };
    if (waitsOrEnds()) return;
    const release = await this.slots.acquire(row.endpoint_id);
    if (!release) {
      decisions.putBack.push({ due, at: Date.now() + BUSY_ENDPOINT_DELAY_MS });
      this.metrics.attemptPutBack('endpoint_busy');
      return;
    }
    try {
      // The receiver may have asked for time while this attempt waited for its slot.
      if (waitsOrEnds()) return;
      // An asked-for attempt counts as one more redelivery, past the three automatic retries too.
      const numRetries = asked ? row.num_retries + 1 : row.num_retries;
      const result = await this.attempt(row, numRetries);
      this.metrics.attempt(result, asked ? undefined : row.created_at);
      const pause =
        result.retryAfterMs === null ? null : this.pauses.note(row, result.retryAfterMs, Date.now());
      decisions.attempts.push({ due, numRetries, result, pause });
      if (asked || result.delivered) return;
      const next = afterFailure(
        { numRetries, createdAt: row.created_at, pausedUntil: pause?.until.getTime() },
        this.schedule,
        Date.now(),
      );
      if (next.kind === 'retry') decisions.retries.push({ row, numRetries, at: next.at });
      else decisions.failed.push({ row, numRetries, reason: next.reason });
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
    return cachedValue(this.secrets, ciphertext, () => decryptSecret(this.config.masterKey, ciphertext));
  }

  /**
   * The endpoint's URL, parsed once (the sender does not change it; for the deliveries/s target:
   * docs/decisions.md, "Webhooks: the worker's own CPU per delivery").
   */
  private url(text: string): URL {
    return cachedValue(this.urls, text, () => new URL(text));
  }
}

/** Endpoints' secrets and URLs kept at most; past it the cache starts afresh. */
const MAX_CACHED = 10_000;

/** `cache`'s value for `key`, made by `make` the first time. */
function cachedValue<T>(cache: Map<string, T>, key: string, make: () => T): T {
  let value = cache.get(key);
  if (value === undefined) {
    value = make();
    if (cache.size >= MAX_CACHED) cache.clear();
    cache.set(key, value);
  }
  return value;
}
