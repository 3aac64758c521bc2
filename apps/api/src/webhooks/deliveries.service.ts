// The organisation's view of deliveries (docs/decisions.md, "Webhooks: redelivery and recovery"): the attempt
// log, and redelivery of an event inside its window, which the worker makes as one attempt outside the retry
// schedule, or for a retrying event its scheduled retry made at once ("Webhooks: Retry now").
import { Inject, Injectable } from '@nestjs/common';
import { transaction, type WebhookAttempt } from '@svc/db';
import { DataSource } from 'typeorm';

import { conflict, notFound } from '../common/errors.js';
import { mapPage, type Page } from '../common/pagination.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { OutboxRepository } from '../outbox/outbox.repository.js';
import { deliveryState } from './delivery-state.js';
import { deliveryView, type DeliveryView } from './delivery.view.js';
import type { ListDeliveriesQuery } from './dto/list-deliveries.query.js';
import { WebhooksRepository } from './webhooks.repository.js';

@Injectable()
export class DeliveriesService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly webhooks: WebhooksRepository,
    private readonly events: OutboxRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async list(orgId: number, query: ListDeliveriesQuery): Promise<Page<DeliveryView>> {
    return mapPage(await this.webhooks.listAttempts(orgId, query), deliveryView);
  }

  /**
   * An event's attempts as stored, oldest first, 100 a page after `cursor` (the dashboard rebuilds each
   * one's request from them).
   */
  attemptsOf(orgId: number, eventId: string, cursor: string | undefined): Promise<Page<WebhookAttempt>> {
    const query: ListDeliveriesQuery = { eventId, limit: 100, ...(cursor === undefined ? {} : { cursor }) };
    return this.webhooks.listAttempts(orgId, query);
  }

  /**
   * One more attempt of `eventId`, inside its window, to the ACTIVE endpoint. A DELIVERED, FAILED or
   * SKIPPED event gets a redelivery; a RETRYING one gets its scheduled retry at once instead ("Retry now",
   * docs/decisions.md, "Webhooks: Retry now"), which replaces that retry. With `retryingOnly` (the
   * dashboard's Retry now button) an event that is no longer retrying is refused rather than redelivered.
   */
  async redeliver(
    orgId: number,
    eventId: string,
    options: { retryingOnly?: boolean } = {},
  ): Promise<{ eventId: string; status: 'QUEUED' }> {
    return transaction(this.dataSource, async (manager) => {
      const event = await this.events.lock(manager, orgId, eventId);
      if (!event) throw notFound(`no event ${eventId}`);
      const { state } = deliveryState(event);
      if (options.retryingOnly && state !== 'RETRYING') {
        throw conflict(`the event is no longer retrying: it is ${state}`);
      }
      const endpoint = await this.webhooks.findEndpoint(orgId);
      if (endpoint?.status !== 'ACTIVE') throw conflict('no active webhook is registered');
      if (state === 'PENDING') {
        throw conflict('the event is still being delivered (its first attempt is not made yet)');
      }
      if (Date.now() >= event.createdAt.getTime() + this.config.webhooks.windowMs) {
        throw conflict('the event is older than the 24 h delivery window and cannot be redelivered');
      }
      if (state === 'RETRYING') await this.events.retryNow(manager, eventId);
      else await this.events.queueRedelivery(manager, eventId);
      return { eventId, status: 'QUEUED' as const };
    });
  }
}
