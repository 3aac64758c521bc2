// What a call of the client can throw: one base class, one subclass per kind of failure (stripe-node's
// Error.ts). Every error carries the HTTP status (none for network failures and timeouts), the envelope's
// error text and the request id the api answered with, so a support ticket can name the request.

export interface SvcErrorDetails {
  /** The HTTP status; undefined when no answer came (network failure, timeout). */
  readonly status?: number | undefined;
  /** The envelope's `error` text, or the `message` of the insufficient-scope body. */
  readonly errorText?: string | undefined;
  /** The `X-Request-Id` the api answered with. */
  readonly requestId?: string | undefined;
  readonly method: string;
  readonly path: string;
  /** Attempts made, retries included. */
  readonly attempts?: number | undefined;
  readonly cause?: unknown;
}

export class SvcError extends Error {
  override readonly name: string = 'SvcError';
  readonly status: number | undefined;
  readonly errorText: string | undefined;
  readonly requestId: string | undefined;
  readonly method: string;
  readonly path: string;
  readonly attempts: number;

  constructor(message: string, details: SvcErrorDetails) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.status = details.status;
    this.errorText = details.errorText;
    this.requestId = details.requestId;
    this.method = details.method;
    this.path = details.path;
    this.attempts = details.attempts ?? 1;
  }
}

/** 401 with the envelope: unknown or revoked credentials, a bad or reused signature, a refused token. */
export class SvcAuthenticationError extends SvcError {
  override readonly name: string = 'SvcAuthenticationError';
}

/**
 * The caller is known but may not do this: a bearer token without the route's scope (the 401 `{message,
 * status}` body, docs/api-guide.md#errors; `requiredScope` from its WWW-Authenticate header), or a 403.
 */
export class SvcPermissionError extends SvcError {
  override readonly name: string = 'SvcPermissionError';
  /** The scope the route needs, when the api named it (insufficient scope only). */
  readonly requiredScope: string | undefined;

  constructor(message: string, details: SvcErrorDetails & { readonly requiredScope?: string | undefined }) {
    super(message, details);
    this.requiredScope = details.requiredScope;
  }
}

/**
 * 400, 413 or 415: the request itself is wrong; the error text names the field and the rule. Also thrown,
 * with no status and nothing sent, for a body the client cannot sign (its `cause` is the protocol's
 * CanonicalJsonError, with the `path` of a number the signature would round).
 */
export class SvcValidationError extends SvcError {
  override readonly name: string = 'SvcValidationError';
}

export class SvcNotFoundError extends SvcError {
  override readonly name: string = 'SvcNotFoundError';
}

/** 409: a duplicate (orgUserId), a KYC step not allowed now, a clientOrderId reused with other parameters. */
export class SvcConflictError extends SvcError {
  override readonly name: string = 'SvcConflictError';
}

export class SvcRateLimitError extends SvcError {
  override readonly name: string = 'SvcRateLimitError';
  /** Seconds to wait, from the Retry-After header; undefined when the answer had none. */
  readonly retryAfter: number | undefined;

  constructor(message: string, details: SvcErrorDetails & { readonly retryAfter?: number | undefined }) {
    super(message, details);
    this.retryAfter = details.retryAfter;
  }
}

/** 5xx (503 when the api's database is unreachable), or an answer that is not the envelope. */
export class SvcServerError extends SvcError {
  override readonly name: string = 'SvcServerError';
}

/** No answer: connection refused or reset, DNS failure. The request may or may not have been processed. */
export class SvcNetworkError extends SvcError {
  override readonly name: string = 'SvcNetworkError';
}

/** No complete answer within `timeoutMs`. The request may or may not have been processed. */
export class SvcTimeoutError extends SvcError {
  override readonly name: string = 'SvcTimeoutError';
  readonly timeoutMs: number;

  constructor(message: string, details: SvcErrorDetails & { readonly timeoutMs: number }) {
    super(message, details);
    this.timeoutMs = details.timeoutMs;
  }
}

/** The error for an HTTP answer other than success. */
export function errorForStatus(
  details: SvcErrorDetails & {
    readonly status: number;
    readonly retryAfter?: number | undefined;
    readonly requiredScope?: string | undefined;
  },
): SvcError {
  const { status, method, path, errorText } = details;
  const message = `${method} ${path} failed with HTTP ${status}: ${errorText ?? '(no error text)'}${
    details.requestId === undefined ? '' : ` (request id ${details.requestId})`
  }`;
  if (status === 401 && details.requiredScope !== undefined) return new SvcPermissionError(message, details);
  if (status === 401) return new SvcAuthenticationError(message, details);
  if (status === 403) return new SvcPermissionError(message, details);
  if (status === 400 || status === 413 || status === 415) return new SvcValidationError(message, details);
  if (status === 404) return new SvcNotFoundError(message, details);
  if (status === 409) return new SvcConflictError(message, details);
  if (status === 429) return new SvcRateLimitError(message, details);
  if (status >= 500) return new SvcServerError(message, details);
  return new SvcError(message, details);
}
