import type { OrgPolicy, Organisation } from '@svc/db';

import { exactNumber } from '../common/decimal.js';

/**
 * GET /api/v1/org/ (docs/decisions.md, "Organisations: fields and views"). `webhook` is null until one is
 * registered.
 */
export function orgView(org: Organisation, webhook: { url: string; status: string } | null = null) {
  return {
    orgId: org.id,
    name: org.name,
    plan: org.plan,
    environment: org.environment,
    kycDomain: org.kycDomain,
    supportEmails: org.supportEmails,
    policy: policyView(org.policy),
    webhook,
    createdAt: org.createdAt.toISOString(),
    updatedAt: org.updatedAt.toISOString(),
  };
}

export type OrgView = ReturnType<typeof orgView>;

/** The organisation on the operator surface: as its own view shows it, without the webhook. */
export function adminOrgView(org: Organisation) {
  const { orgId, name, plan, environment, kycDomain, supportEmails, policy, createdAt, updatedAt } =
    orgView(org);
  return { orgId, name, plan, environment, kycDomain, supportEmails, policy, createdAt, updatedAt };
}

export type AdminOrgView = ReturnType<typeof adminOrgView>;

/**
 * Field by field, since jsonb returns keys reordered; amounts are decimal strings at rest and JSON numbers
 * on the wire with exactly the stored digits, as money is written on the wire (docs/api-guide.md#base-url-and-versioning).
 */
export function policyView(policy: OrgPolicy) {
  return {
    enabledAssets: policy.enabledAssets,
    quoteLimit: amounts(policy.quoteLimit),
    totalLimit: amounts(policy.totalLimit),
    totalExposure: amounts(policy.totalExposure),
    assetExposure: amounts(policy.assetExposure),
    commissionRate: exactNumber(policy.commissionRate),
    vatRate: exactNumber(policy.vatRate),
  };
}

/** Asset code to number, codes in alphabetical order (jsonb keeps no order of its own). */
export function amounts(limits: Record<string, string>): Record<string, number> {
  return Object.fromEntries(
    Object.entries(limits)
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([asset, amount]) => [asset, exactNumber(amount)]),
  );
}
