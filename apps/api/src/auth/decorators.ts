// How a route declares its access, once: each decorator sets what the guard reads and the security
// requirement OpenAPI shows for the route.
import { applyDecorators, createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiSecurity, DECORATORS } from '@nestjs/swagger';
import type { Scope } from '@svc/protocol';

import type { AuthenticatedRequest, Principal } from './principal.js';

/** The OpenAPI security schemes (defined in openapi/openapi.ts). */
export const SECURITY_SCHEMES = {
  apiKey: 'apiKey',
  timestamp: 'apiTimestamp',
  signature: 'apiSignature',
  bearer: 'bearer',
  admin: 'adminToken',
  clientBasic: 'clientBasic',
} as const;

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

/** What the guard reads. Routes declare it through the decorators below, never directly. */
export const AUTH_METADATA = {
  public: Reflector.createDecorator<true>({ transform: () => true }),
  scope: Reflector.createDecorator<Scope>(),
  admin: Reflector.createDecorator<true>({ transform: () => true }),
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

/** The operator surface: the admin token, not an organisation's credentials. */
export const AdminOnly = () => applyDecorators(AUTH_METADATA.admin(), ApiSecurity(SECURITY_SCHEMES.admin));

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
