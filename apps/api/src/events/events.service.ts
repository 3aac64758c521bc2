// Writes an organisation's event and enqueues its delivery in the caller's transaction, so a change and
// its event commit together or not at all (DESIGN section 4).
import { randomUUID } from 'node:crypto';

import { Inject, Injectable } from '@nestjs/common';
import { QUEUES, bossDb, type WebhookDeliveryJob } from '@svc/db';
import type { EntityName, KycEventType } from '@svc/protocol';
import type { PgBoss } from 'pg-boss';
import type { EntityManager } from 'typeorm';

import { BOSS } from '../database/database.module.js';

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
}
