// Who acted, for the audit log: a label the caller may send in X-Admin-Actor (the admin token itself is
// shared, so this attributes an action; it does not authenticate anyone). Default 'admin'.
import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';

import { badRequest } from '../common/errors.js';

export const DEFAULT_ACTOR = 'admin';
export const ACTOR_HEADER = 'x-admin-actor';
const ACTOR = /^[A-Za-z0-9 ._:@+/-]{1,64}$/;

export function parseActor(header: string | string[] | undefined): string {
  if (header === undefined) return DEFAULT_ACTOR;
  if (typeof header !== 'string' || !ACTOR.test(header)) {
    throw badRequest(
      'X-Admin-Actor must be sent once, 1 to 64 characters among letters, digits, space and . _ : @ + / -',
    );
  }
  return header;
}

/** The X-Admin-Actor label of an admin request, or 'admin'. */
export const AdminActor = createParamDecorator((_data: unknown, context: ExecutionContext): string =>
  parseActor(context.switchToHttp().getRequest<FastifyRequest>().headers[ACTOR_HEADER]),
);
