// How the api reads a JSON body (docs/api-guide.md#api-key-signing): checked as the signature sees it, numbers
// kept with their digits, prototype keys refused.
import { CanonicalJsonError, canonicalizeJson } from '@svc/protocol';

import { keepNumberText } from './decimal.js';
import { badRequest } from './errors.js';

/**
 * JSON bodies are checked as the signature sees them: invalid JSON and duplicate keys are a 400 naming the
 * position, for bearer callers too (docs/api-guide.md#api-key-signing). Numbers keep their digits
 * (NumberText) so that amounts are never read through a double. Async on purpose: Fastify takes a synchronous
 * parser's return value for no answer and the request hangs.
 */
// eslint-disable-next-line @typescript-eslint/require-await
export async function parseJsonBody(request: object, body: Buffer): Promise<unknown> {
  if (body.length === 0) return undefined;
  const text = utf8Text(body);
  canonicalBodies.set(request, checkJsonBody(text));
  if (!needsReviver(text)) return JSON.parse(text) as unknown;
  return JSON.parse(text, reviveBody as Parameters<typeof JSON.parse>[1]) as unknown;
}

/** The strings and the numbers of a JSON text (already checked), in order. */
const TOKENS = /"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;
/** What may spell a prototype key, escapes included. */
const SUSPECT_KEY = /__proto__|constructor|prototype|\\u/;

/**
 * Whether JSON.parse needs reviveBody for `text`: when a key may be a prototype key, or a number keeps its
 * text (NumberText). Else the reviver would change nothing, and a reviver makes JSON.parse several times
 * slower (about 4 against 20 µs for a 300-byte order, bench/README.md, "api: the bearer path layer by layer").
 */
function needsReviver(text: string): boolean {
  if (SUSPECT_KEY.test(text)) return true;
  for (const [token] of text.matchAll(TOKENS)) {
    if (token.charCodeAt(0) === 34 /* " */) continue;
    const value = Number(token);
    if (keepNumberText(value, token) !== value) return true;
  }
  return false;
}

/** The compact (canonical) text of each request's JSON body, as the parser's check made it. */
const canonicalBodies = new WeakMap<object, string>();

/**
 * The request's JSON body as compact (canonical) text, keys in the order sent: what the parser's check
 * made, so that a route answering the body as sent does not go over it again. '{}' when there was none.
 */
export function canonicalBodyOf(request: object): string {
  return canonicalBodies.get(request) ?? '{}';
}

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The body as text; bytes that are not UTF-8 are refused rather than replaced (they would sign alike). */
export function utf8Text(body: Buffer): string {
  try {
    return UTF8.decode(body);
  } catch {
    throw badRequest('body is not valid UTF-8');
  }
}

/** Keys that name the prototype machinery of a JavaScript object; no field of the api is called so. */
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

function reviveBody(this: unknown, key: string, value: unknown, context?: { source?: string }): unknown {
  if (FORBIDDEN_KEYS.has(key) && !Array.isArray(this)) {
    throw badRequest(`body: the key ${JSON.stringify(key)} is not accepted anywhere in a body`);
  }
  return keepNumberText(value, context?.source);
}

function checkJsonBody(text: string): string {
  try {
    return canonicalizeJson(text);
  } catch (error) {
    if (error instanceof CanonicalJsonError) throw badRequest(`body: ${error.message}`);
    throw error;
  }
}
