// The worker's running parts: the events table's queue of scheduled attempts (event-queue.ts), and on pg-boss
// the redeliveries, failure e-mails, recoveries and retention, with a graceful stop that lets attempts in
// flight finish and record their outcome.
import { NOTIFY_CHANNEL, QUEUES, type WebhookDeliveryJob } from '@svc/db';
import { WebhookSender } from '@svc/webhook-sender';
import type { PgBoss } from 'pg-boss';
import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';

import type { WorkerConfig } from './config.js';
import { DeliveryProcessor } from './delivery.js';
import { startEventQueue } from './event-queue.js';
import { EventRetention } from './event-retention.js';
import { FailureMailer } from './failure-mailer.js';
import { WorkerMetrics } from './metrics.js';
import { RecoveryRunner } from './recovery.js';

/** pg-boss fetchers for redelivery jobs (manual, recoveries'): few, as the organisations ask for them. */
const MANUAL_FETCHERS = 2;

export interface WorkerDependencies {
  readonly config: WorkerConfig;
  readonly dataSource: DataSource;
  /** Started with `listen: false`: the worker listens itself and wakes one fetcher per notification. */
  readonly boss: PgBoss;
  readonly logger: Logger;
  /** Tests swap the sender (its resolver); default: one from the configured receiver rules. */
  readonly sender?: WebhookSender;
  /** What /metrics reports; default: counted where no one reads it. */
  readonly metrics?: WorkerMetrics;
}

export interface RunningWorker {
  /** Stops fetching, waits for the batches in flight to finish and record their outcome, closes its sender. */
  stop(): Promise<void>;
}

export async function startWorker(deps: WorkerDependencies): Promise<RunningWorker> {
  const { config, boss, logger } = deps;
  const sender = deps.sender ?? new WebhookSender({ policy: config.webhooks.receivers });
  const metrics = deps.metrics ?? new WorkerMetrics();
  const deliveries = new DeliveryProcessor(config, deps.dataSource, boss, sender, logger, metrics);
  const mailer = new FailureMailer(config, deps.dataSource, boss, logger, metrics);
  const recoveries = new RecoveryRunner(config, deps.dataSource, boss, logger);
  // Besides the wake-ups below: due retries, and every job while the LISTEN connection is down.
  const polling = { pollingIntervalSeconds: config.pollIntervalMs / 1000 };

  // One pg-boss worker per redelivery fetcher, so the busy ones are known and a notification wakes one idle
  // fetcher (pg-boss's own listener would wake every fetcher of the queue for each job sent).
  const busy = new Set<string>();
  const fetchers: string[] = [];
  for (let i = 0; i < MANUAL_FETCHERS; i++) {
    let id = '';
    id = await boss.work<WebhookDeliveryJob>(
      QUEUES.webhookDelivery,
      { ...polling, batchSize: config.batchSize, burstWhenBatchFull: true },
      async (jobs) => {
        busy.add(id);
        try {
          await deliveries.handle(jobs);
        } finally {
          busy.delete(id);
        }
      },
    );
    fetchers.push(id);
  }
  const mailWorker = await boss.work(QUEUES.webhookFailureEmail, { ...polling, batchSize: 5 }, mailer.handle);
  const recoveryWorker = await boss.work(
    QUEUES.webhookRecovery,
    { ...polling, batchSize: 1 },
    recoveries.handle,
  );
  const table = await startEventQueue(config, deps.dataSource, boss, deliveries, logger);
  const retention = new EventRetention(config, deps.dataSource, logger);
  await retention.schedule(boss);
  await boss.work(QUEUES.eventRetention, polling, retention.handle);
  let next = 0;
  const wakeOneFetcher = () => {
    // The next idle fetcher fetches at once; when all are busy, the next one fetches again as soon as
    // its batch is done instead of waiting for its next poll.
    let chosen = next;
    for (let k = 0; k < fetchers.length; k++) {
      const at = (next + k) % fetchers.length;
      if (!busy.has(fetchers[at] ?? '')) {
        chosen = at;
        break;
      }
    }
    next = (chosen + 1) % fetchers.length;
    const id = fetchers[chosen];
    if (id) boss.notifyWorker(id);
  };
  // pg-boss's connection handling: reconnects with backoff, and after a reconnect we wake every
  // fetcher once for the notifications missed meanwhile.
  const listener = await boss.getDb().listen?.(
    NOTIFY_CHANNEL,
    (queue) => {
      if (queue === QUEUES.webhookDelivery) wakeOneFetcher();
      else if (queue === QUEUES.webhookFailureEmail) boss.notifyWorker(mailWorker);
      else if (queue === QUEUES.webhookRecovery) boss.notifyWorker(recoveryWorker);
    },
    () => [...fetchers, mailWorker, recoveryWorker].forEach((id) => boss.notifyWorker(id)),
  );
  logger.info(
    {
      fetchers: config.fetchers,
      batchSize: config.batchSize,
      perEndpoint: config.perEndpointConcurrency,
    },
    'webhooks worker started',
  );
  return {
    async stop() {
      await listener?.close();
      await Promise.all([
        table.stop(),
        boss.offWork(QUEUES.webhookDelivery, { wait: true }),
        boss.offWork(QUEUES.webhookFailureEmail, { wait: true }),
        boss.offWork(QUEUES.webhookRecovery, { wait: true }),
        boss.offWork(QUEUES.eventRetention, { wait: true }),
      ]);
      mailer.close();
      if (!deps.sender) await sender.close();
    },
  };
}
