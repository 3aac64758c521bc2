// The audit log of the operator surface (docs/decisions.md, "Organisations: the audit log"): one row per
// admin write, written in the transaction of the change it describes, so the log never shows a change that
// did not happen or misses one that did. Details carry ids and the request, never a secret. It is a record:
// nothing reads it to decide what to do.
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

import { csvChunks } from '../common/csv.js';
import { badRequest } from '../common/errors.js';
import type { TimeRange } from '../common/export-range.js';
import { keysetBatches, mapBatches } from '../common/keyset-batches.js';
import { mapPage, type Page, type PageOrder } from '../common/pagination.js';
import { AuditRepository, type NewAuditEntry } from './audit.repository.js';
import { AUDIT_CSV_HEADER, auditCsvRow, auditView, type AuditView } from './audit.view.js';
import type { ListAuditQuery } from './dto/list-audit.query.js';

export type { NewAuditEntry } from './audit.repository.js';

@Injectable()
export class AuditService {
  constructor(private readonly audit: AuditRepository) {}

  /** `manager` must be inside the transaction of the change (the EntityManager @svc/db's `transaction` gives). */
  async record(manager: EntityManager, entry: NewAuditEntry): Promise<void> {
    if (!manager.queryRunner?.isTransactionActive)
      throw new Error('audit entries are written inside the transaction of their change');
    await this.audit.insert(manager, entry);
  }

  /** The api lists oldest first, as every api list; the console reads the newest first. */
  async list(query: ListAuditQuery, order: PageOrder = 'oldest-first'): Promise<Page<AuditView>> {
    if (
      query.from !== undefined &&
      query.to !== undefined &&
      Date.parse(query.from) >= Date.parse(query.to)
    ) {
      throw badRequest('from must be before to');
    }
    return mapPage(await this.audit.list(query, order), auditView);
  }

  /** The entries created in `range`, oldest first, as CSV read a batch at a time. */
  exportCsv(range: TimeRange): AsyncGenerator<string> {
    const batches = keysetBatches(
      (afterId: string | undefined, size) => this.audit.exportBatch(range, afterId, size),
      (entry) => entry.id,
      2000,
    );
    return csvChunks(AUDIT_CSV_HEADER, mapBatches(batches, auditCsvRow));
  }
}
