// The receiving side of webhooks (docs/api-guide.md#webhook-signatures, docs/api-guide.md#events): verify a
// delivery and get the typed event, or learn why not; and build signed test deliveries for your own tests.
import {
  EventParseError,
  HEADERS,
  headerValue,
  isChallenge,
  parseWebhookEvent,
  verifyWebhookRequest,
  webhookHeaders,
  type HeaderSource,
  type SignatureFailure,
  type WebhookEvent,
  type WebhookSecrets,
} from '@svc/protocol';

import { checkSecrets } from './webhook-secrets.js';

export type { WebhookEvent, WebhookSecrets };

export type WebhookVerificationReason =
  | SignatureFailure
  /** The body given is an object, not the raw text or bytes: it was parsed before verification. */
  | 'parsed_body'
  /** Signed correctly, but not JSON or not an event the protocol knows. */
  | 'invalid_payload'
  /** A registration challenge (docs/api-guide.md#registration-and-the-challenge), not an event: answer it with its `challenge` string. */
  | 'challenge';

export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';

  constructor(
    readonly reason: WebhookVerificationReason,
    message: string,
    options?: { readonly cause?: unknown },
  ) {
    super(message, options);
  }
}

export interface VerifyWebhookOptions {
  /** How far svc-timestamp may be from now, either way. Default five minutes; 0 means exactly now. */
  readonly toleranceMs?: number;
  /** The current time in ms. Default Date.now(). */
  readonly now?: number;
}

/** A verified delivery: a registration challenge, or an event with its `svc-event-id`. */
export type WebhookMessage =
  | { readonly type: 'challenge'; readonly challenge: string }
  | { readonly type: 'event'; readonly event: WebhookEvent; readonly eventId: string | undefined };

const PARSED_BODY_HINT =
  'the body was already parsed into an object: verify the raw body exactly as received, e.g. ' +
  "express.raw({ type: 'application/json' }), or in Fastify a content type parser with parseAs: 'buffer'";

/**
 * Verifies a delivery's signature and timestamp against your endpoint's secret, then parses the body:
 * answers the typed event, or throws {@link WebhookVerificationError} saying why. While the secret
 * changes, pass the old and the new one (`[oldSecret, newSecret]`): a delivery signed with either verifies
 * (docs/api-guide.md#changing-the-url-or-the-secret).
 */
export function verifyWebhook(
  rawBody: string | Uint8Array,
  headers: HeaderSource,
  secret: WebhookSecrets,
  options: VerifyWebhookOptions = {},
): WebhookEvent {
  const message = verifyWebhookMessage(rawBody, headers, secret, options);
  if (message.type === 'challenge') {
    throw new WebhookVerificationError(
      'challenge',
      'this is a registration challenge, not an event: answer HTTP 200 with its challenge string as the body ' +
        '(createWebhookHandler does that for you)',
    );
  }
  return message.event;
}

/** Like {@link verifyWebhook}, but a registration challenge is an answer too, not an error. */
export function verifyWebhookMessage(
  rawBody: string | Uint8Array,
  headers: HeaderSource,
  secret: WebhookSecrets,
  options: VerifyWebhookOptions = {},
): WebhookMessage {
  const secrets = checkSecrets(secret);
  if (typeof rawBody !== 'string' && !(rawBody instanceof Uint8Array)) {
    throw new WebhookVerificationError('parsed_body', `Cannot verify the webhook: ${PARSED_BODY_HINT}`);
  }
  const check = verifyWebhookRequest(rawBody, headers, secrets, options);
  if (!check.ok) {
    let hint = '';
    if (check.reason === 'bad_signature') {
      if (secrets.some((key) => key !== key.trim())) {
        hint = '; the secret has leading or trailing whitespace: trim it';
      } else if (typeof rawBody === 'string' && looksReserialised(rawBody)) {
        hint = `; the body looks re-serialised (${PARSED_BODY_HINT})`;
      }
    }
    throw new WebhookVerificationError(check.reason, `${check.message}${hint}`);
  }
  const text = typeof rawBody === 'string' ? rawBody : new TextDecoder().decode(rawBody);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    throw new WebhookVerificationError(
      'invalid_payload',
      `The webhook body is not JSON: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  }
  if (isChallenge(body)) return { type: 'challenge', challenge: body.challenge };
  try {
    return {
      type: 'event',
      event: parseWebhookEvent(body),
      eventId: headerValue(headers, HEADERS.webhookEventId),
    };
  } catch (error) {
    if (!(error instanceof EventParseError)) throw error;
    throw new WebhookVerificationError(
      'invalid_payload',
      `The webhook body is not a known event: ${error.message}`,
      {
        cause: error,
      },
    );
  }
}

/** "[object Object]" is what a parsed body turns into when it is made a string again. */
function looksReserialised(text: string): boolean {
  return text === '[object Object]';
}

export interface TestWebhookOptions {
  /** svc-timestamp in ms. Default now. */
  readonly timestamp?: number;
  /** svc-event-id. Default a random UUID. */
  readonly eventId?: string;
}

/**
 * A signed delivery as the service sends it, for your own receiver's tests: the body text and the
 * headers (content-type, svc-signature, svc-timestamp, svc-event-id).
 */
export function testWebhook(
  payload: WebhookEvent | { readonly challenge: string } | string,
  secret: string,
  options: TestWebhookOptions = {},
): { body: string; headers: Record<string, string> } {
  const body = typeof payload === 'string' ? payload : JSON.stringify(payload);
  return { body, headers: testWebhookHeaders(body, secret, options) };
}

/** The headers of a signed delivery of `body` (exact text), for your own tests. */
export function testWebhookHeaders(
  body: string | Uint8Array,
  secret: string,
  options: TestWebhookOptions = {},
): Record<string, string> {
  return {
    ...webhookHeaders(body, secret, {
      timestamp: options.timestamp ?? Date.now(),
      eventId: options.eventId ?? globalThis.crypto.randomUUID(),
    }),
  };
}
