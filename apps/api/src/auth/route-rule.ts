// Who may call a route, as plain data: what its decorators (auth/decorators.ts) declared on the handler and
// its controller, read in this one place. The one guard hands it to the authentication service
// (docs/decisions.md, "Authentication: one way in"); the operations test checks OpenAPI against it.
import { type ReflectableDecorator, Reflector } from '@nestjs/core';
import type { Scope } from '@svc/protocol';

import type { DashboardPageName, DashboardPermission } from './dashboard-permissions.js';
import {
  AUTH_METADATA,
  type OperatorRule,
  operatorSecurity,
  orgSecurity,
  WEB_PAGES_METADATA,
} from './decorators.js';

export type RouteRule =
  /** @Public(): no credentials. */
  | { readonly kind: 'public' }
  /** The default of an api route: an organisation's API key signature, or a bearer token with `scope`. */
  | { readonly kind: 'organisation'; readonly scope: Scope | undefined }
  /** @RequireRole on an api route: a personal token or a console session with its X-CSRF-Token. */
  | { readonly kind: 'operator'; readonly operator: OperatorRule }
  /** @RequireRole on a console page: a console session, its form's CSRF token and step-up code. */
  | { readonly kind: 'console'; readonly operator: OperatorRule }
  /** @DashboardRead / @DashboardWrite on a dashboard page: a dashboard session holding them. */
  | {
      readonly kind: 'dashboard';
      readonly page: DashboardPageName | undefined;
      readonly write: DashboardPermission | 'SESSION' | undefined;
    }
  /** A page (@WebPages) that declares none of these: refused, so none is added without saying who may open it. */
  | { readonly kind: 'undeclared' };

const reflector = new Reflector();

/**
 * The rule of `handler` on `controller`. What the handler declares overrides the controller's; only a
 * dashboard page's page and permission combine (the page on the controller, the permission on the form's
 * route). @Public() on a controller yields to a rule one of its routes declares.
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- what Nest's Reflector takes
export function routeRuleOf(handler: Function, controller: Function): RouteRule {
  const declared = <T>(decorator: ReflectableDecorator<T>): T | undefined =>
    reflector.getAllAndOverride(decorator, [handler, controller]);
  if (isPublic(handler)) return { kind: 'public' };

  const operator = declared(AUTH_METADATA.operator);
  const page = declared(AUTH_METADATA.dashboardRead);
  const write = declared(AUTH_METADATA.dashboardWrite);
  const scope = declared(AUTH_METADATA.scope);
  const isPage = Reflect.getMetadata(WEB_PAGES_METADATA, controller) === true;

  if (page !== undefined || write !== undefined) return { kind: 'dashboard', page, write };
  if (operator) return { kind: isPage ? 'console' : 'operator', operator };
  if (isPublic(controller)) return { kind: 'public' };
  if (isPage) return { kind: 'undeclared' };
  return { kind: 'organisation', scope };
}

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- what Nest's Reflector takes
function isPublic(target: Function): boolean {
  const declared = reflector.get(AUTH_METADATA.public, target) as true | undefined;
  return declared !== undefined;
}

/** The OpenAPI security requirement of an api route's rule (what its decorators put in the document). */
export function securityOf(rule: RouteRule): Record<string, string[]>[] | undefined {
  switch (rule.kind) {
    case 'public':
      return [];
    case 'organisation':
      return orgSecurity(rule.scope);
    case 'operator':
      return operatorSecurity(rule.operator);
    default:
      return undefined;
  }
}
