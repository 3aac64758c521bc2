// The audit log of the operator surface (DESIGN section 6): one row per admin write, written in the
// transaction of the change it describes, so the log never shows a change that did not happen or misses
// one that did. Details carry ids and the request, never a secret.
import { Injectable } from '@nestjs/common';
import { AuditEntry } from '@svc/db';
import { DataSource, type EntityManager, type FindOptionsWhere, MoreThan } from 'typeorm';

import { DEFAULT_PAGE_SIZE, decodeCursor, type Page, toPage } from '../common/pagination.js';
import type { ListAuditQuery } from './dto/list-audit.query.js';

export interface NewAuditEntry {
  /** The X-Admin-Actor label, or 'admin'. */
  readonly actor: string;
  /** `<resource>.<verb>`, e.g. `org.create`, `api-key.revoke`. */
  readonly action: string;
  readonly orgId: number | null;
  readonly details: object;
}

export function auditView(entry: AuditEntry) {
  return {
    id: entry.id,
    actor: entry.actor,
    action: entry.action,
    orgId: entry.orgId,
    details: entry.details,
    createdAt: entry.createdAt.toISOString(),
  };
}

export type AuditView = ReturnType<typeof auditView>;

@Injectable()
export class AuditService {
  constructor(private readonly dataSource: DataSource) {}

  /** `manager` must be inside the transaction of the change (EntityManager of DataSource.transaction). */
  async record(manager: EntityManager, entry: NewAuditEntry): Promise<void> {
    if (!manager.queryRunner?.isTransactionActive)
      throw new Error('audit entries are written inside the transaction of their change');
    await manager.insert(AuditEntry, {
      actor: entry.actor,
      action: entry.action,
      orgId: entry.orgId,
      details: entry.details,
    });
  }

  async list(query: ListAuditQuery): Promise<Page<AuditView>> {
    const limit = query.limit ?? DEFAULT_PAGE_SIZE;
    const after = decodeCursor(query.cursor);
    const where: FindOptionsWhere<AuditEntry> = {};
    if (query.orgId !== undefined) where.orgId = query.orgId;
    if (query.action !== undefined) where.action = query.action;
    if (after !== undefined) where.id = MoreThan(after);
    const rows = await this.dataSource
      .getRepository(AuditEntry)
      .find({ where, order: { id: 'ASC' }, take: limit + 1 });
    return toPage(rows, limit, auditView);
  }
}
