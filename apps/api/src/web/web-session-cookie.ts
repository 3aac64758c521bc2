// The cookie that carries a web area's session (docs/decisions.md, "Web pages: security headers and CSRF"):
// HttpOnly, SameSite=Strict, scoped to the area's path, expiring with the session, and Secure unless the page
// is served to the machine itself (a browser keeps no Secure cookie from plain http://, which `npm start` and
// the tests serve on loopback). Read and written with the `cookie` package, as the console's cookie is: no
// Fastify cookie plugin, whose two hooks ran on every request of the api for the dashboard's one cookie (for
// the bearer echo target: docs/decisions.md, "Request path: no hook for occasional work").
import { randomBytes } from 'node:crypto';

import { parseCookie, stringifySetCookie } from 'cookie';
import type { FastifyRequest } from 'fastify';

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** A session's or a link's token: 256 random bits, base64url. Stored only as its SHA-256. */
export function newWebToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Whether the request was addressed to this machine (by name or loopback address). */
export function isLoopbackRequest(request: FastifyRequest): boolean {
  const host = request.hostname.replace(/:\d+$/, '').toLowerCase();
  return LOOPBACK_HOSTS.has(host) || host.endsWith('.localhost');
}

/** The value of the request's cookie `name`, if it sent one. */
export function readCookie(request: FastifyRequest, name: string): string | undefined {
  const header = request.headers.cookie;
  return header ? parseCookie(header)[name] : undefined;
}

/** The Set-Cookie header of a session cookie `name` holding `token` on `path` until `expires`. */
export function sessionSetCookie(
  request: FastifyRequest,
  name: string,
  token: string,
  path: string,
  expires: Date,
): string {
  return stringifySetCookie({ name, value: token, ...cookieAttributes(request, path), expires });
}

/** The Set-Cookie header that removes the session cookie `name` (same path and flags, expired now). */
export function clearedSetCookie(request: FastifyRequest, name: string, path: string): string {
  return stringifySetCookie({
    name,
    value: '',
    ...cookieAttributes(request, path),
    expires: new Date(0),
    maxAge: 0,
  });
}

function cookieAttributes(request: FastifyRequest, path: string) {
  return { path, httpOnly: true, sameSite: 'strict', secure: !isLoopbackRequest(request) } as const;
}
