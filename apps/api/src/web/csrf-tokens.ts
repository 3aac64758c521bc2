// Tokens against cross-site request forgery for every form of a web area (docs/decisions.md, "Web pages:
// security headers and CSRF"): synchroniser tokens tied to the session. Each session's secret is derived from
// the master key and the session's id, so nothing more is stored; @fastify/csrf salts every token and binds
// it to the session id, and verifies in constant time. SameSite=Strict cookies are a second line, not the
// only one.
import { createHmac } from 'node:crypto';

import Tokens from '@fastify/csrf';
import { Inject, Injectable } from '@nestjs/common';

import { APP_CONFIG, type AppConfig } from '../config/config.js';

/** The form field every write carries. */
export const CSRF_FIELD = '_csrf';

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

  private secret(sessionId: string): string {
    return createHmac('sha256', this.config.masterKey).update(`csrf:${sessionId}`).digest('base64url');
  }
}
