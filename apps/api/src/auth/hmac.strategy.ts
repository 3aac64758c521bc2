// API key + signature (docs/api-guide.md#api-key-signing): the protocol package checks the signature over the
// raw body; here we find the key's secret and refuse replays.
import { Inject, Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { ALL_SCOPES, readRequestAuthHeaders, splitRequestTarget, verifyRequest } from '@svc/protocol';
import { Strategy } from 'passport-custom';

import { badRequest, unauthenticated } from '../common/errors.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { CredentialsService } from '../credentials/credentials.service.js';
import type { AuthenticatedRequest, Principal } from './principal.js';

export const HMAC_STRATEGY = 'hmac';

@Injectable()
export class HmacStrategy extends PassportStrategy(Strategy, HMAC_STRATEGY) {
  constructor(
    private readonly credentials: CredentialsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    super();
  }

  async validate(request: AuthenticatedRequest): Promise<Principal> {
    const headers = readRequestAuthHeaders(request.headers);
    if (!headers.ok) throw unauthenticated(headers.message);
    const key = await this.credentials.findApiKey(headers.apiKey);
    if (!key) throw unauthenticated('unknown or revoked X-API-KEY');

    const { path, query } = splitRequestTarget(request.url);
    const body = request.rawBody?.toString('utf8') ?? '';
    const result = verifyRequest(
      { path, query, body, timestamp: headers.timestamp, signature: headers.signature },
      key.secret,
      this.config.signatureWindow,
    );
    if (!result.ok) {
      if (result.reason === 'invalid_body') throw badRequest(result.message);
      throw unauthenticated(result.message);
    }
    if (!(await this.credentials.claimSignature(key.id, headers.signature, result.timestamp))) {
      throw unauthenticated('this signature was already used: sign each request afresh');
    }
    await this.credentials.touch('apiKey', key.id);
    return { orgId: key.orgId, method: 'hmac', scopes: ALL_SCOPES, credentialId: key.id };
  }
}
