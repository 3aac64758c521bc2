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
}

export type AuthenticatedRequest = FastifyRequest & { user: Principal; rawBody?: Buffer };
