// The key a request claimed, kept on the request from the guard that claims it to the hook that keeps its
// answer. A field declared on Fastify's requests, as the canonical body is (common/json-body.ts): one shape
// for every request, no WeakMap entry per request.
import type { FastifyInstance } from 'fastify';

import type { Claim } from './idempotency.repository.js';

const CLAIM = Symbol('idempotencyClaim');

interface WithClaim {
  [CLAIM]?: Claim | null;
}

/** Declares the field on Fastify's requests, so that every request has it from the start. */
export function declareIdempotencyClaim(fastify: FastifyInstance): void {
  fastify.decorateRequest(CLAIM, null);
}

export function setClaim(request: object, claim: Claim | null): void {
  (request as WithClaim)[CLAIM] = claim;
}

/** The claim the request holds, or null (no key, or its answer already dealt with). */
export function claimOf(request: object): Claim | null {
  return (request as WithClaim)[CLAIM] ?? null;
}
