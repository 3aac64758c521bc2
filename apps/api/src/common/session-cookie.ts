// The cookie that carries a browser session, the console's (also the admin api's) and the dashboard's alike
// (docs/decisions.md, "Web pages: one session cookie and one CSRF scheme"): HttpOnly, SameSite=Strict, scoped
// to its area's path, ending with the session, and Secure unless the request came to this machine over plain
// http (a browser keeps no Secure cookie from http://, which `npm start` and the tests serve on loopback).
// Read and written with the `cookie` package: no Fastify cookie plugin, whose two hooks would run on every
// request of the api for these occasional cookies (for the bearer echo target: docs/decisions.md, "Request
// path: no hook for occasional work").
import { randomBytes } from 'node:crypto';

import { parseCookie, stringifySetCookie } from 'cookie';
import type { FastifyRequest } from 'fastify';

/** A session cookie: its name, the path it is sent to, and what its token looks like. */
export interface SessionCookie {
  readonly name: string;
  readonly path: string;
  /** A value of another shape is ignored, as if no cookie came. */
  readonly token: RegExp;
}

/** The console's session, which the admin api takes too (docs/operators.md#sign-in). */
export const CONSOLE_COOKIE: SessionCookie = {
  name: 'svc_operator_session',
  path: '/',
  token: /^ses_[A-Za-z0-9_-]{43}$/,
};

/** The dashboard's session, sent only to its pages (docs/dashboard.md). */
export const DASHBOARD_COOKIE: SessionCookie = {
  name: 'svc_dashboard',
  path: '/dashboard',
  token: /^[A-Za-z0-9_-]{43}$/,
};

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** A session's or a link's token: 256 random bits, base64url. Stored only as its SHA-256. */
export function newWebToken(): string {
  return randomBytes(32).toString('base64url');
}

/** The session token the request's `cookie` carries, if any. */
export function readSessionCookie(request: FastifyRequest, cookie: SessionCookie): string | undefined {
  const header = request.headers.cookie;
  const value = header ? parseCookie(header)[cookie.name] : undefined;
  return value !== undefined && cookie.token.test(value) ? value : undefined;
}

/** The Set-Cookie header that starts a session holding `token` for `lifetimeSeconds`. */
export function sessionSetCookie(
  request: FastifyRequest,
  cookie: SessionCookie,
  token: string,
  lifetimeSeconds: number,
): string {
  const seconds = Math.max(0, Math.floor(lifetimeSeconds));
  return stringifySetCookie({
    name: cookie.name,
    value: token,
    maxAge: seconds,
    expires: new Date(Date.now() + seconds * 1000),
    ...attributes(request, cookie),
  });
}

/** The Set-Cookie header that ends the session in the browser (same path and flags, expired now). */
export function clearedSetCookie(request: FastifyRequest, cookie: SessionCookie): string {
  return stringifySetCookie({
    name: cookie.name,
    value: '',
    maxAge: 0,
    expires: new Date(0),
    ...attributes(request, cookie),
  });
}

/**
 * Whether the cookie may go without Secure: the request came over plain http to this machine by a loopback
 * name or address (`*.localhost` included, which resolves to it). Over https, or to any other host, it is
 * Secure.
 */
export function onPlainLoopback(request: FastifyRequest): boolean {
  if (request.protocol !== 'http') return false;
  const host = request.hostname.replace(/:\d+$/, '').toLowerCase();
  return LOOPBACK_HOSTS.has(host) || host.endsWith('.localhost');
}

function attributes(request: FastifyRequest, cookie: SessionCookie) {
  return {
    path: cookie.path,
    httpOnly: true,
    sameSite: 'strict',
    secure: !onPlainLoopback(request),
  } as const;
}
