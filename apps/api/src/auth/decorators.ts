// How a route declares who may call it, once: each decorator sets the plain data the one guard reads
// (auth/route-rule.ts makes it the route's rule) and the security requirement OpenAPI shows for the route
// (docs/decisions.md, "Authentication: one way in").
import { applyDecorators, createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiExtension, ApiSecurity, DECORATORS } from '@nestjs/swagger';
import type { Scope } from '@svc/protocol';

import type { DashboardPageName, DashboardPermission } from './dashboard-permissions.js';
import type { AuthenticatedRequest, OperatorCaller, OperatorPrincipal, Principal } from './principal.js';
import type { OperatorRole } from './roles.js';

/** The OpenAPI security schemes (defined in openapi/openapi.ts). */
export const SECURITY_SCHEMES = {
  apiKey: 'apiKey',
  timestamp: 'apiTimestamp',
  signature: 'apiSignature',
  bearer: 'bearer',
  /** ADMIN_TOKEN: only on the route that creates the first ADMIN. */
  admin: 'adminToken',
  operatorToken: 'operatorToken',
  operatorSession: 'operatorSession',
  clientBasic: 'clientBasic',
} as const;

/** What an operator route asks of its caller (docs/operators.md#roles). */
export interface OperatorRule {
  /** The least role it needs (auth/roles.ts). */
  readonly role: OperatorRole;
  /** A second factor shown within OPERATOR_STEP_UP_MINUTES (sensitive actions). */
  readonly stepUp: boolean;
  /** ADMIN_TOKEN is taken too, while no ADMIN exists (the create-operator route only). */
  readonly bootstrap: boolean;
}

/** The OpenAPI extensions an operator route carries: its role and whether it needs step-up. */
export const OPERATOR_EXTENSIONS = { role: 'x-operator-role', stepUp: 'x-step-up' } as const;

type SecurityRequirement = Record<string, string[]>;

/**
 * An organisation's credentials: the three API key headers together, or a bearer token holding `scope`
 * (OpenAPI 3.1 lets a bearer requirement list it). What the guard asks of a route that declares nothing.
 */
export function orgSecurity(scope?: Scope): SecurityRequirement[] {
  return [
    { [SECURITY_SCHEMES.apiKey]: [], [SECURITY_SCHEMES.timestamp]: [], [SECURITY_SCHEMES.signature]: [] },
    { [SECURITY_SCHEMES.bearer]: scope ? [scope] : [] },
  ];
}

/** What the guard reads (through auth/route-rule.ts). Routes declare it with the decorators below. */
/** What marks a controller as one of a web area's (`@WebPages()`, web/web-pages.decorator.ts). */
export const WEB_PAGES_METADATA = 'svc:web-pages';

export const AUTH_METADATA = {
  public: Reflector.createDecorator<true>({ transform: () => true }),
  scope: Reflector.createDecorator<Scope>(),
  operator: Reflector.createDecorator<OperatorRule>(),
  dashboardRead: Reflector.createDecorator<DashboardPageName>(),
  dashboardWrite: Reflector.createDecorator<DashboardPermission | 'SESSION'>(),
} as const;

/** No credentials needed (health, metrics, the token endpoint). On a controller or a route. */
export const Public = () => applyDecorators(AUTH_METADATA.public(), ApiNoSecurity());

/**
 * The token endpoint: no credentials of an organisation, but an OAuth client's, as HTTP Basic or as
 * client_id and client_secret in the form (OpenAPI's empty requirement).
 */
export const OAuthClientAuth = () =>
  applyDecorators(AUTH_METADATA.public(), ApiOperationSecurity([{ [SECURITY_SCHEMES.clientBasic]: [] }, {}]));

/** The permission a bearer token needs, e.g. @RequireScope('MANAGE_USERS:WRITE'); an API key has all. */
export const RequireScope = (scope: Scope) =>
  applyDecorators(
    AUTH_METADATA.scope(scope),
    ...orgSecurity(scope).map((requirement) => ApiSecurity(requirement)),
  );

