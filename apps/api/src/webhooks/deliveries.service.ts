// The organisation's view of deliveries (DESIGN section 9): the attempt log, and redelivery of an event
// inside its window, which the worker makes as one attempt outside the retry schedule.
import { Inject, Injectable } from '@nestjs/common';
import { Event, QUEUES, WebhookAttempt, WebhookEndpoint, bossDb, type WebhookDeliveryJob } from '@svc/db';
import type { PgBoss } from 'pg-boss';
import { DataSource, MoreThan, type FindOptionsWhere } from 'typeorm';

import { conflict, notFound } from '../common/errors.js';
import { DEFAULT_PAGE_SIZE, decodeCursor, type Page, toPage } from '../common/pagination.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { BOSS } from '../database/database.module.js';
import type { ListDeliveriesQuery } from './dto/list-deliveries.query.js';

function deliveryView(attempt: WebhookAttempt) {
  return {
    eventId: attempt.eventId,
    url: attempt.url,
    numRetries: attempt.numRetries,
    manual: attempt.manual,
    attemptedAt: attempt.attemptedAt.toISOString(),
    durationMs: attempt.durationMs,
    delivered: attempt.delivered,
    statusCode: attempt.statusCode,
    errorKind: attempt.errorKind,
    response: attempt.response,
  };
}

export type DeliveryView = ReturnType<typeof deliveryView>;

@Injectable()
export class DeliveriesService {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(BOSS) private readonly boss: PgBoss,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async list(orgId: number, query: ListDeliveriesQuery): Promise<Page<DeliveryView>> {
    const limit = query.limit ?? DEFAULT_PAGE_SIZE;
    const after = decodeCursor(query.cursor);
    const where: FindOptionsWhere<WebhookAttempt> = { orgId };
    if (query.eventId !== undefined) where.eventId = query.eventId;
    if (query.delivered !== undefined) where.delivered = query.delivered;
    if (after !== undefined) where.id = MoreThan(after);
    const rows = await this.dataSource
      .getRepository(WebhookAttempt)
      .find({ where, order: { id: 'ASC' }, take: limit + 1 });
    return toPage(rows, limit, deliveryView);
  }

  /** Queues one more attempt of `eventId`; refused while its retries run, and after its window. */
  async redeliver(orgId: number, eventId: string): Promise<{ eventId: string; status: 'QUEUED' }> {
    return this.dataSource.transaction(async (manager) => {
      const runner = manager.queryRunner;
      if (!runner) throw new Error('a transaction has a query runner');
      const event = await manager
        .getRepository(Event)
        .findOne({ where: { id: eventId, orgId }, lock: { mode: 'pessimistic_write' } });
      if (!event) throw notFound(`no event ${eventId}`);
      const endpoint = await manager.getRepository(WebhookEndpoint).findOneBy({ orgId });
      if (endpoint?.status !== 'ACTIVE') throw conflict('no active webhook is registered');
      if (event.status === 'PENDING') {
        throw conflict('the event is still being delivered (its retries are not over)');
      }
      if (Date.now() >= event.createdAt.getTime() + this.config.webhooks.windowMs) {
        throw conflict('the event is older than the 24 h delivery window and cannot be redelivered');
      }
      const job: WebhookDeliveryJob = { eventId, manual: true };
      await this.boss.send(QUEUES.webhookDelivery, job, { db: bossDb(runner) });
      return { eventId, status: 'QUEUED' as const };
    });
  }
}
