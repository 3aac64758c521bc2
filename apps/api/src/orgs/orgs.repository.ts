// Every query of the organisations table. Style: TypeORM for organisations (and the read of an
// organisation's webhook_endpoints row): none of it is on a hot path.
import { Injectable } from '@nestjs/common';
import { Organisation, type OrgPolicy, WebhookEndpoint } from '@svc/db';
import { DataSource, type EntityManager, ILike } from 'typeorm';

import { findPage, INT_ID, type Keyset, type Page, type PageQuery } from '../common/pagination.js';

const BY_ID: Keyset<Organisation, 'id'> = { column: 'id', key: INT_ID };

export type NewOrganisation = Pick<
  Organisation,
  'name' | 'kycDomain' | 'plan' | 'environment' | 'supportEmails' | 'policy'
>;

@Injectable()
export class OrgsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** `lock` holds the row for the rest of the transaction. */
  find(manager: EntityManager, orgId: number, lock = false): Promise<Organisation | null> {
    return manager.getRepository(Organisation).findOne({
      where: { id: orgId },
      ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
  }

  /**
   * The organisation with its webhook's url and status, for its own GET /api/v1/org/. The one read of
   * webhook_endpoints outside the webhooks feature, which otherwise owns that table.
   */
  async findWithWebhook(
    orgId: number,
  ): Promise<{ org: Organisation; webhook: Pick<WebhookEndpoint, 'url' | 'status'> | null } | null> {
    const org = await this.find(this.dataSource.manager, orgId);
    if (!org) return null;
    const webhook = await this.dataSource
      .getRepository(WebhookEndpoint)
      .findOne({ where: { orgId }, select: { url: true, status: true } });
    return { org, webhook };
  }

  insert(manager: EntityManager, values: NewOrganisation): Promise<Organisation> {
    return manager.save(manager.create(Organisation, values));
  }

  save(manager: EntityManager, org: Organisation): Promise<Organisation> {
    return manager.save(org);
  }

  savePolicy(manager: EntityManager, org: Organisation, policy: OrgPolicy): Promise<Organisation> {
    org.policy = policy;
    return manager.save(org);
  }

  /** By id; `nameContains` keeps those whose name holds it, any case (the console's search). */
  list(query: PageQuery, nameContains?: string): Promise<Page<Organisation>> {
    const where =
      nameContains === undefined ? {} : { name: ILike(`%${nameContains.replace(/[\\%_]/g, '\\$&')}%`) };
    return findPage(this.dataSource.getRepository(Organisation), where, BY_ID, query);
  }
}
