// The data of a successful token response (docs/api-guide.md#oauth-client-credentials): what the api returns
// and the SDK reads.
import { type Scope, ScopeError, formatScopes, parseScopes } from './scopes.js';
import { EventParseError, integerIn, object, oneOf, string } from './validate.js';

export interface OAuthTokenData {
  readonly access_token: string;
  /** Lifetime in seconds (RFC 6749 section 5.1; a token lives 3600 s by default). */
  readonly expires_in: number;
  readonly token_type: 'Bearer';
  /** Space-separated MODULE:PERMISSION values granted. */
  readonly scope: string;
}

export function oauthTokenData(
  accessToken: string,
  expiresInSeconds: number,
  scopes: Iterable<Scope>,
): OAuthTokenData {
  return {
    access_token: accessToken,
    expires_in: expiresInSeconds,
    token_type: 'Bearer',
    scope: formatScopes(scopes),
  };
}

const checkTokenData = object({
  access_token: string,
  expires_in: integerIn(1, Number.MAX_SAFE_INTEGER),
  token_type: oneOf(['Bearer'] as const),
  scope: string,
});

/** Checks a token response's data; throws EventParseError naming the bad field. */
export function parseOAuthTokenData(value: unknown): OAuthTokenData {
  const data = checkTokenData(value, '');
  try {
    parseScopes(data.scope);
  } catch (error) {
    if (error instanceof ScopeError) throw new EventParseError('scope', error.message, { cause: error });
    throw error;
  }
  return data;
}
