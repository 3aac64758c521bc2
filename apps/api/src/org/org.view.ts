import type { Organisation } from '@svc/db';

/** GET /api/v1/org/ (DESIGN section 8). `webhook` is null until one is registered. */
export function orgView(org: Organisation, webhook: { url: string; status: string } | null = null) {
  return {
    orgId: org.id,
    name: org.name,
    plan: org.plan,
    kycDomain: org.kycDomain,
    supportEmails: org.supportEmails,
    // Field by field, since jsonb returns keys reordered; amounts are decimal strings at rest and JSON
    // numbers on the wire, as the spec writes money (DESIGN section 4).
    policy: {
      enabledAssets: org.policy.enabledAssets,
      quoteLimit: amount(org.policy.quoteLimit),
      totalLimit: amount(org.policy.totalLimit),
      totalExposure: amount(org.policy.totalExposure),
      assetExposure: Object.fromEntries(
        Object.entries(org.policy.assetExposure).map(([asset, limit]) => [asset, Number(limit)]),
      ),
      commissionRate: Number(org.policy.commissionRate),
      vatRate: Number(org.policy.vatRate),
    },
    webhook,
    createdAt: org.createdAt.toISOString(),
    updatedAt: org.updatedAt.toISOString(),
  };
}

function amount(value: string | null): number | null {
  return value === null ? null : Number(value);
}
