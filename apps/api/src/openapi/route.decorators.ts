// How a route describes itself in the OpenAPI document, once, next to its handler: what it does, what
// `data` holds in its answer, and the failures only it can give. The failures every route of a kind can
// give (400 for bad input, 401, 413 and 415 for bodies, 503) are added by openapi.ts from the route's shape.
import { applyDecorators } from '@nestjs/common';
import { ApiOperation, ApiResponse } from '@nestjs/swagger';

import { pageSchema } from './schemas.js';

type Schema = Record<string, unknown>;

/** The failures a route declares itself; the others are derived (see openapi.ts). */
export const ERROR_DESCRIPTIONS = {
  400: 'The request is not valid: `error` names the field and the rule',
  401: 'Missing or bad credentials',
  403: 'The organisation may not do this (e.g. its plan does not include it)',
  404: 'What the path names does not exist (for this organisation)',
  409: 'The request conflicts with the current state: `error` says how',
  413: 'The body is larger than the route accepts',
  415: 'The body is not in a content type the route accepts',
  422: 'The Idempotency-Key was first used for another request (`idempotency_key_reused`): use a new key',
  429: 'Too many requests: retry after the seconds in Retry-After',
  503: 'PostgreSQL cannot be reached: retry after the seconds in Retry-After',
} as const;

export type ErrorStatus = keyof typeof ERROR_DESCRIPTIONS;

export interface RouteDoc {
  readonly summary: string;
  readonly description: string;
  /** `data` of the 200 answer: a component schema's name, `{ page: name }` for a list, or a schema. */
  readonly data: string | { readonly page: string } | Schema;
  /** Failures beyond the derived ones. */
  readonly errors?: readonly ErrorStatus[];
}

/** The success envelope around `data`. */
export function envelopeOf(data: Schema): Schema {
  return {
    type: 'object',
    required: ['code', 'data', 'error'],
    properties: { code: { type: 'integer', const: 200 }, data, error: { type: 'null' } },
    additionalProperties: false,
  };
}

export function dataSchema(data: RouteDoc['data']): Schema {
  if (typeof data === 'string') return { $ref: `#/components/schemas/${data}` };
  if ('page' in data && typeof data.page === 'string') return pageSchema(data.page);
  return data;
}

export const errorResponse = (status: ErrorStatus) =>
  ApiResponse({
    status,
    description: ERROR_DESCRIPTIONS[status],
    schema: { $ref: '#/components/schemas/ErrorEnvelope' },
  });

/** Summary, description, the answer's `data` and the route's own failures. */
export function ApiRoute(doc: RouteDoc) {
  return applyDecorators(
    ApiOperation({ summary: doc.summary, description: doc.description }),
    ApiResponse({
      status: 200,
      description: 'The envelope, with the result in `data`',
      schema: envelopeOf(dataSchema(doc.data)),
    }),
    ...(doc.errors ?? []).map(errorResponse),
  );
}

export interface StreamRouteDoc {
  readonly summary: string;
  readonly description: string;
  /** What each message's `data` holds (JSON): a component schema's name. */
  readonly data: string;
  readonly errors?: readonly ErrorStatus[];
}

/**
 * A route that answers Server-Sent Events (text/event-stream). OpenAPI 3.1 has no schema for a stream's
 * messages: `x-itemSchema` (OpenAPI 3.2's `itemSchema`, under an extension) describes one, its `data` the
 * JSON text of the schema named.
 */
export function ApiStreamRoute(doc: StreamRouteDoc) {
  return applyDecorators(
    ApiOperation({ summary: doc.summary, description: doc.description }),
    ApiResponse({
      status: 200,
      description: 'The stream: a `retry:` hint, then one message per event, and `: heartbeat` comment lines',
      content: {
        'text/event-stream': {
          schema: { type: 'string', description: 'Server-Sent Events (text/event-stream), UTF-8' },
          // @nestjs/swagger's MediaTypeObject type has no room for extensions; the document does.
          ...({
            'x-itemSchema': {
              type: 'object',
              description: 'One message',
              required: ['id', 'data'],
              properties: {
                id: { type: 'string', format: 'uuid', description: "The event's id" },
                data: {
                  type: 'string',
                  contentMediaType: 'application/json',
                  contentSchema: { $ref: `#/components/schemas/${doc.data}` },
                },
              },
            },
          } as object),
        },
      },
    }),
    ...(doc.errors ?? []).map(errorResponse),
  );
}
