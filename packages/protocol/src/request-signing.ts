// Request signatures (docs/api-guide.md#api-key-signing): HMAC-SHA256 in lowercase hex, keyed with the API
// secret, over {"body":B,"query":Q,"url":U,"ts":T}. Client and server both build the message here.
import { CanonicalJsonError, canonicalizeJson } from './canonical-json.js';
import { HEADERS, headerValue, type HeaderSource } from './headers.js';
import { hmacHex, signaturesEqual } from './hmac.js';
import { canonicalizeQuery } from './query.js';
import {
  checkBound,
  checkWindow,
  failure,
  type SignatureFailure,
  type VerificationFailure,
  type VerificationSuccess,
} from './verification.js';

/** A request as it goes on the wire: path exactly as sent, raw query string, raw body text. */
export interface SignableRequest {
  /** Path without host or query, trailing slash kept: `/api/v1/user/`. */
  readonly path: string;
  /** Raw query string, with or without the leading `?`; absent or empty for none. */
  readonly query?: string | undefined;
  /** Raw body text exactly as transmitted; absent or empty for none. */
  readonly body?: string | undefined;
  /** The X-TIMESTAMP value: Unix time in whole seconds, as a decimal string. */
  readonly timestamp: string;
}

/** The text that is signed. Throws CanonicalJsonError when the body is not acceptable JSON. */
export function requestSigningMessage(request: SignableRequest): string {
  return signingMessage(canonicalizeJson(request.body), request);
}

/** The signed text around a body already in canonical form. */
function signingMessage(
  canonicalBody: string,
  request: Pick<SignableRequest, 'path' | 'query' | 'timestamp'>,
): string {
  const query = canonicalizeQuery(request.query);
  return `{"body":${canonicalBody},"query":${query},"url":${JSON.stringify(request.path)},"ts":${JSON.stringify(request.timestamp)}}`;
}

/** The X-SIGNATURE value of `request`. */
export function signRequest(request: SignableRequest, secret: string): string {
  return hmacHex(secret, requestSigningMessage(request));
}

export type SignedRequestHeaders = {
  readonly 'x-api-key': string;
  readonly 'x-timestamp': string;
  readonly 'x-signature': string;
};

/** The three authentication headers for a request; the timestamp defaults to now. */
export function signedRequestHeaders(
  request: Omit<SignableRequest, 'timestamp'> & { readonly timestamp?: string },
  credentials: { readonly apiKey: string; readonly apiSecret: string },
): SignedRequestHeaders {
  const timestamp = request.timestamp ?? String(Math.floor(Date.now() / 1000));
  return {
    [HEADERS.apiKey]: credentials.apiKey,
    [HEADERS.timestamp]: timestamp,
    [HEADERS.signature]: signRequest({ ...request, timestamp }, credentials.apiSecret),
  };
}

/** Why a signed request was refused; `invalid_body` means the body is not acceptable JSON (a 400). */
export type RequestAuthFailure = SignatureFailure | 'invalid_body';

export type RequestVerification = VerificationSuccess | VerificationFailure<RequestAuthFailure>;

export interface RequestWindow {
  /** How far in the past X-TIMESTAMP may be. Default 300. */
  readonly maxAgeSeconds?: number;
  /** How far in the future X-TIMESTAMP may be. Default 3900: clients that sign an hour ahead keep working. */
  readonly maxAheadSeconds?: number;
}

export const DEFAULT_REQUEST_WINDOW = { maxAgeSeconds: 300, maxAheadSeconds: 3900 } as const;

export interface VerifyRequestOptions extends RequestWindow {
  /** The current time in milliseconds; defaults to Date.now(). */
  readonly now?: number;
}

/** Unix seconds: digits only, at most 12 of them (no sign, no fraction, no exponent). */
const TIMESTAMP = /^[0-9]{1,12}$/;

/** What verifyRequest reads of a request besides its body. */
export interface SignedRequestParts {
  readonly path: string;
  readonly query?: string | undefined;
  readonly timestamp: string | undefined;
  readonly signature: string | undefined;
}

