// OAuth 2.0 bearer tokens (docs/api-guide.md#oauth-client-credentials) issued by the token endpoint.
import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { Strategy } from 'passport-http-bearer';

import { unauthenticated } from '../common/errors.js';
import { CredentialsService } from '../credentials/credentials.service.js';
import { MetricsService } from '../metrics/metrics.service.js';
import type { Principal } from './principal.js';

export const BEARER_STRATEGY = 'bearer';

@Injectable()
export class BearerStrategy extends PassportStrategy(Strategy, BEARER_STRATEGY) {
  constructor(
    private readonly credentials: CredentialsService,
    private readonly metrics: MetricsService,
  ) {
    super();
  }

  async validate(token: string): Promise<Principal> {
    const live = await this.credentials.findToken(token);
    if (!live) {
      this.metrics.authFailed('invalid_token');
      throw unauthenticated('the access token is invalid, expired or revoked', {
        'www-authenticate': 'Bearer error="invalid_token"',
      });
    }
    await this.credentials.touch('client', live.clientId);
    return {
      orgId: live.orgId,
      method: 'bearer',
      scopes: live.scopes,
      credentialId: live.id,
      clientId: live.clientId,
    };
  }
}
