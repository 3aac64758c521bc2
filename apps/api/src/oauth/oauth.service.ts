// Client-credentials tokens (docs/api-guide.md#oauth-client-credentials, docs/decisions.md, "Authentication:
// OAuth tokens").
import { Inject, Injectable } from '@nestjs/common';
import { grantsScopes, oauthTokenData, parseScopes, ScopeError, type OAuthTokenData } from '@svc/protocol';

import { AppError, badRequest, rateLimited } from '../common/errors.js';
import { throttleSource } from '../common/throttle-source.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { CredentialsRepository } from '../credentials/credentials.repository.js';
import { AttemptCountersRepository } from '../database/attempt-counters.repository.js';
import { hashSecret, newCredential, sha256Hex, verifySecret } from '../credentials/secrets.js';

/** The one refusal for bad credentials or scopes (docs/api-guide.md#oauth-client-credentials): it says nothing of which it was. */
const tokenRefused = () => new AppError('token_refused');

export interface ClientCredentials {
  readonly clientId: string;
  readonly clientSecret: string;
}

@Injectable()
export class OAuthService {
  /** Checked against when the client is unknown, so both answers take as long. */
  private readonly decoyHash: Promise<string>;

  constructor(
    private readonly repository: CredentialsRepository,
    private readonly counters: AttemptCountersRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
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
    await this.throttle(address);

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

  /**
   * Takes one of the address's attempts of the minute, before the secret is hashed, or throws the 429. Per
   * address only: every (client id, address) pair is within it, and a count per client id across addresses
   * would let anyone who knows the id (the dashboard shows it) refuse its owner (docs/decisions.md,
   * "Authentication: throttles").
   */
  private async throttle(address: string): Promise<void> {
    const key = `token-address:${throttleSource(address)}`;
    const attempt = await this.counters.take(key, this.config.tokenRateLimitPerMinute, 60_000);
    if (!attempt.taken) throw rateLimited(attempt.retryAfterSeconds);
  }
}
