// The console session cookie (docs/operators.md#sign-in): HttpOnly, SameSite=Strict, Path=/, Secure except
// when the request came to localhost over plain HTTP, and a CSRF token derived from its value that requests
// other than GET and HEAD must echo in X-CSRF-Token.
import { createHash } from 'node:crypto';

import { parseCookie, stringifySetCookie } from 'cookie';
import type { FastifyRequest } from 'fastify';

import { constantTimeEqual } from '../credentials/secrets.js';

export const SESSION_COOKIE = 'svc_operator_session';
export const CSRF_HEADER = 'x-csrf-token';
const SAFE_METHODS = new Set(['GET', 'HEAD']);
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** The session token the request's cookie carries, if any. */
export function readSessionCookie(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const value = parseCookie(header)[SESSION_COOKIE];
  return value && /^ses_[A-Za-z0-9_-]{43}$/.test(value) ? value : undefined;
}

/** Whether the cookie may go without Secure: a request to this machine's loopback name (development). */
function onLoopback(request: FastifyRequest): boolean {
  return LOOPBACK.has(request.hostname.replace(/:\d+$/, '').toLowerCase()) && request.protocol === 'http';
}

/** The Set-Cookie header that starts a session holding `token` for `maxAgeSeconds`. */
export function sessionSetCookie(request: FastifyRequest, token: string, maxAgeSeconds: number): string {
  return stringifySetCookie({
    name: SESSION_COOKIE,
    value: token,
    path: '/',
    httpOnly: true,
    sameSite: 'strict',
    secure: !onLoopback(request),
    maxAge: maxAgeSeconds,
  });
}

/** The Set-Cookie header that ends the session in the browser. */
export function clearSessionCookie(request: FastifyRequest): string {
  return stringifySetCookie({
    name: SESSION_COOKIE,
    value: '',
    path: '/',
    httpOnly: true,
    sameSite: 'strict',
    secure: !onLoopback(request),
    maxAge: 0,
  });
}

/** The CSRF token of a session: one-way from its cookie, so it can be put in a page without storing it. */
export function csrfTokenOf(sessionToken: string): string {
  return createHash('sha256').update(`csrf:${sessionToken}`).digest('base64url');
}

/** Whether a cookie-authenticated request may go on: a safe method, or the session's CSRF token echoed. */
export function csrfHolds(request: FastifyRequest, sessionToken: string): boolean {
  if (SAFE_METHODS.has(request.method)) return true;
  const sent = request.headers[CSRF_HEADER];
  return typeof sent === 'string' && constantTimeEqual(sent, csrfTokenOf(sessionToken));
}
