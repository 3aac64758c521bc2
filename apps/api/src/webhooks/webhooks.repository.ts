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

  /**
   * Stores the organisation's one endpoint in place of the one it had, whose pause ends with it. With
   * `replaceActive` false an ACTIVE endpoint is kept as it is, in the same statement (so a concurrent
   * registration cannot slip between a check and the write), and the answer is null.
   */
  async saveEndpoint(
    values: EndpointValues,
    options: { replaceActive: boolean },
  ): Promise<WebhookEndpoint | null> {
    const rows = await this.dataSource.query<{ id: string }[]>(
      `INSERT INTO webhook_endpoints (org_id, url, secret_ciphertext, status, challenge_error)
       VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (org_id) DO UPDATE
         SET url = EXCLUDED.url, secret_ciphertext = EXCLUDED.secret_ciphertext, status = EXCLUDED.status,
             challenge_error = EXCLUDED.challenge_error, paused_until = NULL, updated_at = now()
         WHERE $6 OR webhook_endpoints.status <> 'ACTIVE'
       RETURNING id`,
      [
        values.orgId,
        values.url,
        values.secretCiphertext,
        values.status,
        values.challengeError,
        options.replaceActive,
      ],
    );
    const id = rows[0]?.id;
    return id === undefined ? null : this.dataSource.getRepository(WebhookEndpoint).findOneByOrFail({ id });
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
