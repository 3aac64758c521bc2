// Every query of the api's side of webhook_endpoints and webhook_attempts (the worker writes the
// attempts; the api reads them).
import { Injectable } from '@nestjs/common';
import { WebhookAttempt, WebhookEndpoint } from '@svc/db';
import { DataSource, type FindOptionsWhere } from 'typeorm';

import { findPage, type Keyset, type Page, ROW_ID } from '../common/pagination.js';
import type { ListDeliveriesQuery } from './dto/list-deliveries.query.js';

const BY_ID: Keyset<WebhookAttempt, 'id'> = { column: 'id', key: ROW_ID };

export type EndpointValues = Pick<
  WebhookEndpoint,
  'orgId' | 'url' | 'secretCiphertext' | 'status' | 'challengeError'
>;

@Injectable()
export class WebhooksRepository {
  constructor(private readonly dataSource: DataSource) {}

  findEndpoint(orgId: number): Promise<WebhookEndpoint | null> {
    return this.dataSource.getRepository(WebhookEndpoint).findOneBy({ orgId });
  }

  /** Registers the organisation's one endpoint, replacing the one it had. */
  async upsertEndpoint(values: EndpointValues): Promise<WebhookEndpoint> {
    const repository = this.dataSource.getRepository(WebhookEndpoint);
    await repository.upsert(values, { conflictPaths: ['orgId'] });
    return repository.findOneByOrFail({ orgId: values.orgId });
  }

  async deleteEndpoint(endpoint: WebhookEndpoint): Promise<void> {
    await this.dataSource.getRepository(WebhookEndpoint).delete({ id: endpoint.id });
  }

  listAttempts(orgId: number, query: ListDeliveriesQuery): Promise<Page<WebhookAttempt>> {
    const where: FindOptionsWhere<WebhookAttempt> = { orgId };
    if (query.eventId !== undefined) where.eventId = query.eventId;
    if (query.delivered !== undefined) where.delivered = query.delivered;
    return findPage(this.dataSource.getRepository(WebhookAttempt), where, BY_ID, query);
  }
}
