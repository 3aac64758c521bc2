// Organisations on the operator surface: create, read, list, change name, kycDomain, plan and support
// addresses. Policy changes emit Actions events and have their own endpoint (DESIGN section 8).
import { Injectable } from '@nestjs/common';
import { Organisation } from '@svc/db';
import { DataSource, type EntityManager, type FindOptionsWhere, MoreThan } from 'typeorm';

import { badRequest, notFound } from '../common/errors.js';
import { DEFAULT_PAGE_SIZE, decodeCursor, type Page, PageQuery, toPage } from '../common/pagination.js';
import { adminOrgView, type AdminOrgView } from './admin.views.js';
import { AuditService } from './audit.service.js';
import type { CreateOrgDto } from './dto/create-org.dto.js';
import type { UpdateOrgDto } from './dto/update-org.dto.js';
import { ProvisioningService } from './provisioning.service.js';

const UPDATABLE = ['name', 'kycDomain', 'plan', 'supportEmails'] as const;

/** The organisation, or 404; `lock` holds it for the rest of the transaction. */
export async function findOrg(manager: EntityManager, orgId: number, lock = false): Promise<Organisation> {
  const org = await manager.getRepository(Organisation).findOne({
    where: { id: orgId },
    ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}),
  });
  if (!org) throw notFound(`no organisation ${orgId}`);
  return org;
}

@Injectable()
export class OrgsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly provisioning: ProvisioningService,
    private readonly audit: AuditService,
  ) {}

  create(actor: string, input: CreateOrgDto): Promise<AdminOrgView> {
    return this.dataSource.transaction(async (manager) => {
      const org = await this.provisioning.createOrganisation(
        {
          name: input.name,
          kycDomain: input.kycDomain,
          plan: input.plan,
          supportEmails: input.supportEmails ?? [],
        },
        manager,
      );
      const view = adminOrgView(org);
      await this.audit.record(manager, {
        actor,
        action: 'org.create',
        orgId: org.id,
        details: {
          name: view.name,
          kycDomain: view.kycDomain,
          plan: view.plan,
          supportEmails: view.supportEmails,
        },
      });
      return view;
    });
  }

  async get(orgId: number): Promise<AdminOrgView> {
    return adminOrgView(await findOrg(this.dataSource.manager, orgId));
  }

  async list(query: PageQuery): Promise<Page<AdminOrgView>> {
    const limit = query.limit ?? DEFAULT_PAGE_SIZE;
    const after = decodeCursor(query.cursor);
    const where: FindOptionsWhere<Organisation> = {};
    if (after !== undefined) where.id = MoreThan(Number(after));
    const rows = await this.dataSource
      .getRepository(Organisation)
      .find({ where, order: { id: 'ASC' }, take: limit + 1 });
    // The page helper keys its cursor on string ids; organisation ids are integers.
    return toPage(
      rows.map((org) => ({ id: String(org.id), org })),
      limit,
      ({ org }) => adminOrgView(org),
    );
  }

  /** Changes the fields sent; the audit entry lists each changed field's old and new value. */
  update(actor: string, orgId: number, input: UpdateOrgDto): Promise<AdminOrgView> {
    if (UPDATABLE.every((field) => input[field] === undefined)) {
      throw badRequest(`send at least one of ${UPDATABLE.join(', ')}`);
    }
    return this.dataSource.transaction(async (manager) => {
      const org = await findOrg(manager, orgId, true);
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
      const saved = Object.keys(changes).length > 0 ? await manager.save(org) : org;
      await this.audit.record(manager, { actor, action: 'org.update', orgId, details: { changes } });
      return adminOrgView(saved);
    });
  }
}
