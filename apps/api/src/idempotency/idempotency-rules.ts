// What the Idempotency-Key header means here, as plain rules (docs/api-guide.md#idempotent-retries,
// docs/decisions.md, "Requests: Idempotency-Key"): which values are keys, how a request is compared with the
// one that first used a key, which answers are kept and with which headers.
import { hash } from 'node:crypto';

import { badRequest } from '../common/errors.js';

/** The request header, as Node names it (lower case). */
export const IDEMPOTENCY_HEADER = 'idempotency-key';
/** Set to `true` on an answer replayed from a key, as Stripe names it. */
export const REPLAYED_HEADER = 'idempotent-replayed';

/** How long a key holds its answer after its first use. */
export const KEY_LIFETIME_MS = 24 * 60 * 60 * 1000;
/**
 * How long a claimed key counts as running before a repeat may take it over: longer than a request takes
 * (the webhook challenge waits seconds, not minutes), short enough that a key whose process died is free
 * again soon.
 */
export const CLAIM_LOCK_MS = 60_000;

/** The methods whose requests a key covers; the others change nothing and ignore it. */
export const KEYED_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

const MAX_KEY_LENGTH = 255;
const VISIBLE_ASCII = /^[\x21-\x7e]+$/;

/**
 * The key a header value carries, or undefined when there is none. The draft writes it as a structured
 * field string (`"8e03…"`); Stripe's clients send it bare. Both are taken, the quotes not being part of the
 * key. Anything else is a 400 naming the header and the rule.
 */
export function readIdempotencyKey(value: string | string[] | undefined): string | undefined {
  if (value === undefined) return undefined;
  const rule = `Idempotency-Key must be 1 to ${MAX_KEY_LENGTH} visible ASCII characters, sent once`;
  if (Array.isArray(value)) throw badRequest(rule);
  const quoted = value.length >= 2 && value.startsWith('"') && value.endsWith('"');
  const key = quoted ? value.slice(1, -1) : value;
  if (key.length === 0 || key.length > MAX_KEY_LENGTH || !VISIBLE_ASCII.test(key)) throw badRequest(rule);
  if (quoted && /["\\]/.test(key)) throw badRequest(`${rule}; a quoted key holds no " or \\`);
  return key;
}

/** What a key's first request is compared with: method, target (path and query) and the body's hash. */
export interface RequestFingerprint {
  readonly method: string;
  readonly target: string;
  readonly bodySha256: Buffer;
}

/**
 * The fingerprint of a request: `target` as sent, and the SHA-256 of the raw body bytes (of none when the
 * body was not read before the handler: a multipart upload, whose file the query's `sha256` names).
 */
export function fingerprintOf(
  method: string,
  target: string,
  rawBody: Buffer | undefined,
): RequestFingerprint {
  return { method, target, bodySha256: hash('sha256', rawBody ?? EMPTY, 'buffer') };
}

const EMPTY = Buffer.alloc(0);

/** Whether two fingerprints are of the same request. */
export function sameRequest(a: RequestFingerprint, b: RequestFingerprint): boolean {
  return a.method === b.method && a.target === b.target && a.bodySha256.equals(b.bodySha256);
}

/**
 * Whether an answer is kept under its key. Not kept, so that the key may be sent again: a 400 (the request
 * was refused before any work: corrected, it may keep its key), 408, 429 (asked to come back) and every 5xx
 * (nothing was committed, or the outcome is unknown: a retry runs again). Every other answer, 4xx
 * included, is what the work decided, and a repeat gets it again.
 */
export function keepsAnswer(status: number): boolean {
  return status < 500 && status !== 400 && status !== 408 && status !== 429;
}

/** The answer's headers replayed with it; the others (request id, date, length) belong to each answer. */
const REPLAYED_HEADERS = ['content-type', 'cache-control', 'location', 'link'] as const;

export function replayedHeaders(
  headers: Readonly<Record<string, string | number | string[] | undefined>>,
): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const name of REPLAYED_HEADERS) {
    const value = headers[name];
    if (value !== undefined) kept[name] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  return kept;
}
