// The one scheme against cross-site request forgery for every cookie session, the dashboard's and the
// console's (which the admin api takes too): synchroniser tokens tied to the session (docs/decisions.md,
// "Web pages: one session cookie and one CSRF scheme"). Each session's secret is derived from the master key
// and the session's id, so nothing more is stored; @fastify/csrf salts every token and binds it to the
// session id, and verifies in constant time. A page's form sends it in its `_csrf` field, a script calling
// the api in the X-CSRF-Token header. SameSite=Strict cookies are a second line, not the only one.
import { createHmac } from 'node:crypto';

import Tokens from '@fastify/csrf';
import { Inject, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';

import { APP_CONFIG, type AppConfig } from '../config/config.js';

/** The form field every write carries. */
export const CSRF_FIELD = '_csrf';
/** The header a request to the api sends it in. */
export const CSRF_HEADER = 'x-csrf-token';

const SAFE_METHODS = new Set(['GET', 'HEAD']);

/** Whether the request's method changes nothing, so needs no token. */
export function isSafeMethod(request: FastifyRequest): boolean {
  return SAFE_METHODS.has(request.method);
}

@Injectable()
export class CsrfTokens {
  private readonly tokens = new Tokens({ userInfo: true, saltLength: 16 });

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  /** A fresh token for the forms of the page that `sessionId` is shown. */
  create(sessionId: string): string {
    return this.tokens.create(this.secret(sessionId), sessionId);
  }

  verify(sessionId: string, token: unknown): boolean {
    if (typeof token !== 'string' || token.length === 0 || token.length > 200) return false;
    return this.tokens.verify(this.secret(sessionId), token, sessionId);
  }

  /** Whether `request` may go on: a safe method, or the session's token in the header or the form's field. */
  holds(request: FastifyRequest, sessionId: string): boolean {
    if (isSafeMethod(request)) return true;
    const header = request.headers[CSRF_HEADER];
    const field = (request.body as Record<string, unknown> | null | undefined)?.[CSRF_FIELD];
    return this.verify(sessionId, header ?? field);
  }

  private secret(sessionId: string): string {
    return createHmac('sha256', this.config.masterKey).update(`csrf:${sessionId}`).digest('base64url');
  }
}
