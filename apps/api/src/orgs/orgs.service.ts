// Organisations: their own view (GET /api/v1/org/) and the operator surface: create, read, list, change
// name, kycDomain, plan and support addresses. Policy changes emit Actions events and have their own
// feature (policy/, docs/decisions.md, "Organisations: the policy").
import { Injectable } from '@nestjs/common';
import { DEFAULT_POLICY, type Organisation, type OrgPolicy, transaction } from '@svc/db';
import { DataSource, type EntityManager } from 'typeorm';

import { AuditService } from '../audit/audit.service.js';
import type { AuditActor } from '../audit/admin-actor.decorator.js';
import { badRequest, notFound } from '../common/errors.js';
import { mapPage, type Page, type PageQuery } from '../common/pagination.js';
import type { CreateOrgDto } from './dto/create-org.dto.js';
import type { UpdateOrgDto } from './dto/update-org.dto.js';
import { adminOrgView, type AdminOrgView, orgView, type OrgView } from './org.view.js';
import { OrgsRepository } from './orgs.repository.js';

const UPDATABLE = ['name', 'kycDomain', 'plan', 'supportEmails'] as const;

@Injectable()
export class OrgsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly orgs: OrgsRepository,
    private readonly audit: AuditService,
  ) {}

  /** The organisation, or 404; `lock` holds it for the rest of the transaction. */
  async find(manager: EntityManager, orgId: number, lock = false): Promise<Organisation> {
    const org = await this.orgs.find(manager, orgId, lock);
    if (!org) throw notFound(`no organisation ${orgId}`);
    return org;
  }

  /** The caller's own organisation, with its webhook (docs/api-guide.md#base-url-and-versioning). */
  async own(orgId: number): Promise<OrgView> {
    const found = await this.orgs.findWithWebhook(orgId);
    if (!found) throw notFound('the organisation no longer exists');
    return orgView(found.org, found.webhook && { url: found.webhook.url, status: found.webhook.status });
  }

  /** Creates the organisation (with `policy`, else the default one) and audits it as `actor`. */
  create(actor: AuditActor, input: CreateOrgDto, policy: Partial<OrgPolicy> = {}): Promise<AdminOrgView> {
    return transaction(this.dataSource, async (manager) => {
      const org = await this.orgs.insert(manager, {
        name: input.name,
        kycDomain: input.kycDomain.toLowerCase(),
        plan: input.plan,
        environment: input.environment ?? 'LIVE',
        supportEmails: [...(input.supportEmails ?? [])],
        policy: { ...DEFAULT_POLICY, ...policy },
      });
      const view = adminOrgView(org);
      const { name, kycDomain, plan, environment, supportEmails } = view;
      await this.audit.record(manager, {
        actor,
        action: 'org.create',
        orgId: org.id,
        details: { name, kycDomain, plan, environment, supportEmails },
      });
      return view;
    });
  }

  /** The organisation's policy as stored (decimal strings), e.g. to preview a change to it. */
  async policyOf(orgId: number): Promise<OrgPolicy> {
    return (await this.find(this.dataSource.manager, orgId)).policy;
  }

  async get(orgId: number): Promise<AdminOrgView> {
    return adminOrgView(await this.find(this.dataSource.manager, orgId));
  }

  /** By id; `nameContains` keeps those whose name holds it, any case. */
  async list(query: PageQuery, nameContains?: string): Promise<Page<AdminOrgView>> {
    return mapPage(await this.orgs.list(query, nameContains), adminOrgView);
  }

  /** Changes the fields sent; the audit entry lists each changed field's old and new value. */
  update(actor: AuditActor, orgId: number, input: UpdateOrgDto): Promise<AdminOrgView> {
    if (UPDATABLE.every((field) => input[field] === undefined)) {
      throw badRequest(`send at least one of ${UPDATABLE.join(', ')}`);
    }
    return transaction(this.dataSource, async (manager) => {
      const org = await this.find(manager, orgId, true);
      const changes: Record<string, { from: unknown; to: unknown }> = {};
      for (const field of UPDATABLE) {
        const value = input[field];
        if (value === undefined || JSON.stringify(value) === JSON.stringify(org[field])) continue;
        changes[field] = { from: org[field], to: value };
      }
      if (input.name !== undefined) org.name = input.name;
      if (input.kycDomain !== undefined) org.kycDomain = input.kycDomain;
      if (input.plan !== undefined) org.plan = input.plan;
      if (input.supportEmails !== undefined) org.supportEmails = input.supportEmails;
      const saved = Object.keys(changes).length > 0 ? await this.orgs.save(manager, org) : org;
      await this.audit.record(manager, { actor, action: 'org.update', orgId, details: { changes } });
      return adminOrgView(saved);
    });
  }

  /** Replaces the policy of an organisation locked by {@link find} in this transaction. */
  savePolicy(manager: EntityManager, org: Organisation, policy: OrgPolicy): Promise<Organisation> {
    return this.orgs.savePolicy(manager, org, policy);
  }
}
