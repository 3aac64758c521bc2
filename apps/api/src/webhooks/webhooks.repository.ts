// Every query of the api's side of webhook_endpoints, webhook_attempts and webhook_recoveries (the worker
// writes the attempts and a recovery's progress; the api reads them). Style: TypeORM for the three tables
// and pg-boss's queue through its client, but for one SQL statement, saveEndpoint's conditional upsert (ON
// CONFLICT ... DO UPDATE ... WHERE, which TypeORM's builder cannot write): registration must not slip
// between a check and the write.
import { Inject, Injectable } from '@nestjs/common';
import {
  QUEUES,
  WebhookAttempt,
  WebhookEndpoint,
  WebhookRecovery,
  bossDb,
  type WebhookRecoveryJob,
} from '@svc/db';
import type { PgBoss } from 'pg-boss';
import { DataSource, type EntityManager, type FindOptionsWhere, Not } from 'typeorm';

import { findPage, type Keyset, type Page, ROW_ID } from '../common/pagination.js';
import { BOSS } from '../database/database.module.js';
import type { ListDeliveriesQuery } from './dto/list-deliveries.query.js';

const BY_ID: Keyset<WebhookAttempt, 'id'> = { column: 'id', key: ROW_ID };

export type EndpointValues = Pick<
  WebhookEndpoint,
  'orgId' | 'url' | 'secretCiphertext' | 'status' | 'challengeError'
>;

@Injectable()
export class WebhooksRepository {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(BOSS) private readonly boss: PgBoss,
  ) {}

  findEndpoint(
    orgId: number,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<WebhookEndpoint | null> {
    return manager.getRepository(WebhookEndpoint).findOneBy({ orgId });
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

  /** The organisation's recovery that is not COMPLETED, if any (there is at most one). */
  findUnfinishedRecovery(manager: EntityManager, orgId: number): Promise<WebhookRecovery | null> {
    return manager.getRepository(WebhookRecovery).findOneBy({ orgId, status: Not('COMPLETED') });
  }

  findLatestRecovery(orgId: number): Promise<WebhookRecovery | null> {
    return this.dataSource
      .getRepository(WebhookRecovery)
      .findOne({ where: { orgId }, order: { createdAt: 'DESC' } });
  }

  findRecovery(orgId: number, id: string): Promise<WebhookRecovery | null> {
    return this.dataSource.getRepository(WebhookRecovery).findOneBy({ orgId, id });
  }

  /** A PENDING recovery and the worker's job for it, both in `manager`'s transaction. */
  async insertRecovery(manager: EntityManager, orgId: number, since: Date): Promise<WebhookRecovery> {
    const runner = manager.queryRunner;
    if (!runner?.isTransactionActive)
      throw new Error('a recovery is recorded with its job, in one transaction');
    const repository = manager.getRepository(WebhookRecovery);
    const { id } = await repository.save(repository.create({ orgId, since }));
    const job: WebhookRecoveryJob = { recoveryId: id };
    await this.boss.send(QUEUES.webhookRecovery, job, { db: bossDb(runner) });
    return repository.findOneByOrFail({ id });
  }
}
