// The worker's running parts: the fetchers of the delivery queue, which holds every attempt, scheduled or
// asked for (fetch-loop.ts, delivery-queue.ts), and on pg-boss the jobs that are jobs: failure e-mails,
// recoveries, retention (events, price ticks) and the expired idempotency keys' pruning; with a graceful
// stop that lets attempts in flight finish and settle.
import { NOTIFY_CHANNEL, QUEUES } from '@svc/db';
import { WebhookSender } from '@svc/webhook-sender';
import type { PgBoss } from 'pg-boss';
import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';

import type { WorkerConfig } from './config.js';
import { DeliveryProcessor } from './delivery.js';
import { PostgresDeliveryQueue } from './delivery-queue.js';
import { FailureMailer } from './failure-mailer.js';
import { FetchLoop } from './fetch-loop.js';
import { WorkerMetrics } from './metrics.js';
import { RecoveryRunner } from './recovery.js';
import { startUpkeep } from './scheduled-upkeep.js';

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
  const queue = new PostgresDeliveryQueue(config, deps.dataSource, boss, logger);
  const deliveries = new DeliveryProcessor(config, sender, logger, metrics);
  const mailer = new FailureMailer(config, deps.dataSource, boss, logger, metrics);
  const recoveries = new RecoveryRunner(config, deps.dataSource, logger);
  // Besides the wake-ups below: every job while the LISTEN connection is down.
  const polling = { pollingIntervalSeconds: config.pollIntervalMs / 1000 };

  const mailWorker = await boss.work(QUEUES.webhookFailureEmail, { ...polling, batchSize: 5 }, mailer.handle);
  const recoveryWorker = await boss.work(
    QUEUES.webhookRecovery,
    { ...polling, batchSize: 1 },
    recoveries.handle,
  );
  const fetchLoop = new FetchLoop(config, queue, deliveries, metrics, logger);
  await fetchLoop.start(boss);
  await startUpkeep(boss, polling, config, deps.dataSource, logger);
  // pg-boss's connection handling: reconnects with backoff, and after a reconnect we wake every
  // job worker once for the notifications missed meanwhile.
  const listener = await boss.getDb().listen?.(
    NOTIFY_CHANNEL,
    (queueName) => {
      if (queueName === QUEUES.webhookFailureEmail) boss.notifyWorker(mailWorker);
      else if (queueName === QUEUES.webhookRecovery) boss.notifyWorker(recoveryWorker);
    },
    () => [mailWorker, recoveryWorker].forEach((id) => boss.notifyWorker(id)),
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
        fetchLoop.stop(),
        boss.offWork(QUEUES.webhookFailureEmail, { wait: true }),
        boss.offWork(QUEUES.webhookRecovery, { wait: true }),
        boss.offWork(QUEUES.eventRetention, { wait: true }),
        boss.offWork(QUEUES.priceTickRetention, { wait: true }),
      ]);
      mailer.close();
      if (!deps.sender) await sender.close();
    },
  };
}
