// The cookie that carries a web area's session (docs/decisions.md, "Dashboard: the web stack"): HttpOnly,
// SameSite=Strict, scoped to the area's path, expiring with the session, and Secure unless the page is
// served to the machine itself (a browser keeps no Secure cookie from plain http://, which `npm start` and
// the tests serve on loopback).
import { randomBytes } from 'node:crypto';

import type { CookieSerializeOptions } from '@fastify/cookie';
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

export function sessionCookieOptions(
  request: FastifyRequest,
  path: string,
  expires: Date,
): CookieSerializeOptions {
  return { path, expires, httpOnly: true, sameSite: 'strict', secure: !isLoopbackRequest(request) };
}

/** The options that remove the cookie (same path and flags, expired). */
export function clearedCookieOptions(request: FastifyRequest, path: string): CookieSerializeOptions {
  return sessionCookieOptions(request, path, new Date(0));
}
