// Idempotency-Key in the request pipeline (docs/decisions.md, "Requests: Idempotency-Key"): a global guard
// after the one guard (auth/route-auth.guard.ts), so the organisation is known and a request that fails
// authentication never touches a key. On an organisation's POST, PUT, PATCH or DELETE with the header it
// claims the key before the handler runs, or answers from it (idempotency.service.ts); the answer is kept by
// the hook in answer-hook.ts. A route without the header pays one header lookup.
import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';

import type { AuthenticatedRequest, Principal } from '../auth/principal.js';
import { routeRuleOf } from '../auth/route-rule.js';
import { setClaim } from './claimed-request.js';
import { IdempotencyService } from './idempotency.service.js';
import { fingerprintOf, IDEMPOTENCY_HEADER, KEYED_METHODS, readIdempotencyKey } from './idempotency-rules.js';

@Injectable()
export class IdempotencyGuard implements CanActivate {
  /** Whether each handler is an organisation's route, read once rather than on every request. */
  private readonly organisationRoutes = new WeakMap<object, boolean>();

  constructor(private readonly idempotency: IdempotencyService) {}

  canActivate(context: ExecutionContext): true | Promise<true> {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const header = request.headers[IDEMPOTENCY_HEADER];
    if (header === undefined || !KEYED_METHODS.has(request.method)) return true;
    // Operators' routes and public ones ignore the header, as a server that does not offer it would.
    if (!this.isOrganisationRoute(context)) return true;
    const key = readIdempotencyKey(header);
    return key === undefined ? true : this.claim(request, key);
  }

  private async claim(request: AuthenticatedRequest, key: string): Promise<true> {
    const caller = request.user as Principal | undefined;
    if (!caller) throw new Error('the idempotency guard ran before the authentication guard');
    const fingerprint = fingerprintOf(request.method, request.url, request.rawBody);
    setClaim(request, await this.idempotency.begin(caller.orgId, key, fingerprint));
    return true;
  }

  private isOrganisationRoute(context: ExecutionContext): boolean {
    const handler = context.getHandler();
    let organisation = this.organisationRoutes.get(handler);
    if (organisation === undefined) {
      organisation = routeRuleOf(handler, context.getClass()).kind === 'organisation';
      this.organisationRoutes.set(handler, organisation);
    }
    return organisation;
  }
}
