// The one global guard: every route needs an organisation's credentials (a bearer token or an API key
// signature, docs/decisions.md, "Authentication: either method on every organisation route") unless it is
// @Public() or an operator route (@RequireRole, whose caller OperatorAuthService establishes); a bearer token
// must also carry the route's @RequireScope().
import { type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import { grantsScope, type Scope } from '@svc/protocol';

import { AppError, InsufficientScopeError, unauthenticated } from '../common/errors.js';
import { routeMetadata } from '../common/route-metadata.js';
import { BEARER_STRATEGY } from './bearer.strategy.js';
import { AUTH_METADATA, type OperatorRule } from './decorators.js';
import { HMAC_STRATEGY } from './hmac.strategy.js';
import type { AuthenticatedRequest, Principal } from './principal.js';
import { MetricsService } from '../metrics/metrics.service.js';
import { OperatorAuthService } from '../operators/operator-auth.service.js';

interface RouteRules {
  readonly public: boolean;
  readonly operator: OperatorRule | undefined;
  readonly scope: Scope | undefined;
}

@Injectable()
export class OrgAuthGuard extends AuthGuard([BEARER_STRATEGY, HMAC_STRATEGY]) {
  /** The same two strategies, the signature's first: for a request the bearer one would decline. */
  private readonly signatureFirst = new SignatureFirstGuard(this);

  constructor(
    private readonly reflector: Reflector,
    private readonly operators: OperatorAuthService,
    private readonly metrics: MetricsService,
  ) {
    super();
  }

  /**
   * What each route declared, read once per handler rather than three lookups per request (for the bearer
   * echo target: docs/decisions.md, "Request path: the signature strategy first").
   */
  private readonly rules = new WeakMap<object, RouteRules>();

  private rulesOf(context: ExecutionContext): RouteRules {
    const handler = context.getHandler();
    let rules = this.rules.get(handler);
    if (!rules) {
      rules = {
        public: routeMetadata(this.reflector, AUTH_METADATA.public, context) === true,
        operator: routeMetadata(this.reflector, AUTH_METADATA.operator, context),
        scope: routeMetadata(this.reflector, AUTH_METADATA.scope, context),
      };
      this.rules.set(handler, rules);
    }
    return rules;
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const rules = this.rulesOf(context);
    if (rules.public) return true;
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const operatorRule = rules.operator;
    if (operatorRule) {
      try {
        request.operator = await this.operators.authenticate(request, operatorRule);
      } catch (error) {
        this.metrics.authFailed(
          error instanceof AppError && error.status === 403 ? 'operator_forbidden' : 'operator_refused',
        );
        throw error;
      }
      return true;
    }

    if (carriesNoBearerToken(request)) await this.signatureFirst.canActivate(context);
    else await super.canActivate(context);
    const required = rules.scope;
    if (required && request.user.method === 'bearer' && !grantsScope(request.user.scopes, required)) {
      this.metrics.authFailed('insufficient_scope');
      throw new InsufficientScopeError(required);
    }
    return true;
  }

  override handleRequest<T = Principal>(error: unknown, user: T | false): T {
    if (error) throw error as Error;
    // Both strategies declined without an error: no credentials at all.
    if (!user) {
      this.metrics.authFailed('missing_credentials');
      throw unauthenticated('send X-API-KEY, X-TIMESTAMP and X-SIGNATURE, or Authorization: Bearer <token>', {
        'www-authenticate': 'Bearer',
      });
    }
    return user;
  }
}

/**
 * Whether passport-http-bearer would decline the request at once (no Authorization header, no
 * access_token in the body or the query, as it looks for them): it then fails without an error whatever
 * the order, so trying the signature strategy first answers alike and spares the bearer attempt on every
 * signed request.
 */
function carriesNoBearerToken(request: AuthenticatedRequest): boolean {
  const body = request.body as { access_token?: unknown } | null | undefined;
  const query = request.query as { access_token?: unknown } | null | undefined;
  return !request.headers.authorization && !body?.access_token && !query?.access_token;
}

/** OrgAuthGuard's passport step with the strategies the other way round; its outcome is OrgAuthGuard's. */
class SignatureFirstGuard extends AuthGuard([HMAC_STRATEGY, BEARER_STRATEGY]) {
  constructor(private readonly owner: OrgAuthGuard) {
    super();
  }

  override handleRequest<T = Principal>(error: unknown, user: T | false): T {
    return this.owner.handleRequest(error, user);
  }
}
