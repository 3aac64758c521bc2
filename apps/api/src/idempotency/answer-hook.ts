// Keeps the answer of a request that claimed an Idempotency-Key (idempotency.guard.ts), as it leaves: status,
// the headers that matter and the body's bytes exactly as sent, before they are sent, so that a repeat
// arriving once the caller has the answer finds it kept. An onSend hook on the routes of the methods a key
// covers only (docs/decisions.md, "Request path: one hook for the api's own steps": a hook costs its
// dispatch on every request of its routes).
import type { FastifyInstance, FastifyReply, onSendHookHandler } from 'fastify';

import { claimOf, setClaim } from './claimed-request.js';
import type { Claim, IdempotencyService } from './idempotency.service.js';
import { KEYED_METHODS, replayedHeaders } from './idempotency-rules.js';

export function keepIdempotentAnswers(fastify: FastifyInstance, idempotency: IdempotencyService): void {
  const hook: onSendHookHandler = (request, reply, payload, done) => {
    const claim = claimOf(request);
    if (claim === null) {
      done(null, payload);
      return;
    }
    setClaim(request, null);
    keep(idempotency, claim, reply, payload).then(
      () => done(null, payload),
      (error: unknown) => {
        // The caller still gets the answer; the key stays claimed until its lock lapses.
        request.log.warn({ err: error }, 'the answer could not be kept under its Idempotency-Key');
        done(null, payload);
      },
    );
  };
  fastify.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!methods.some((method) => KEYED_METHODS.has(method))) return;
    const own = route.onSend === undefined ? [] : Array.isArray(route.onSend) ? route.onSend : [route.onSend];
    route.onSend = [...own, hook];
  });
}

/** Keeps the answer, or gives the key up when the payload is not bytes (a stream) or not an answer to keep. */
function keep(
  idempotency: IdempotencyService,
  claim: Claim,
  reply: FastifyReply,
  payload: unknown,
): Promise<void> {
  const body =
    typeof payload === 'string' ? Buffer.from(payload, 'utf8') : Buffer.isBuffer(payload) ? payload : null;
  if (body === null) return idempotency.release(claim);
  return idempotency.finish(claim, {
    status: reply.statusCode,
    headers: replayedHeaders(reply.getHeaders()),
    body,
  });
}
