import type { AuditEntry } from '@svc/db';

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
