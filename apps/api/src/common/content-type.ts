// The request hook's check of the body type: JSON everywhere, the types a route declares with @TakesBody
// (common/body-types.ts), form-urlencoded on the web areas' pages (their forms), and text in UTF-8 only.
// Checked before any parser runs, so a body a route does not take is a 415 and nothing is written
// (docs/decisions.md, "Requests: body types").
import { parse as parseMediaType } from 'content-type';
import type { FastifyRequest } from 'fastify';

import { webAreaOf } from '../web/web-areas.js';
import { declaredBodyTypes, FORM_TYPE, JSON_TYPE, MULTIPART_TYPE } from './body-types.js';
import { unsupportedMediaType } from './errors.js';

/** Whether the request's route takes a body of type `media`; the web areas' forms post form-urlencoded. */
const takes = (media: string, request: FastifyRequest) =>
  media === JSON_TYPE ||
  declaredBodyTypes(request).includes(media) ||
  (media === FORM_TYPE && webAreaOf((request.routeOptions.url ?? '').replace(/\/$/, '')) !== undefined);

/**
 * The header of nearly every body: nothing to check, no header parse (for the bearer echo target:
 * docs/decisions.md, "Request path: one hook for the api's own steps").
 */
const PLAIN_JSON = new Set([JSON_TYPE, 'application/json; charset=utf-8']);

/**
 * Throws the 415 when the request's body type is not one its route takes, is not a well-formed media type
 * (`application/json;;;`), or is missing on a request that has a body (common/request-hooks.ts). Any
 * other type (text/plain included) would otherwise reach a parser of Fastify's, or none, and be read as
 * something the caller did not send.
 */
export function checkContentType(request: FastifyRequest): void {
  const header = request.headers['content-type'];
  if (header === undefined) {
    if (hasBody(request)) {
      throw unsupportedMediaType('a body needs a Content-Type header: send application/json');
    }
    return;
  }
  if (!PLAIN_JSON.has(header)) checkMediaType(request, header);
}

/** Whether the request announces a body: a length above zero, or a chunked one. */
function hasBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

function checkMediaType(request: FastifyRequest, header: string): void {
  let media: string;
  let charset: string | undefined;
  try {
    const parsed = parseMediaType(header);
    media = parsed.type;
    charset = parsed.parameters.charset;
  } catch {
    throw unsupportedMediaType(
      `Content-Type ${JSON.stringify(header.slice(0, 100))} is not a valid media type: send application/json`,
    );
  }
  if (charset !== undefined && !/^utf-?8$/i.test(charset) && media !== MULTIPART_TYPE) {
    throw unsupportedMediaType(
      `charset ${JSON.stringify(charset.slice(0, 100))} is not accepted: send UTF-8`,
    );
  }
  if (!takes(media, request)) {
    throw unsupportedMediaType(
      `${JSON.stringify(media.slice(0, 100))} is not accepted here: send application/json`,
    );
  }
}
