// What the operator surface answers about organisations and their credentials. Secrets appear only in
// the answer that issues them (see the services), never here.
import type { ApiKey, OAuthClient, Organisation } from '@svc/db';

import { orgView } from '../org/org.view.js';

/** The organisation as its own GET /api/v1/org/ shows it, without the webhook (the webhooks module's). */
export function adminOrgView(org: Organisation) {
  const { orgId, name, plan, kycDomain, supportEmails, policy, createdAt, updatedAt } = orgView(org);
  return { orgId, name, plan, kycDomain, supportEmails, policy, createdAt, updatedAt };
}

export type AdminOrgView = ReturnType<typeof adminOrgView>;

export function apiKeyView(row: ApiKey) {
  return {
    id: row.id,
    orgId: row.orgId,
    apiKey: row.key,
    label: row.label,
    createdAt: row.createdAt.toISOString(),
    revokedAt: row.revokedAt?.toISOString() ?? null,
  };
}

export type ApiKeyView = ReturnType<typeof apiKeyView>;

export function oauthClientView(row: OAuthClient) {
  return {
    id: row.id,
    orgId: row.orgId,
    clientId: row.clientId,
    scopes: row.scopes,
    label: row.label,
    createdAt: row.createdAt.toISOString(),
    revokedAt: row.revokedAt?.toISOString() ?? null,
  };
}

export type OAuthClientView = ReturnType<typeof oauthClientView>;
