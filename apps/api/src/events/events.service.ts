// Writes an organisation's event and enqueues its delivery in the caller's transaction, so a change and
// its event commit together or not at all (DESIGN section 4).
import { randomUUID } from 'node:crypto';

import { Inject, Injectable } from '@nestjs/common';
import { QUEUES, bossDb, type WebhookDeliveryJob } from '@svc/db';
import type { EntityName, KycEventType } from '@svc/protocol';
import type { PgBoss } from 'pg-boss';
import type { EntityManager } from 'typeorm';

import { BOSS } from '../database/database.module.js';

/** Jobs per pg-boss insert: one JSON parameter each, kept to a few hundred kilobytes. */
const BULK_JOBS = 5000;

export interface NewEvent {
  readonly orgId: number;
  readonly entity: EntityName;
  readonly eventType?: KycEventType;
  /** The body's `data`, exactly as it will be delivered. */
  readonly data: object;
}

@Injectable()
export class EventsService {
  constructor(@Inject(BOSS) private readonly boss: PgBoss) {}

  /** `manager` must be inside a transaction (EntityManager of DataSource.transaction). */
  async record(manager: EntityManager, event: NewEvent): Promise<string> {
    const queryRunner = manager.queryRunner;
    if (!queryRunner?.isTransactionActive)
      throw new Error('events are recorded inside the transaction of their change');
    const id = randomUUID();
    // One statement, not manager.insert(Event): TypeORM's insert builder costs about 0.05 ms of CPU per
    // row (bench/README.md, api). The other columns keep their defaults.
    await queryRunner.query(
      'INSERT INTO events (id, org_id, entity, event_type, data) VALUES ($1, $2, $3, $4, $5)',
      [id, event.orgId, event.entity, event.eventType ?? null, JSON.stringify(event.data)],
    );
    const job: WebhookDeliveryJob = { eventId: id };
    await this.boss.send(QUEUES.webhookDelivery, job, { db: bossDb(queryRunner) });
    return id;
  }

  /**
   * One event with the same `data` for every organisation whose webhook endpoint is ACTIVE (a system
   * notice, spec 6.4), in the caller's transaction: the rows in one INSERT ... SELECT and their delivery
   * jobs in bulk, so thousands of organisations cost a few statements. An organisation without a working
   * endpoint gets nothing: it could never receive the event, and it would only be SKIPPED. Answers how
   * many organisations got it.
   */
  async broadcast(manager: EntityManager, event: Omit<NewEvent, 'orgId' | 'eventType'>): Promise<number> {
    const queryRunner = manager.queryRunner;
    if (!queryRunner?.isTransactionActive)
      throw new Error('events are recorded inside the transaction of their change');
    const rows = (await queryRunner.query(
      `INSERT INTO events (id, org_id, entity, data)
       SELECT gen_random_uuid(), org_id, $1, $2::json FROM webhook_endpoints WHERE status = 'ACTIVE'
       ORDER BY org_id
       RETURNING id`,
      [event.entity, JSON.stringify(event.data)],
    )) as { id: string }[];
    const db = bossDb(queryRunner);
    for (let start = 0; start < rows.length; start += BULK_JOBS) {
      const jobs = rows.slice(start, start + BULK_JOBS).map(({ id }) => {
        const job: WebhookDeliveryJob = { eventId: id };
        return { data: job };
      });
      await this.boss.insert(QUEUES.webhookDelivery, jobs, { db });
    }
    return rows.length;
  }
}
