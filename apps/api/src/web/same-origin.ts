// Whether a form was sent from a page of this api: the browser's Origin header names our own origin. The
// sign-in form has no session yet, so no CSRF token; this keeps another site from signing a person in to
// an organisation of its choosing (login CSRF).
import type { FastifyRequest } from 'fastify';

import { requestOrigin } from '../common/request-origin.js';

export function isSameOrigin(request: FastifyRequest, publicUrl: string | null): boolean {
  const origin = request.headers.origin;
  if (typeof origin !== 'string') return false;
  return origin === requestOrigin(request) || (publicUrl !== null && origin === new URL(publicUrl).origin);
}
