// The one guard, on every route through APP_GUARD: the route's rule, read once per handler from its
// decorators (route-rule.ts), and the request, to the authentication service, which lets the caller in or
// refuses them (docs/decisions.md, "Authentication: one way in").
import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';

import { AuthenticationService } from './authentication.service.js';
import { type RouteRule, routeRuleOf } from './route-rule.js';

@Injectable()
export class RouteAuthGuard implements CanActivate {
  /**
   * Each handler's rule, read once rather than on every request (for the bearer echo target:
   * docs/decisions.md, "Request path: the signature strategy first").
   */
  private readonly rules = new WeakMap<object, RouteRule>();

  constructor(private readonly authentication: AuthenticationService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const handler = context.getHandler();
    let rule = this.rules.get(handler);
    if (!rule) {
      rule = routeRuleOf(handler, context.getClass());
      this.rules.set(handler, rule);
    }
    await this.authentication.authenticate(context.switchToHttp().getRequest(), rule);
    return true;
  }
}
