// OAuth 2.0 client credentials (docs/api-guide.md#oauth-client-credentials): one token at a time, shared by
// concurrent calls, fetched again shortly before it expires and once when the api answers 401 (revoked, or
// expired early).
import { formatScopes, parseOAuthTokenData, parseScopes, type Scope } from '@svc/protocol';

import type { Authenticator, Transport } from './transport.js';

export interface OAuthCredentials {
  readonly clientId: string;
  readonly clientSecret: string;
  /** The scopes to ask for: a subset of the client's grant. */
  readonly scopes: readonly Scope[] | string;
  /**
   * How long before its expiry a token is replaced. Default: 60 s, or half the token's lifetime when
   * that is shorter.
   */
  readonly tokenRefreshMarginMs?: number;
}

interface CachedToken {
  readonly accessToken: string;
  readonly refreshAt: number;
}

export class TokenAuthenticator implements Authenticator {
  private readonly scope: string;
  private current: CachedToken | undefined;
  private pending: Promise<CachedToken> | undefined;

  constructor(
    private readonly credentials: OAuthCredentials,
    private readonly transport: Transport,
    private readonly now: () => number,
  ) {
    // Checked here, so a misspelt scope fails at construction, naming it, not at the first call.
    this.scope = formatScopes(
      typeof credentials.scopes === 'string'
        ? parseScopes(credentials.scopes)
        : parseScopes(credentials.scopes.join(' ')),
    );
    if (this.scope === '') throw new TypeError('scopes must name at least one MODULE:PERMISSION scope');
  }

  async headers(): Promise<Record<string, string>> {
    const token = await this.token();
    return { authorization: `Bearer ${token.accessToken}` };
  }

  refreshAfterUnauthorized(headers: Record<string, string>): boolean {
    // Drop the token only if it is still the one that was refused: another call may have replaced it.
    if (this.current && headers.authorization === `Bearer ${this.current.accessToken}`)
      this.current = undefined;
    return true;
  }

  private token(): Promise<CachedToken> {
    if (this.current && this.now() < this.current.refreshAt) return Promise.resolve(this.current);
    this.pending ??= this.fetchToken().finally(() => (this.pending = undefined));
    return this.pending;
  }

  private async fetchToken(): Promise<CachedToken> {
    const fields = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: this.credentials.clientId,
      client_secret: this.credentials.clientSecret,
      scope: this.scope,
    });
    const requested = this.now();
    // Asking for a token changes nothing on the api, so it is retried like a read.
    const data = parseOAuthTokenData(
      await this.transport.request<unknown>({
        method: 'POST',
        path: '/api/v1/oauth/token',
        body: { kind: 'form', fields },
        idempotent: true,
        auth: 'none',
      }),
    );
    const lifetimeMs = data.expires_in * 1000;
    const margin = this.credentials.tokenRefreshMarginMs ?? Math.min(60_000, lifetimeMs / 2);
    // Counted from when it was asked for, so the time in flight is on the safe side.
    this.current = { accessToken: data.access_token, refreshAt: requested + lifetimeMs - margin };
    return this.current;
  }
}
