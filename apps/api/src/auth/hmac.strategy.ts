// API key + signature (docs/api-guide.md#api-key-signing): the protocol package checks the signature over the
// body (as the JSON parser canonicalised it, or the raw body); here we find the key's secret and refuse replays.
import { Inject, Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import {
  ALL_SCOPES,
  readRequestAuthHeaders,
  splitRequestTarget,
  verifyCanonicalRequest,
  verifyRequest,
} from '@svc/protocol';
import { Strategy } from 'passport-custom';

import { badRequest, unauthenticated } from '../common/errors.js';
import { parsedCanonicalBody } from '../common/json-body.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { CredentialsService } from '../credentials/credentials.service.js';
import { type AuthFailureReason, MetricsService } from '../metrics/metrics.service.js';
import type { AuthenticatedRequest, Principal } from './principal.js';

export const HMAC_STRATEGY = 'hmac';

@Injectable()
export class HmacStrategy extends PassportStrategy(Strategy, HMAC_STRATEGY) {
  constructor(
    private readonly credentials: CredentialsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly metrics: MetricsService,
  ) {
    super();
  }

  async validate(request: AuthenticatedRequest): Promise<Principal> {
    const headers = readRequestAuthHeaders(request.headers);
    if (!headers.ok) {
      // Neither scheme's headers at all (the bearer strategy declined first): no credentials.
      const none = request.headers['x-api-key'] === undefined && request.headers.authorization === undefined;
      throw this.refuse(none ? 'missing_credentials' : 'missing_header', headers.message);
    }
    const key = await this.credentials.findApiKey(headers.apiKey);
    if (!key) throw this.refuse('unknown_api_key', 'unknown or revoked X-API-KEY');

    const { path, query } = splitRequestTarget(request.url);
    const { timestamp, signature } = headers;
    // A JSON body was canonicalised by the parser's check already: the same text, not made twice. One with a
    // number its signature would not cover goes through verifyRequest, which refuses it (a 400 naming it).
    const canonicalBody = parsedCanonicalBody(request);
    const result =
      canonicalBody === undefined
        ? verifyRequest(
            { path, query, body: request.rawBody?.toString('utf8') ?? '', timestamp, signature },
            key.secret,
            this.config.signatureWindow,
          )
        : verifyCanonicalRequest(
            { path, query, canonicalBody, timestamp, signature },
            key.secret,
            this.config.signatureWindow,
          );
    if (!result.ok) {
      if (result.reason === 'invalid_body') throw badRequest(result.message);
      throw this.refuse(result.reason, result.message);
    }
    if (!(await this.credentials.claimSignature(key.id, headers.signature, result.timestamp))) {
      throw this.refuse('replayed_signature', 'this signature was already used: sign each request afresh');
    }
    await this.credentials.touch('apiKey', key.id);
    return { orgId: key.orgId, method: 'hmac', scopes: ALL_SCOPES, credentialId: key.id, clientId: null };
  }

  /** The 401, counted by reason for /metrics. */
  private refuse(reason: AuthFailureReason, message: string) {
    this.metrics.authFailed(reason);
    return unauthenticated(message);
  }
}
