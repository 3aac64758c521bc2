// Every query of the audit log: rows are only ever added, in the transaction of the change they record.
// Style: TypeORM for audit_entries.
import { Injectable } from '@nestjs/common';
import { AuditEntry } from '@svc/db';
import {
  Between,
  DataSource,
  type EntityManager,
  type FindOptionsWhere,
  LessThan,
  MoreThan,
  MoreThanOrEqual,
} from 'typeorm';

import type { TimeRange } from '../common/export-range.js';
import { findPage, type Keyset, type Page, type PageOrder, ROW_ID } from '../common/pagination.js';
import type { AuditActor } from './admin-actor.decorator.js';
import type { ListAuditQuery } from './dto/list-audit.query.js';

const BY_ID: Keyset<AuditEntry, 'id'> = { column: 'id', key: ROW_ID };

export interface NewAuditEntry {
  /** The authenticated operator, or the system. */
  readonly actor: AuditActor;
  /** `<resource>.<verb>`, e.g. `org.create`, `api-key.revoke`. */
  readonly action: string;
  readonly orgId: number | null;
  readonly details: object;
}

@Injectable()
export class AuditRepository {
  constructor(private readonly dataSource: DataSource) {}

  async insert(manager: EntityManager, entry: NewAuditEntry): Promise<void> {
    const { actor, ...rest } = entry;
    await manager.insert(AuditEntry, { ...rest, actor: actor.label, operatorId: actor.operatorId });
  }

  list(query: ListAuditQuery, order: PageOrder): Promise<Page<AuditEntry>> {
    const where: FindOptionsWhere<AuditEntry> = {};
    if (query.orgId !== undefined) where.orgId = query.orgId;
    if (query.action !== undefined) where.action = query.action;
    if (query.operatorId !== undefined) where.operatorId = query.operatorId.toLowerCase();
    // An operator's entries carry their e-mail as the actor (an operator's e-mail never changes).
    if (query.operatorEmail !== undefined) where.actor = query.operatorEmail;
    const from = query.from === undefined ? undefined : new Date(query.from);
    const to = query.to === undefined ? undefined : new Date(query.to);
    if (from && to) where.createdAt = Between(from, new Date(to.getTime() - 1));
    else if (from) where.createdAt = MoreThanOrEqual(from);
    else if (to) where.createdAt = LessThan(to);
    return findPage(this.dataSource.getRepository(AuditEntry), where, BY_ID, query, order);
  }

  /** The export's batch: entries created in the range, by id, after `afterId`. */
  exportBatch(range: TimeRange, afterId: string | undefined, limit: number): Promise<AuditEntry[]> {
    return this.dataSource.getRepository(AuditEntry).find({
      where: {
        createdAt: Between(range.since, new Date(range.until.getTime() - 1)),
        ...(afterId ? { id: MoreThan(afterId) } : {}),
      },
      order: { id: 'ASC' },
      take: limit,
    });
  }
}