/**
 * An operator route, with the least role it needs, e.g. @RequireRole('TRADING_OPS'); `stepUp` for sensitive
 * actions. Operators authenticate with a personal token or a console session, never an organisation's
 * credentials; a console page (@WebPages) takes the session only, with its form's CSRF token and, for
 * `stepUp`, a fresh code in its form.
 */
export const RequireRole = (role: OperatorRole, options: { stepUp?: boolean; bootstrap?: boolean } = {}) => {
  const rule: OperatorRule = { role, stepUp: options.stepUp ?? false, bootstrap: options.bootstrap ?? false };
  return applyDecorators(
    AUTH_METADATA.operator(rule),
    ...operatorSecurity(rule).map((requirement) => ApiSecurity(requirement)),
    ApiExtension(OPERATOR_EXTENSIONS.role, role),
    ApiExtension(OPERATOR_EXTENSIONS.stepUp, rule.stepUp),
  );
};

/**
 * A dashboard page, or a page its route belongs to (its forms render it or return to it), usually on the
 * controller: a dashboard session holding that page may open it, whatever the method.
 */
export const DashboardRead = (page: DashboardPageName) => AUTH_METADATA.dashboardRead(page);

/**
 * What a dashboard write (any method but GET and HEAD) needs besides the form's CSRF token: a permission the
 * session holds, or `'SESSION'` for what any session may do (sign out, the one write that may name no page).
 */
export const DashboardWrite = (permission: DashboardPermission | 'SESSION') =>
  AUTH_METADATA.dashboardWrite(permission);

/** An operator route's security: a personal token or a session; ADMIN_TOKEN too on the bootstrap route. */
export function operatorSecurity(rule: Pick<OperatorRule, 'bootstrap'>): SecurityRequirement[] {
  return [
    { [SECURITY_SCHEMES.operatorToken]: [] },
    { [SECURITY_SCHEMES.operatorSession]: [] },
    ...(rule.bootstrap ? [{ [SECURITY_SCHEMES.admin]: [] }] : []),
  ];
}

/** Who is calling an operator route, ADMIN_TOKEN's bootstrap included (the create-operator route). */
export const CurrentCaller = createParamDecorator(
  (_data: unknown, context: ExecutionContext): OperatorCaller => {
    const caller = context.switchToHttp().getRequest<AuthenticatedRequest>().operator;
    if (!caller) throw new Error('@CurrentCaller() on a route without @RequireRole()');
    return caller;
  },
);

/** The operator calling an operator route (the guard lets ADMIN_TOKEN through on the bootstrap route only). */
export const CurrentOperator = createParamDecorator(
  (_data: unknown, context: ExecutionContext): OperatorPrincipal => {
    const caller = context.switchToHttp().getRequest<AuthenticatedRequest>().operator;
    if (caller?.kind !== 'operator') throw new Error('@CurrentOperator() on a route without @RequireRole()');
    return caller;
  },
);

/** The authenticated organisation caller. */
export const Caller = createParamDecorator(
  (_data: unknown, context: ExecutionContext): Principal =>
    context.switchToHttp().getRequest<AuthenticatedRequest>().user,
);

/**
 * `security: []` in OpenAPI, overriding the document's default (organisation credentials). @nestjs/swagger
 * drops an empty @ApiSecurity list on a route, so it goes into the operation itself; on a controller it is
 * the controller's list.
 */
function ApiNoSecurity(): ClassDecorator & MethodDecorator {
  return ApiOperationSecurity([]);
}

/** An operation's own security list, which @nestjs/swagger's @ApiSecurity cannot make empty or optional. */
function ApiOperationSecurity(security: SecurityRequirement[]): ClassDecorator & MethodDecorator {
  return (target: object, _key?: string | symbol, descriptor?: PropertyDescriptor): void => {
    if (descriptor) {
      const method = descriptor.value as object;
      const operation = Reflect.getMetadata(DECORATORS.API_OPERATION, method) as object | undefined;
      Reflect.defineMetadata(DECORATORS.API_OPERATION, { ...operation, security }, method);
    } else {
      Reflect.defineMetadata(DECORATORS.API_SECURITY, security, target);
    }
  };
}
