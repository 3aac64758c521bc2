// A filter form (method GET) sends its empty fields too (`?q=&userStatus=`): in a web area an empty query
// value means "any", so it is dropped before the query is validated, as if the field had not been sent.
import type { FastifyInstance } from 'fastify';

import { webAreaOf } from './web-areas.js';

export function dropEmptyQueryValues(fastify: FastifyInstance): void {
  fastify.addHook('preValidation', (request, _reply, done) => {
    const query = request.query;
    if (query && typeof query === 'object' && webAreaOf(request.url)) {
      request.query = Object.fromEntries(Object.entries(query).filter(([, value]) => value !== ''));
    }
    done();
  });
}
