import type { Organisation } from '@svc/db';

/** GET /api/v1/org/ (DESIGN section 8). `webhook` is null until one is registered. */
export function orgView(org: Organisation, webhook: { url: string; status: string } | null = null) {
  return {
    orgId: org.id,
    name: org.name,
    plan: org.plan,
    kycDomain: org.kycDomain,
    supportEmails: org.supportEmails,
    // Listed field by field: jsonb comes back with its keys reordered.
    policy: {
      enabledAssets: org.policy.enabledAssets,
      quoteLimit: org.policy.quoteLimit,
      totalLimit: org.policy.totalLimit,
      totalExposure: org.policy.totalExposure,
      assetExposure: org.policy.assetExposure,
      commissionRate: org.policy.commissionRate,
      vatRate: org.policy.vatRate,
    },
    webhook,
    createdAt: org.createdAt.toISOString(),
    updatedAt: org.updatedAt.toISOString(),
  };
}
