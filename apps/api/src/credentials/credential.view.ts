// What the operator surface answers about an organisation's credentials. Secrets appear only in the
// answer that issues them (see the services), never here.
import type { ApiKey, OAuthClient } from '@svc/db';

export function apiKeyView(row: ApiKey) {
  return {
    id: row.id,
    orgId: row.orgId,
    apiKey: row.key,
    label: row.label,
    createdAt: row.createdAt.toISOString(),
    revokedAt: row.revokedAt?.toISOString() ?? null,
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
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
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  };
}

export type OAuthClientView = ReturnType<typeof oauthClientView>;
