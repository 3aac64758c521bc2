// The job queue between the api and the webhooks worker for the jobs that are jobs (failure e-mails,
// recoveries, retention): pg-boss on the same PostgreSQL, with jobs enqueued inside the transaction of the
// change that causes them (docs/decisions.md, "Webhooks: one queue for every attempt").
import { hash } from 'node:crypto';

import { PgBoss, type Db } from 'pg-boss';
import type { PoolClient } from 'pg';
import type { EntityManager, QueryRunner } from 'typeorm';

import { query } from './sql.js';

export const QUEUES = {
  /** The worker's: one job per endpoint with failed events to report by e-mail. */
  webhookFailureEmail: 'webhook-failure-email',
  /** One job per recovery: the worker chooses its events and queues their redeliveries. */
  webhookRecovery: 'webhook-recovery',
  /**
   * The worker's schedule: events older than the retention are deleted (docs/decisions.md, "Events: retention
   * and pruning").
   */
  eventRetention: 'event-retention',
  /** The worker's schedule: Idempotency-Keys past their 24 hours are deleted (pruneIdempotencyKeys). */
  idempotencyKeyPruning: 'idempotency-key-pruning',
  /** The worker's schedule: price ticks older than their retention are deleted (prunePriceTicks). */
  priceTickRetention: 'price-tick-retention',
} as const;

export interface WebhookRecoveryJob {
  readonly recoveryId: string;
}

export interface WebhookFailureEmailJob {
  readonly endpointId: string;
}

export const BOSS_SCHEMA = 'pgboss';

/**
 * The channel pg-boss 12 sends its NOTIFY on, the queue name as payload (`plans.notifyChannelSql`, which
 * it does not export). The worker's tests fail if a pg-boss upgrade changes it.
 */
export const NOTIFY_CHANNEL = `pgboss_${hash('sha224', BOSS_SCHEMA, 'hex').slice(0, 24)}`;

export interface BossOptions {
  readonly url: string;
  /** Connections in pg-boss's own pool. Default 4. */
  readonly max?: number;
  /** False for processes that only send (the api): the worker runs maintenance. Default true. */
  readonly supervise?: boolean;
  /**
   * False: pg-boss holds no LISTEN connection and its workers only poll; the webhooks worker listens
   * itself (see {@link NOTIFY_CHANNEL}). Sending still notifies. Default true.
   */
  readonly listen?: boolean;
}

/** A started pg-boss with the queues created. The caller must listen for 'error' (pg-boss exits otherwise). */
export async function startBoss(options: BossOptions, onError: (error: Error) => void): Promise<PgBoss> {
  const boss = new PgBoss({
    connectionString: options.url,
    schema: BOSS_SCHEMA,
    useListenNotify: options.listen ?? true,
    max: options.max ?? 4,
    supervise: options.supervise ?? true,
    schedule: options.supervise ?? true,
    // A crashed worker's jobs come back within 30 s: expiry and heartbeats are checked on this pass.
    superviseIntervalSeconds: 5,
    monitorIntervalSeconds: 5,
  });
  boss.on('error', onError);
  await boss.start();
  await boss.createQueue(QUEUES.webhookFailureEmail, {
    notify: true,
    // One job waiting per endpoint (singletonKey): failures that come meanwhile join the next e-mail.
    policy: 'short',
    expireInSeconds: 60,
    retryLimit: 20,
    retryDelay: 5,
    retryBackoff: true,
    retryDelayMax: 600,
  });
  await boss.createQueue(QUEUES.webhookRecovery, {
    notify: true,
    // Choosing the events and queueing their jobs is one transaction; a large recovery takes seconds.
    expireInSeconds: 300,
    retryLimit: 10,
    retryDelay: 5,
    retryBackoff: true,
    retryDelayMax: 300,
  });
  // The worker's scheduled upkeep: one run at a time, and at most one waiting, so a run that outlasts
  // the schedule's period is not doubled.
  for (const upkeep of [QUEUES.eventRetention, QUEUES.idempotencyKeyPruning, QUEUES.priceTickRetention]) {
    await boss.createQueue(upkeep, {
      policy: 'stately',
      expireInSeconds: 15 * 60,
      retryLimit: 3,
      retryDelay: 60,
    });
  }
  return boss;
}

/**
 * pg-boss's `db` option over a connection in a transaction (the manager `transaction` gives, or a runner),
 * so a job commits or rolls back with its transaction.
 */
export function bossDb(connection: QueryRunner | EntityManager | PoolClient): Db {
  return {
    async executeSql(text: string, values?: unknown[]) {
      return { rows: await query(connection, text, values) };
    },
  };
}
