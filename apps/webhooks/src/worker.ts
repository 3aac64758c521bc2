// The worker's running parts: the delivery and failure e-mail handlers on pg-boss, with a graceful stop
// that lets attempts in flight finish and record their outcome.
import { QUEUES } from '@svc/db';
import { WebhookSender } from '@svc/webhook-sender';
import type { PgBoss } from 'pg-boss';
import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';

import type { WorkerConfig } from './config.js';
import { DeliveryProcessor } from './delivery.js';
import { FailureMailer } from './failure-mailer.js';

export interface WorkerDependencies {
  readonly config: WorkerConfig;
  readonly dataSource: DataSource;
  readonly boss: PgBoss;
  readonly logger: Logger;
  /** Tests swap the sender (its resolver); default: one from the configured receiver rules. */
  readonly sender?: WebhookSender;
}

export interface RunningWorker {
  /** Stops fetching, waits for the batches in flight to finish and record their outcome, closes its sender. */
  stop(): Promise<void>;
}

export async function startWorker(deps: WorkerDependencies): Promise<RunningWorker> {
  const { config, boss, logger } = deps;
  const sender = deps.sender ?? new WebhookSender({ policy: config.webhooks.receivers });
  const deliveries = new DeliveryProcessor(config, deps.dataSource, boss, sender, logger);
  const mailer = new FailureMailer(config, deps.dataSource, boss, logger);
  const polling = {
    pollingIntervalSeconds: config.pollIntervalMs / 1000,
    // While LISTEN/NOTIFY works, pg-boss polls only this often; delayed retries become due between two
    // notifications, and after an outage LISTEN takes up to 30 s to come back.
    notifyPollingIntervalSeconds: config.pollIntervalMs / 1000,
  };
  await boss.work(
    QUEUES.webhookDelivery,
    { ...polling, batchSize: config.batchSize, localConcurrency: config.fetchers, burstWhenBatchFull: true },
    deliveries.handle,
  );
  await boss.work(QUEUES.webhookFailureEmail, { ...polling, batchSize: 5 }, mailer.handle);
  logger.info(
    { fetchers: config.fetchers, batchSize: config.batchSize, perEndpoint: config.perEndpointConcurrency },
    'webhooks worker started',
  );
  return {
    async stop() {
      await Promise.all([
        boss.offWork(QUEUES.webhookDelivery, { wait: true }),
        boss.offWork(QUEUES.webhookFailureEmail, { wait: true }),
      ]);
      mailer.close();
      if (!deps.sender) await sender.close();
    },
  };
}
