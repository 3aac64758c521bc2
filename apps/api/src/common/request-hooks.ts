// The api's own steps on every request, in one Fastify hook rather than one each: a hook costs its dispatch
// on every request (for the bearer echo target: docs/decisions.md, "Request path: one hook for the api's own
// steps"). In order: the request id back to the caller, the body type checked (a 415 before any parser runs),
// and in the web areas the security headers and the filter forms' empty values.
import type { FastifyInstance } from 'fastify';

import { prepareWebRequest } from '../web/web-security.js';
import { checkContentType } from './content-type.js';
import { echoRequestId } from './logger.js';

export function addRequestHook(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', (request, reply, done) => {
    echoRequestId(request, reply);
    try {
      checkContentType(request);
      prepareWebRequest(request, reply);
    } catch (error) {
      done(error as Error);
      return;
    }
    done();
  });
}