/**
 * Checks a request's signature: headers present, timestamp well-formed and inside the window, body
 * acceptable, signature equal (in constant time). Replay refusal needs storage and is the server's job.
 */
export function verifyRequest(
  request: SignedRequestParts & { readonly body?: string | undefined },
  secret: string,
  options: VerifyRequestOptions = {},
): RequestVerification {
  return verifyMessage(request, secret, options, (parts) => {
    try {
      return requestSigningMessage({ ...parts, body: request.body });
    } catch (error) {
      if (error instanceof CanonicalJsonError) return failure('invalid_body', error.message);
      throw error;
    }
  });
}

/**
 * verifyRequest for a server that has already canonicalised the body (`canonicalizeJson` of the raw body
 * text, as its JSON parser's check does): the same checks and answers, without going over the body again.
 * `canonicalBody` must be exactly what `canonicalizeJson` made of the body as received; `{}` for none.
 */
export function verifyCanonicalRequest(
  request: SignedRequestParts & { readonly canonicalBody: string },
  secret: string,
  options: VerifyRequestOptions = {},
): VerificationSuccess | VerificationFailure {
  return verifyMessage(request, secret, options, (parts) => signingMessage(request.canonicalBody, parts));
}

function verifyMessage<Reason extends string>(
  request: SignedRequestParts,
  secret: string,
  options: VerifyRequestOptions,
  message: (parts: SignableRequest) => string | VerificationFailure<Reason>,
): VerificationSuccess | VerificationFailure<SignatureFailure | Reason> {
  const maxAge = checkBound('maxAgeSeconds', options.maxAgeSeconds ?? DEFAULT_REQUEST_WINDOW.maxAgeSeconds);
  const maxAhead = checkBound(
    'maxAheadSeconds',
    options.maxAheadSeconds ?? DEFAULT_REQUEST_WINDOW.maxAheadSeconds,
  );
  const { timestamp, signature } = request;
  if (!timestamp) return failure('missing_header', 'The X-TIMESTAMP header is missing');
  if (!signature) return failure('missing_header', 'The X-SIGNATURE header is missing');
  if (!TIMESTAMP.test(timestamp)) {
    return failure('malformed_timestamp', 'X-TIMESTAMP must be Unix time in whole seconds (digits only)');
  }
  const seconds = Number(timestamp);
  const now = Math.floor((options.now ?? Date.now()) / 1000);
  const outside = checkWindow('X-TIMESTAMP', seconds, now, maxAge, maxAhead, 's');
  if (outside) return outside;

  const signed = message({ path: request.path, query: request.query, timestamp });
  if (typeof signed !== 'string') return signed;
  if (!signaturesEqual(hmacHex(secret, signed), signature)) {
    return failure(
      'bad_signature',
      'X-SIGNATURE does not match the request (check the secret, the path as sent and the body text)',
    );
  }
  return { ok: true, timestamp: seconds };
}

export interface RequestAuthHeaders {
  readonly apiKey: string;
  readonly timestamp: string;
  readonly signature: string;
}

/** Reads X-API-KEY, X-TIMESTAMP and X-SIGNATURE, or says which one is missing. */
export function readRequestAuthHeaders(
  headers: HeaderSource,
): ({ readonly ok: true } & RequestAuthHeaders) | VerificationFailure<'missing_header'> {
  const apiKey = headerValue(headers, HEADERS.apiKey);
  const timestamp = headerValue(headers, HEADERS.timestamp);
  const signature = headerValue(headers, HEADERS.signature);
  if (apiKey === undefined) return failure('missing_header', 'The X-API-KEY header is missing');
  if (timestamp === undefined) return failure('missing_header', 'The X-TIMESTAMP header is missing');
  if (signature === undefined) return failure('missing_header', 'The X-SIGNATURE header is missing');
  return { ok: true, apiKey, timestamp, signature };
}
