// How a route declares its access, once, where OpenAPI can read it too.
import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Scope } from '@svc/protocol';

import type { AuthenticatedRequest, Principal } from './principal.js';

/** No credentials needed (health, the token endpoint). */
export const Public = Reflector.createDecorator<true>({ transform: () => true });

/** The permission a bearer token needs, e.g. @RequireScope('MANAGE_USERS:WRITE'). */
export const RequireScope = Reflector.createDecorator<Scope>();

/** The operator surface: the admin token, not an organisation's credentials. */
export const AdminOnly = Reflector.createDecorator<true>({ transform: () => true });

/** The authenticated organisation caller. */
export const Caller = createParamDecorator(
  (_data: unknown, context: ExecutionContext): Principal =>
    context.switchToHttp().getRequest<AuthenticatedRequest>().user,
);
