// A filter form (method GET) sends its empty fields too (`?q=&userStatus=`): in a web area an empty query
// value means "any", so it is dropped before the query is validated, as if the field had not been sent.
import type { FastifyRequest } from 'fastify';

/** For a request in a web area (web/web-security.ts, `webAreaRequest`), before anything reads its query. */
export function dropEmptyQueryValues(request: FastifyRequest): void {
  const query = request.query;
  if (query && typeof query === 'object') {
    request.query = Object.fromEntries(Object.entries(query).filter(([, value]) => value !== ''));
  }
}
