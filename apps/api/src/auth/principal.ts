import type { OperatorRole } from '@svc/db';
import type { Scope } from '@svc/protocol';
import type { FastifyRequest } from 'fastify';

/** Who is calling an organisation endpoint, as the auth guard established it. */
export interface Principal {
  readonly orgId: number;
  /** API key + signature may do everything its organisation may; a bearer token only its scopes. */
  readonly method: 'hmac' | 'bearer';
  readonly scopes: readonly Scope[];
  /** The api key's or the token's id, for logs and audit. */
  readonly credentialId: string;
  /** The OAuth client a bearer token was issued to (its row id); null for an API key. */
  readonly clientId: string | null;
}

/** An operator on an operator route: from a personal token or a console session, never from a claim. */
export interface OperatorPrincipal {
  readonly kind: 'operator';
  readonly operatorId: string;
  readonly email: string;
  readonly role: OperatorRole;
  readonly via: 'token' | 'session';
  /** The token's or the session's id. */
  readonly credentialId: string;
  /** When this token or session last showed a second factor (step-up), or null. */
  readonly secondFactorAt: Date | null;
}

/** ADMIN_TOKEN on the route that creates the first ADMIN, while none exists. */
export interface BootstrapPrincipal {
  readonly kind: 'bootstrap';
}

export type OperatorCaller = OperatorPrincipal | BootstrapPrincipal;

export type AuthenticatedRequest = FastifyRequest & {
  user: Principal;
  /** Set on operator routes (@RequireRole). */
  operator?: OperatorCaller;
  rawBody?: Buffer;
};
