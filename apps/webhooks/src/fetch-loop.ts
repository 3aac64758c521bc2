// The worker's fetchers: each takes a batch from the delivery queue, makes its attempts, and takes the next
// at once while batches come full; else it rests until a notification, the next poll, or the time the
// first attempt it put back is due. The NOTIFY that the api sends with every new event or redelivery
// (EVENTS_CHANNEL) wakes one resting fetcher.
import { EVENTS_CHANNEL } from '@svc/db';
import type { PgBoss } from 'pg-boss';
import type { Logger } from 'pino';

import type { WorkerConfig } from './config.js';
import type { DeliveryProcessor } from './delivery.js';
import type { DeliveryQueue } from './delivery-queue.js';
import type { WorkerMetrics } from './metrics.js';

/** After a failed batch (PostgreSQL away), a fetcher waits this long before it tries again. */
const ERROR_PAUSE_MS = 1000;

export class FetchLoop {
  private stopping = false;
  /** The resting fetchers' wake-ups, longest resting first: a notification wakes one of them. */
  private readonly resting: (() => void)[] = [];
  /** A notification came while every fetcher was busy: the next one to finish looks again at once. */
  private notifiedWhileBusy = false;
  /** The earliest time an attempt was put back for (ms): the fetcher that rests next wakes then. */
  private earliestPutBack = Number.POSITIVE_INFINITY;
  private running: Promise<void>[] = [];
  private listener: { close(): Promise<void> } | undefined;

  constructor(
    private readonly config: WorkerConfig,
    private readonly queue: DeliveryQueue,
    private readonly deliveries: DeliveryProcessor,
    private readonly metrics: WorkerMetrics,
    private readonly logger: Logger,
  ) {}

  /** Starts the fetchers, woken by pg-boss's LISTEN connection (which reconnects with backoff). */
  async start(boss: PgBoss): Promise<void> {
    this.running = Array.from({ length: this.config.fetchers }, () => this.fetcher());
    this.listener = await boss.getDb().listen?.(
      EVENTS_CHANNEL,
      () => this.notified(),
      // After a reconnect, every fetcher looks: notifications may have been missed meanwhile.
      () => this.wakeAll(),
    );
  }

  /** Stops taking batches; resolves when the batches in flight have settled. */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.listener?.close();
    this.wakeAll();
    await Promise.all(this.running);
  }

  private async fetcher(): Promise<void> {
    while (!this.stopping) {
      let taken: number;
      try {
        taken = await this.batch();
      } catch (error) {
        this.logger.warn({ err: error }, 'queue error');
        await this.rest(ERROR_PAUSE_MS);
        continue;
      }
      // A full batch: more are due, go on at once. Else wait for a notification, or the next poll (due
      // retries and put-back attempts have no notification).
      if (taken >= this.config.batchSize || this.isStopping()) continue;
      if (this.notifiedWhileBusy) {
        this.notifiedWhileBusy = false;
        continue;
      }
      const now = Date.now();
      if (this.earliestPutBack <= now) this.earliestPutBack = Number.POSITIVE_INFINITY;
      await this.rest(Math.max(0, Math.min(this.config.pollIntervalMs, this.earliestPutBack - now)));
    }
  }

  /** A method, so that a stop that came during the batch is seen past the loop's own check. */
  private isStopping(): boolean {
    return this.stopping;
  }

  private async batch(): Promise<number> {
    const taken = await this.queue.take(this.config.batchSize, this.deliveries.decide);
    // Once settled: counted, and the first attempt put back brings a fetcher round then.
    if (taken.putBackUntil !== undefined)
      this.earliestPutBack = Math.min(this.earliestPutBack, taken.putBackUntil);
    this.metrics.retriesScheduled(taken.retried);
    this.metrics.eventsGivenUp(taken.givenUp);
    return taken.count;
  }

  private rest(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        const at = this.resting.indexOf(wake);
        if (at >= 0) this.resting.splice(at, 1);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.resting.push(wake);
    });
  }

  private notified(): void {
    const wake = this.resting.shift();
    if (wake) wake();
    else this.notifiedWhileBusy = true;
  }

  private wakeAll(): void {
    this.resting.splice(0).forEach((wake) => wake());
  }
}
