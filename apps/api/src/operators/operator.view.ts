import type { Operator, OperatorToken } from '@svc/db';

/** PENDING: created, not yet enrolled (no sign-in method); ACTIVE: may sign in; DISABLED: may not. */
export type OperatorStatus = 'PENDING' | 'ACTIVE' | 'DISABLED';

export function operatorStatus(operator: Operator): OperatorStatus {
  if (operator.disabledAt) return 'DISABLED';
  return operator.totpConfirmedAt || operator.oidcSubject ? 'ACTIVE' : 'PENDING';
}

/** An operator as the operator surface shows them: never a hash or a secret. */
export function operatorView(operator: Operator) {
  return {
    id: operator.id,
    email: operator.email,
    name: operator.name,
    role: operator.role,
    status: operatorStatus(operator),
    /** Password + TOTP enrolled. */
    passwordSignIn: operator.totpConfirmedAt !== null,
    /** Linked to an OpenID Connect identity. */
    singleSignOn: operator.oidcSubject !== null,
    createdAt: operator.createdAt.toISOString(),
    updatedAt: operator.updatedAt.toISOString(),
  };
}

export type OperatorView = ReturnType<typeof operatorView>;

/** A personal token without its value (stored only as a hash). */
export function operatorTokenView(token: OperatorToken) {
  return {
    id: token.id,
    operatorId: token.operatorId,
    label: token.label,
    createdAt: token.createdAt.toISOString(),
    expiresAt: token.expiresAt.toISOString(),
    lastUsedAt: token.lastUsedAt?.toISOString() ?? null,
    revokedAt: token.revokedAt?.toISOString() ?? null,
  };
}

export type OperatorTokenView = ReturnType<typeof operatorTokenView>;
