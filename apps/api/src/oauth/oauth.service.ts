// Client-credentials tokens (docs/api-guide.md#oauth-client-credentials, docs/decisions.md, "Authentication:
// OAuth tokens").
import { Inject, Injectable } from '@nestjs/common';
import { grantsScopes, oauthTokenData, parseScopes, ScopeError, type OAuthTokenData } from '@svc/protocol';

import { AppError, badRequest, rateLimited } from '../common/errors.js';
import { RateLimiter } from '../common/rate-limiter.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { CredentialsRepository } from '../credentials/credentials.repository.js';
import { hashSecret, newCredential, sha256Hex, verifySecret } from '../credentials/secrets.js';

/** The one refusal for bad credentials or scopes (docs/api-guide.md#oauth-client-credentials): it says nothing of which it was. */
const tokenRefused = () => new AppError('token_refused');

export interface ClientCredentials {
  readonly clientId: string;
  readonly clientSecret: string;
}

@Injectable()
export class OAuthService {
  private readonly perAddress: RateLimiter;
  private readonly perClient: RateLimiter;
  /** Checked against when the client is unknown, so both answers take as long. */
  private readonly decoyHash: Promise<string>;

  constructor(
    private readonly repository: CredentialsRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.perAddress = new RateLimiter(config.tokenRateLimitPerMinute, 60_000);
    this.perClient = new RateLimiter(config.tokenRateLimitPerMinute, 60_000);
    this.decoyHash = hashSecret(newCredential('decoy'));
  }

  async issue(credentials: ClientCredentials, scopeText: string, address: string): Promise<OAuthTokenData> {
    let requested;
    try {
      requested = parseScopes(scopeText);
    } catch (error) {
      if (error instanceof ScopeError) throw badRequest(`scope: ${error.message}`);
      throw error;
    }
    if (requested.length === 0) throw badRequest('scope must name at least one MODULE:PERMISSION');
    this.throttle(this.perAddress, address);
    this.throttle(this.perClient, credentials.clientId);

    const client = await this.repository.findLiveClient(credentials.clientId);
    const secretOk = await verifySecret(
      credentials.clientSecret,
      client?.secretHash ?? (await this.decoyHash),
    );
    if (!client || !secretOk) throw tokenRefused();
    if (!grantsScopes(parseScopes(client.scopes.join(' ')), requested)) throw tokenRefused();

    const token = newCredential('at');
    const ttl = this.config.tokenTtlSeconds;
    await this.repository.insertToken({
      tokenHash: sha256Hex(token),
      clientId: client.id,
      orgId: client.orgId,
      scopes: requested,
      expiresAt: new Date(Date.now() + ttl * 1000),
    });
    return oauthTokenData(token, ttl, requested);
  }

  private throttle(limiter: RateLimiter, key: string): void {
    const wait = limiter.hit(key);
    if (wait > 0) {
      throw rateLimited(wait);
    }
  }
}
