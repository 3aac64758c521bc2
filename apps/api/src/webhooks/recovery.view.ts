import type { WebhookRecovery } from '@svc/db';

/** A recovery and how far it got (docs/api-guide.md#recovering-failed-events). */
export function recoveryView(recovery: WebhookRecovery) {
  return {
    id: recovery.id,
    since: recovery.since.toISOString(),
    status: recovery.status,
    total: recovery.total,
    /** Chosen, and waiting for their attempt. */
    queued: recovery.total - recovery.delivered - recovery.failed,
    delivered: recovery.delivered,
    failed: recovery.failed,
    createdAt: recovery.createdAt.toISOString(),
    startedAt: recovery.startedAt?.toISOString() ?? null,
    completedAt: recovery.completedAt?.toISOString() ?? null,
  };
}

export type RecoveryView = ReturnType<typeof recoveryView>;
