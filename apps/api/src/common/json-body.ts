// How the api reads a JSON body (docs/api-guide.md#api-key-signing): checked as the signature sees it, numbers
// kept with their digits, prototype keys refused.
import { RouteConfig } from '@nestjs/platform-fastify';
import { FASTIFY_ROUTE_CONFIG_METADATA } from '@nestjs/platform-fastify/constants.js';
import { CanonicalJsonError, canonicalizeJson } from '@svc/protocol';
import type { FastifyInstance } from 'fastify';

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
  (request as WithCanonicalBody)[CANONICAL_BODY] = checkJsonBody(request, text);
  if (readsBodyAsText(request) && !NEEDS_OBJECT.test(text)) return undefined;
  if (!needsReviver(text)) return JSON.parse(text) as unknown;
  return JSON.parse(text, reviveBody as Parameters<typeof JSON.parse>[1]) as unknown;
}

/** The key in a route's Fastify config (`request.routeOptions.config`) saying it reads its body as text. */
const BODY_AS_TEXT = 'jsonBodyAsText';

/**
 * The route reads its JSON body only as text (`canonicalBodyOf`), as the echo does: the parser checks it and
 * keeps its compact text as for every route (invalid JSON and duplicate keys are still a 400), but builds no
 * object that nothing would read (`request.body` stays undefined), unless the body may hold what something
 * else reads or refuses in it: `access_token` (the bearer strategy takes a token from the body) or a
 * prototype key (refused in every body). `JSON.parse` and its checks were 9 % of the bearer echo's CPU: for
 * the bearer echo target (docs/decisions.md, "Request path: the body parsed and canonicalised once").
 */
export function JsonBodyAsText(): MethodDecorator {
  return (_target: object, _key: string | symbol, descriptor: PropertyDescriptor): void => {
    const method = descriptor.value as object;
    const config = Reflect.getMetadata(FASTIFY_ROUTE_CONFIG_METADATA, method) as object | undefined;
    RouteConfig({ ...config, [BODY_AS_TEXT]: true })(method, '', { value: method });
  };
}

/** Whether the route `request` is answered by is @JsonBodyAsText(). */
function readsBodyAsText(request: object): boolean {
  const route = (request as { routeOptions?: { config?: Record<string, unknown> } }).routeOptions;
  return route?.config?.[BODY_AS_TEXT] === true;
}

/** What the body must be parsed for on a @JsonBodyAsText() route; escapes may spell either word. */
const NEEDS_OBJECT = /access_token|__proto__|constructor|prototype|\\u/;

/** What may spell a prototype key, escapes included. */
const SUSPECT_KEY = /__proto__|constructor|prototype|\\u/;

/**
 * Whether JSON.parse needs reviveBody for `text` (JSON already checked): when a key may be a prototype key,
 * or a number keeps its text (NumberText). Else the reviver would change nothing, and a reviver makes
 * JSON.parse several times dearer: for the signed routes' CPU target (docs/decisions.md, "Request path: the
 * body parsed and canonicalised once"). One pass over the text: strings are skipped, each number literal is
 * checked.
 */
function needsReviver(text: string): boolean {
  if (SUSPECT_KEY.test(text)) return true;
  const length = text.length;
  for (let i = 0; i < length; i++) {
    const code = text.charCodeAt(i);
    if (code === QUOTE) {
      // To the closing quote; an escape takes the character after it.
      for (i++; i < length; i++) {
        const inner = text.charCodeAt(i);
        if (inner === BACKSLASH) i++;
        else if (inner === QUOTE) break;
      }
    } else if (code === MINUS || (code >= ZERO && code <= NINE)) {
      let end = i + 1;
      while (end < length && NUMBER_PART.test(text.charAt(end))) end++;
      if (keepsText(text.slice(i, end))) return true;
      i = end - 1;
    }
  }
  return false;
}

const QUOTE = 34;
const BACKSLASH = 92;
const MINUS = 45;
const ZERO = 48;
const NINE = 57;
const NUMBER_PART = /[0-9.eE+-]/;

/** Whether the number literal becomes a NumberText (keepNumberText), the usual spellings answered at once. */
function keepsText(literal: string): boolean {
  const value = Number(literal);
  const shortest = String(value);
  if (shortest === literal) return false;
  // 55000.00, 55.50: trailing zeros of a fraction, the same double.
  if (!literal.includes('e') && !literal.includes('E') && literal.includes('.')) {
    const trimmed = literal.replace(/\.?0+$/, '');
    if (shortest === trimmed) return false;
  }
  return keepNumberText(value, literal) !== value;
}

/**
 * The request's field holding the compact (canonical) text of its JSON body, as the parser's check made it. A
 * field declared on Fastify's requests (`declareCanonicalBody`), not a WeakMap: a WeakMap entry for every
 * request cost 3 to 4 µs of CPU in-process (its ephemeron table and the collector's work on it), about as
 * much as canonicalising the body: for the bearer echo target (docs/decisions.md, "Request path: the body
 * parsed and canonicalised once").
 */
const CANONICAL_BODY = Symbol('canonicalJsonBody');

/**
 * The request's field saying its JSON body holds a number that its canonical text writes as another value
 * (9007199254740993 as 9007199254740992): such a body is not signable, and a signed request carrying it is
 * refused (auth/hmac.strategy.ts). Bearer callers' digits are read as sent (NumberText), so it stays theirs.
 */
const AMBIGUOUS_NUMBER = Symbol('jsonBodyHasAmbiguousNumber');

interface WithCanonicalBody {
  [CANONICAL_BODY]?: string | null;
  [AMBIGUOUS_NUMBER]?: boolean;
}

/** Declares the fields on Fastify's requests, so that every request has them from the start (one shape). */
export function declareCanonicalBody(fastify: FastifyInstance): void {
  fastify.decorateRequest(CANONICAL_BODY, null);
  fastify.decorateRequest(AMBIGUOUS_NUMBER, false);
}

/**
 * The request's JSON body as compact (canonical) text, keys in the order sent: what the parser's check
 * made, so that a route answering the body as sent does not go over it again. '{}' when there was none.
 */
export function canonicalBodyOf(request: object): string {
  return (request as WithCanonicalBody)[CANONICAL_BODY] ?? '{}';
}

/**
 * The canonical text the parser's check made of the request's JSON body (canonicalizeJson of the body as
 * received); undefined when the parser did not run (no body, or not JSON), or when the body holds a number
 * its canonical text rounds (then only the raw body tells what is wrong with it). The signature check
 * reuses it.
 */
export function parsedCanonicalBody(request: object): string | undefined {
  const withBody = request as WithCanonicalBody;
  if (withBody[AMBIGUOUS_NUMBER] === true) return undefined;
  return withBody[CANONICAL_BODY] ?? undefined;
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

/**
 * The body's canonical text; a number that text would round (ambiguous_number) is only marked here, since it
 * concerns signed requests alone: a second pass writes it rounded, as before, for the rest of the request.
 */
function checkJsonBody(request: WithCanonicalBody, text: string): string {
  try {
    try {
      return canonicalizeJson(text);
    } catch (error) {
      if (!(error instanceof CanonicalJsonError) || error.reason !== 'ambiguous_number') throw error;
      request[AMBIGUOUS_NUMBER] = true;
      return canonicalizeJson(text, { ambiguousNumbers: 'rewrite' });
    }
  } catch (error) {
    if (error instanceof CanonicalJsonError) throw badRequest(`body: ${error.message}`);
    throw error;
  }
}
