// Webhook signatures (docs/api-guide.md#webhook-signatures): HMAC-SHA256 in lowercase hex, keyed with the
// endpoint's secret, over {"payload":P,"timestamp":N}: P the exact body text sent, N the svc-timestamp
// in milliseconds. The worker signs here and receivers (the SDK) verify here.
import { HEADERS, headerValue, type HeaderSource } from './headers.js';
import { hmacHex, signaturesEqual } from './hmac.js';
import {
  checkBound,
  checkWindow,
  failure,
  type VerificationFailure,
  type VerificationSuccess,
} from './verification.js';

/** Receivers accept a svc-timestamp up to five minutes either side of their clock by default. */
export const DEFAULT_WEBHOOK_TOLERANCE_MS = 5 * 60 * 1000;

/** The body text or its bytes, exactly as sent. */
export type WebhookPayload = string | Uint8Array;

/** The text that is signed for a webhook body sent at `timestamp` (ms). */
export function webhookSigningMessage(payload: string, timestamp: number): string {
  return `{"payload":${payload},"timestamp":${checkTimestamp(timestamp)}}`;
}

/** The svc-signature value of `payload` sent at `timestamp` (ms). */
export function signWebhook(payload: WebhookPayload, secret: string, timestamp: number): string {
  // A text body as one message (one update costs less than three, on every delivery: for the deliveries/s
  // target, docs/decisions.md, "Webhooks: the worker's own CPU per delivery"); bytes fed in pieces so a
  // Buffer body is hashed as sent, without decoding it first.
  if (typeof payload === 'string') return hmacHex(secret, webhookSigningMessage(payload, timestamp));
  return hmacHex(secret, '{"payload":', payload, `,"timestamp":${checkTimestamp(timestamp)}}`);
}

export type WebhookHeaders = {
  readonly 'content-type': 'application/json';
  readonly 'svc-signature': string;
  readonly 'svc-timestamp': string;
  readonly 'svc-event-id'?: string;
};

/** Headers of one webhook attempt: signed afresh each time, timestamp default now. */
export function webhookHeaders(
  payload: WebhookPayload,
  secret: string,
  options: { readonly eventId?: string; readonly timestamp?: number } = {},
): WebhookHeaders {
  const timestamp = options.timestamp ?? Date.now();
  return {
    'content-type': 'application/json',
    [HEADERS.webhookSignature]: signWebhook(payload, secret, timestamp),
    [HEADERS.webhookTimestamp]: String(timestamp),
    ...(options.eventId === undefined ? {} : { [HEADERS.webhookEventId]: options.eventId }),
  };
}

export interface VerifyWebhookOptions {
  /** How far svc-timestamp may be from `now`, either way. Default five minutes; 0 means exactly now. */
  readonly toleranceMs?: number;
  /** The current time in milliseconds; defaults to Date.now(). */
  readonly now?: number;
}

export type WebhookVerification = VerificationSuccess | VerificationFailure;

/**
 * The endpoint's secret, or several while it changes (docs/api-guide.md#changing-the-url-or-the-secret):
 * a delivery signed with any one of them verifies.
 */
export type WebhookSecrets = string | readonly string[];

function secretList(secrets: WebhookSecrets): readonly string[] {
  const list: readonly unknown[] = typeof secrets === 'string' ? [secrets] : secrets;
  if (!Array.isArray(list) || list.length === 0 || list.some((secret) => typeof secret !== 'string')) {
    throw new TypeError('the secret must be a string or a non-empty list of strings');
  }
  return list as readonly string[];
}

/** Unix milliseconds: digits only, at most 15 of them. */
const TIMESTAMP_MS = /^[0-9]{1,15}$/;

/** Checks a webhook's signature and timestamp against the endpoint's secret (or secrets). */
export function verifyWebhookSignature(
  input: {
    readonly payload: WebhookPayload;
    readonly signature: string | undefined;
    readonly timestamp: string | undefined;
  },
  secret: WebhookSecrets,
  options: VerifyWebhookOptions = {},
): WebhookVerification {
  const secrets = secretList(secret);
  const tolerance = checkBound('toleranceMs', options.toleranceMs ?? DEFAULT_WEBHOOK_TOLERANCE_MS);
  const { signature, timestamp } = input;
  if (!signature) return failure('missing_header', 'The svc-signature header is missing');
  if (!timestamp) return failure('missing_header', 'The svc-timestamp header is missing');
  if (!TIMESTAMP_MS.test(timestamp)) {
    return failure('malformed_timestamp', 'svc-timestamp must be Unix time in milliseconds (digits only)');
  }
  const ms = Number(timestamp);
  const outside = checkWindow('svc-timestamp', ms, options.now ?? Date.now(), tolerance, tolerance, 'ms');
  if (outside) return outside;
  // Every secret is tried, also after a match, so the time taken does not tell which one signed.
  let matched = false;
  for (const key of secrets)
    matched = signaturesEqual(signWebhook(input.payload, key, ms), signature) || matched;
  if (!matched) {
    return failure(
      'bad_signature',
      'svc-signature does not match the body (check the secret and the raw body)',
    );
  }
  return { ok: true, timestamp: ms };
}

/** {@link verifyWebhookSignature} reading svc-signature and svc-timestamp from the request's headers. */
export function verifyWebhookRequest(
  payload: WebhookPayload,
  headers: HeaderSource,
  secret: WebhookSecrets,
  options: VerifyWebhookOptions = {},
): WebhookVerification {
  return verifyWebhookSignature(
    {
      payload,
      signature: headerValue(headers, HEADERS.webhookSignature),
      timestamp: headerValue(headers, HEADERS.webhookTimestamp),
    },
    secret,
    options,
  );
}

/** The body of a registration challenge (docs/api-guide.md#registration-and-the-challenge); the receiver answers with the string itself. */
export interface ChallengeBody {
  readonly challenge: string;
}

/** A body with a `challenge` field is a registration challenge; any other is an event (docs/api-guide.md#registration-and-the-challenge). */
export function isChallenge(body: unknown): body is ChallengeBody {
  return (
    typeof body === 'object' &&
    body !== null &&
    Object.hasOwn(body, 'challenge') &&
    typeof (body as { challenge: unknown }).challenge === 'string'
  );
}

function checkTimestamp(timestamp: number): number {
  if (!Number.isSafeInteger(timestamp) || timestamp < 0) {
    throw new RangeError(`a webhook timestamp is whole milliseconds >= 0, got ${String(timestamp)}`);
  }
  return timestamp;
}
