// The job queue between the api and the webhooks worker: pg-boss on the same PostgreSQL, with jobs
// enqueued inside the transaction of the change that causes them (DESIGN section 4).
import { PgBoss, type Db } from 'pg-boss';
import type { QueryRunner } from 'typeorm';

export const QUEUES = {
  /** One job per event to deliver; the worker reads the event row by id. */
  webhookDelivery: 'webhook-delivery',
} as const;

export interface WebhookDeliveryJob {
  readonly eventId: string;
}

export const BOSS_SCHEMA = 'pgboss';

export interface BossOptions {
  readonly url: string;
  /** Connections in pg-boss's own pool. Default 4. */
  readonly max?: number;
  /** False for processes that only send (the api): the worker runs maintenance. Default true. */
  readonly supervise?: boolean;
}

/** A started pg-boss with the queues created. The caller must listen for 'error' (pg-boss exits otherwise). */
export async function startBoss(options: BossOptions, onError: (error: Error) => void): Promise<PgBoss> {
  const boss = new PgBoss({
    connectionString: options.url,
    schema: BOSS_SCHEMA,
    useListenNotify: true,
    max: options.max ?? 4,
    supervise: options.supervise ?? true,
    schedule: options.supervise ?? true,
    // A crashed worker's jobs come back within 30 s: expiry and heartbeats are checked on this pass.
    superviseIntervalSeconds: 5,
    monitorIntervalSeconds: 5,
  });
  boss.on('error', onError);
  await boss.start();
  await boss.createQueue(QUEUES.webhookDelivery, { notify: true, expireInSeconds: 20, retryLimit: 0 });
  return boss;
}

/** pg-boss's `db` option over a TypeORM query runner, so a job commits or rolls back with its transaction. */
export function bossDb(queryRunner: QueryRunner): Db {
  return {
    async executeSql(text: string, values?: unknown[]) {
      const result = await queryRunner.query(text, values, true);
      return { rows: result.records as unknown[] };
    },
  };
}
