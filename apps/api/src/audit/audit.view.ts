import type { AuditEntry } from '@svc/db';

import type { CsvCell } from '../common/csv.js';

/** An audit entry on the operator surface. */
export function auditView(entry: AuditEntry) {
  return {
    id: entry.id,
    actor: entry.actor,
    operatorId: entry.operatorId,
    action: entry.action,
    orgId: entry.orgId,
    details: entry.details,
    createdAt: entry.createdAt.toISOString(),
  };
}

export type AuditView = ReturnType<typeof auditView>;

/** The audit export's columns (docs/console.md#audit-log): the details as JSON text. */
export const AUDIT_CSV_HEADER = [
  'id',
  'createdAt',
  'actor',
  'operatorId',
  'action',
  'orgId',
  'details',
] as const;

export function auditCsvRow(entry: AuditEntry): CsvCell[] {
  return [
    entry.id,
    entry.createdAt,
    entry.actor,
    entry.operatorId,
    entry.action,
    entry.orgId,
    JSON.stringify(entry.details),
  ];
}
