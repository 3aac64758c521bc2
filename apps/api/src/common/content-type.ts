// Which body types each route takes: JSON everywhere, form-urlencoded for the token endpoint only,
// multipart for the KYC upload only, and text in UTF-8 only. Checked before any parser runs, so a body
// a route does not take is a 415 and nothing is written (docs/decisions.md, "Requests: JSON bodies").
import type { FastifyRequest } from 'fastify';

import { webAreaOf } from '../web/web-areas.js';
import { unsupportedMediaType } from './errors.js';

/** Route patterns, as registered, that take each non-JSON type; the web areas' forms post form-urlencoded. */
const ONLY_ON: Readonly<Record<string, readonly string[]>> = {
  'application/x-www-form-urlencoded': ['/api/v1/oauth/token'],
  'multipart/form-data': ['/api/v1/user/:orgUserId/kyc/documents'],
};

const takes = (media: string, route: string) =>
  ONLY_ON[media]?.includes(route) === true ||
  (media === 'application/x-www-form-urlencoded' && webAreaOf(route) !== undefined);

/**
 * The header of nearly every body: nothing to check, no header split (for the bearer echo target:
 * docs/decisions.md, "Request path: one hook for the api's own steps").
 */
const PLAIN_JSON = new Set(['application/json', 'application/json; charset=utf-8']);

/** Throws the 415 when the request's body type is not one its route takes (common/request-hooks.ts). */
export function checkContentType(request: FastifyRequest): void {
  const header = request.headers['content-type'];
  if (header !== undefined && !PLAIN_JSON.has(header)) checkMediaType(request, header);
}

function checkMediaType(request: FastifyRequest, header: string): void {
  const [type = '', ...parameters] = header.split(';').map((part) => part.trim());
  const media = type.toLowerCase();
  const charset = parameters
    .map((parameter) => /^charset\s*=\s*"?([^"]*)"?$/i.exec(parameter)?.[1])
    .find((value) => value !== undefined);
  if (charset !== undefined && !/^utf-?8$/i.test(charset) && !media.startsWith('multipart/')) {
    throw unsupportedMediaType(
      `charset ${JSON.stringify(charset.slice(0, 100))} is not accepted: send UTF-8`,
    );
  }
  const route = (request.routeOptions.url ?? '').replace(/\/$/, '');
  if (ONLY_ON[media] && !takes(media, route)) {
    throw unsupportedMediaType(`${media} is not accepted here: send application/json`);
  }
}
