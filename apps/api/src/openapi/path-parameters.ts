// The path parameters of the OpenAPI document, each with the rule its pipe (common/params.ts) or its route
// enforces: @nestjs/swagger lists only those a route names with @Param, not those a pipe reads.
import type { OpenAPIObject } from '@nestjs/swagger';

import { SYMBOL, SYMBOL_RULE } from '../common/assets.js';
import { ORG_USER_ID_RULE } from '../users/dto/create-user.dto.js';

type Operation = NonNullable<OpenAPIObject['paths'][string]['get']>;
type SchemaObject = NonNullable<NonNullable<OpenAPIObject['components']>['schemas']>[string];

/** Each path parameter with the rule its pipe (common/params.ts) or its route enforces. */
function pathParameter(path: string, name: string): { description: string; schema: SchemaObject } {
  switch (name) {
    case 'orgId':
      return {
        description: 'The organisation (a malformed id is a 400)',
        schema: { type: 'integer', minimum: 1, maximum: 2147483647 },
      };
    case 'orgUserId':
      return {
        description: `The organisation's id of the user (${ORG_USER_ID_RULE}); an unknown one is a 404`,
        schema: { type: 'string' },
      };
    case 'symbol':
      return {
        description: `The trading pair, ${SYMBOL_RULE}`,
        schema: { type: 'string', pattern: SYMBOL.source },
      };
    case 'eventId':
      return { description: "The event's id", schema: { type: 'string', format: 'uuid' } };
    case 'clientOrderId':
      return {
        description: 'The clientOrderId the order was placed with (a UUID); anything else is a 404',
        schema: { type: 'string' },
      };
    case 'id':
      if (path.includes('/api-keys/'))
        return {
          description: "The key's id (a UUID) or its public value (pk_…)",
          schema: { type: 'string', pattern: '^(?:[0-9a-fA-F-]{36}|pk_[A-Za-z0-9_-]{1,100})$' },
        };
      if (path.includes('/oauth-clients/'))
        return {
          description: "The client's id (a UUID) or its client_id (cl_…)",
          schema: { type: 'string', pattern: '^(?:[0-9a-fA-F-]{36}|cl_[A-Za-z0-9_-]{1,100})$' },
        };
      if (path.includes('/operators/') || path.includes('/tokens/'))
        return {
          description: path.includes('/tokens/') ? "The token's id" : "The operator's id",
          schema: { type: 'string', format: 'uuid' },
        };
      if (path.startsWith('/api/v1/events/'))
        return { description: "The event's id", schema: { type: 'string', format: 'uuid' } };
      if (path.includes('/notices/'))
        return { description: "The notice's id", schema: { type: 'string', pattern: '^[1-9][0-9]{0,18}$' } };
      return {
        description: "The order's id (an integer); anything else is a 404",
        schema: { type: 'string' },
      };
    default:
      return { description: name, schema: { type: 'string' } };
  }
}

/** Lists every path parameter (@nestjs/swagger misses those only a pipe reads) with its rule. */
export function declarePathParameters(path: string, operation: Operation): void {
  const others = (operation.parameters ?? []).filter(
    (parameter) => !('in' in parameter && parameter.in === 'path'),
  );
  const names = [...path.matchAll(/\{([^}]+)\}/g)].flatMap(([, name]) => (name ? [name] : []));
  operation.parameters = [
    ...names.map((name) => ({ name, in: 'path' as const, required: true, ...pathParameter(path, name) })),
    ...others,
  ];
}
