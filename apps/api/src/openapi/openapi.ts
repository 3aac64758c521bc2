// The OpenAPI document, generated from the controllers by @nestjs/swagger and served raw at /openapi.json
// with Swagger UI at /docs. Routes say who may call them with @Public, @RequireScope and @RequireRole
// (auth/decorators.ts) and what they answer with @ApiRoute (route.decorators.ts); here the failures every
// route of a kind gives, the path parameters' rules, and the tags are added (docs/decisions.md, "Operations:
// the OpenAPI document").
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { ALL_SCOPES } from '@svc/protocol';
import type { FastifyRequest } from 'fastify';

import { OPERATOR_EXTENSIONS, orgSecurity, SECURITY_SCHEMES } from '../auth/decorators.js';
import type { OperatorRole } from '../auth/roles.js';
import { CONSOLE_COOKIE } from '../common/session-cookie.js';
import { publicOrigin } from '../common/request-origin.js';
import { declareIdempotencyKey } from './idempotency-key.js';
import { declarePathParameters } from './path-parameters.js';
import { ERROR_DESCRIPTIONS, type ErrorStatus } from './route.decorators.js';
import { EVENT_SCHEMAS } from './event-schemas.js';
import { describeOperatorRoute, OPERATOR_SCHEMAS } from './operator-schemas.js';
import { VIEW_SCHEMAS } from './schemas.js';
import { WEBHOOK_SCHEMAS } from './webhook-schemas.js';
import { TAG_GROUPS, TAGS } from './tags.js';

type Operation = NonNullable<OpenAPIObject['paths'][string]['get']>;
type SchemaObject = NonNullable<NonNullable<OpenAPIObject['components']>['schemas']>[string];

export const OPENAPI_JSON_PATH = '/openapi.json';
export const DOCS_PATH = '/docs';

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

const SCHEMAS: Record<string, SchemaObject> = {
  ErrorEnvelope: {
    type: 'object',
    description:
      'A failure: `code` repeats the HTTP status; `error` says what was wrong (for 400, the field and the rule).',
    required: ['code', 'data', 'error'],
    properties: {
      code: { type: 'integer', example: 400 },
      data: { type: 'null' },
      error: { type: 'string', example: 'Bad Request: orgUserId must be a string' },
    },
  },
  InsufficientScope: {
    type: 'object',
    description: 'HTTP 401 when a bearer token lacks the scope the route needs: not the envelope.',
    required: ['message', 'status'],
    properties: {
      message: {
        type: 'string',
        example: 'You are not authorized to perform this action: it needs MANAGE_USERS:WRITE',
      },
      status: { type: 'integer', enum: [401] },
    },
  },
};

const json = (name: string) => ({ 'application/json': { schema: { $ref: `#/components/schemas/${name}` } } });

/** Builds the document from the application's controllers. */
export function createOpenApiDocument(app: INestApplication): OpenAPIObject {
  const builder = new DocumentBuilder()
    // 3.1, so that a bearer requirement may name the scope a route needs.
    .setOpenAPIVersion('3.1.0')
    .setTitle('svc platform API')
    .setDescription(
      'Organisations create their users, take them through KYC and place orders for them. Every answer is ' +
        'the envelope `{code, data, error}`. Authenticate with the API key headers (X-API-KEY, X-TIMESTAMP ' +
        'and X-SIGNATURE) or a bearer token from POST /api/v1/oauth/token. The operator routes ' +
        "(/api/v1/admin) take an operator's personal token or console session, and each names the role it " +
        'needs (x-operator-role) and whether it asks for a fresh second factor (x-step-up).',
    )
    .setVersion(packageVersion())
    .addSecurity(SECURITY_SCHEMES.apiKey, {
      type: 'apiKey',
      in: 'header',
      name: 'X-API-KEY',
      description: "The organisation's API key; sent with X-TIMESTAMP and X-SIGNATURE.",
    })
    .addSecurity(SECURITY_SCHEMES.timestamp, {
      type: 'apiKey',
      in: 'header',
      name: 'X-TIMESTAMP',
      description: 'Unix time in whole seconds when the request was signed.',
    })
    .addSecurity(SECURITY_SCHEMES.signature, {
      type: 'apiKey',
      in: 'header',
      name: 'X-SIGNATURE',
      description:
        'Lowercase hex HMAC-SHA256, under the API secret, of the canonical JSON of {body, query, url, ts}. Each signature is accepted once.',
    })
    .addSecurity(SECURITY_SCHEMES.bearer, {
      type: 'oauth2',
      description:
        "A bearer access token from POST /api/v1/oauth/token (client credentials). A route's requirement names the scope it needs; READWRITE grants READ and WRITE.",
      flows: {
        clientCredentials: {
          tokenUrl: '/api/v1/oauth/token',
          scopes: Object.fromEntries(ALL_SCOPES.map((scope) => [scope, scopeDescription(scope)])),
        },
      },
    })
    .addSecurity(SECURITY_SCHEMES.admin, {
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'ADMIN_TOKEN',
      description:
        'ADMIN_TOKEN from the configuration: taken only to create the first ADMIN operator, while none exists.',
    })
    .addSecurity(SECURITY_SCHEMES.operatorToken, {
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'op_…',
      description: "An operator's personal API token (POST /api/v1/admin/tokens): acts as that operator.",
    })
    .addSecurity(SECURITY_SCHEMES.operatorSession, {
      type: 'apiKey',
      in: 'cookie',
      name: CONSOLE_COOKIE.name,
      description:
        'A console session from POST /api/v1/admin/session; requests other than GET also send its X-CSRF-Token.',
    })
    .addSecurity(SECURITY_SCHEMES.clientBasic, {
      type: 'http',
      scheme: 'basic',
      description:
        'An OAuth client: client_id and client_secret, each form-urlencoded, as HTTP Basic user and password.',
    });
  for (const tag of TAGS) builder.addTag(tag.name, tag.description);
  // The default for a route that declares nothing: the guard asks for an organisation's credentials.
  for (const requirement of orgSecurity()) builder.addSecurityRequirements(requirement);

  const document = SwaggerModule.createDocument(app, builder.build(), {
    operationIdFactory: (controller, method) => `${controller.replace(/Controller$/, '')}_${method}`,
  });
  document.components = {
    ...document.components,
    schemas: {
      ...SCHEMAS,
      ...VIEW_SCHEMAS,
      ...WEBHOOK_SCHEMAS,
      ...OPERATOR_SCHEMAS,
      ...EVENT_SCHEMAS,
      ...document.components?.schemas,
    },
  };
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (!operation) continue;
      declarePathParameters(path, operation);
      const security = operation.security ?? document.security ?? [];
      declareIdempotencyKey(method, operation, security);
      describeResponses(path, operation, security);
    }
  }
  toJsonSchema2020(document);
  document.info.license = {
    name: 'Proprietary: all rights reserved',
    identifier: 'LicenseRef-Proprietary',
  } as NonNullable<OpenAPIObject['info']['license']>;
  // The organisation's routes first, then the operator's, then the probes: the order /docs shows.
  const rank = (path: string) => (path.startsWith('/api/v1/admin/') ? 1 : path.startsWith('/api/') ? 0 : 2);
  document.paths = Object.fromEntries(Object.entries(document.paths).sort(([a], [b]) => rank(a) - rank(b)));
  (document as OpenAPIObject & { 'x-tagGroups': unknown })['x-tagGroups'] = TAG_GROUPS.map((group) => ({
    name: group,
    tags: TAGS.filter((tag) => tag.group === group).map((tag) => tag.name),
  }));
  return document;
}

/**
 * Serves the document at /openapi.json and Swagger UI at /docs, both public and raw. Its one server, where
 * "Try it out" sends requests, is PUBLIC_URL, else where the request for the document was sent.
 */
export function setupOpenApi(app: INestApplication, publicUrl: string | null): void {
  // Built on the first request: a start (and every test's app) does not pay for it.
  SwaggerModule.setup(DOCS_PATH, app, () => createOpenApiDocument(app), {
    jsonDocumentUrl: OPENAPI_JSON_PATH,
    raw: ['json'],
    customSiteTitle: 'svc platform API',
    // Fastify's request: what Nest's Fastify adapter hands its routes.
    patchDocumentOnRequest: (request: unknown, _reply: unknown, document: OpenAPIObject) => ({
      ...document,
      servers: [
        {
          url: publicOrigin(request as FastifyRequest, publicUrl),
          description: 'This deployment',
        },
      ],
    }),
  });
}

/** Routes that answer without reading PostgreSQL. */
const NO_DATABASE = new Set(['/healthz']);

/** The failures every route of a kind gives, added to those it declares (route.decorators.ts). */
function describeResponses(path: string, operation: Operation, security: Record<string, string[]>[]): void {
  const derived: ErrorStatus[] = [];
  if (operation.requestBody || operation.parameters?.length) derived.push(400);
  if (security.length > 0) derived.push(401);
  if (operation.requestBody) derived.push(413, 415);
  if (!NO_DATABASE.has(path)) derived.push(503);
  for (const status of derived) {
    operation.responses[status] ??= {
      description: ERROR_DESCRIPTIONS[status],
      content: json('ErrorEnvelope'),
    };
  }
  const role = (operation as unknown as Record<string, unknown>)[OPERATOR_EXTENSIONS.role] as
    OperatorRole | undefined;
  if (role !== undefined) describeOperatorRoute(operation, role);
  if (security.some((requirement) => SECURITY_SCHEMES.bearer in requirement)) {
    operation.responses['401'] = {
      description:
        'Missing or bad credentials (envelope), or a bearer token without the scope the route needs ({message, status})',
      content: {
        'application/json': {
          schema: {
            oneOf: [
              { $ref: '#/components/schemas/ErrorEnvelope' },
              { $ref: '#/components/schemas/InsufficientScope' },
            ],
          },
        },
      },
    };
  }
  if (!Object.keys(operation.responses).some((status) => status.startsWith('4'))) {
    // Every route, even one that reads nothing from the request: the HTTP layer refuses a malformed request.
    operation.responses['4XX'] = {
      description: 'A request the HTTP layer refuses (malformed request line or headers, headers too large)',
    };
  }
  operation.responses.default ??= {
    description: 'Any other failure (500): the envelope with `code` equal to the HTTP status',
    content: json('ErrorEnvelope'),
  };
  operation.responses = Object.fromEntries(
    Object.entries(operation.responses).sort(([a], [b]) =>
      a === 'default' ? 1 : b === 'default' ? -1 : a < b ? -1 : 1,
    ),
  );
}

/**
 * @nestjs/swagger writes some OpenAPI 3.0 keywords even in a 3.1 document: `nullable` and boolean
 * `exclusiveMinimum`/`exclusiveMaximum`. Rewritten as JSON Schema 2020-12 says them, in place.
 */
function toJsonSchema2020(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) toJsonSchema2020(item);
    return;
  }
  if (typeof node !== 'object' || node === null) return;
  const schema = node as Record<string, unknown>;
  if (schema.nullable === true) {
    delete schema.nullable;
    if (typeof schema.type === 'string') schema.type = [schema.type, 'null'];
  }
  if (typeof schema.exclusiveMinimum === 'boolean') {
    if (schema.exclusiveMinimum) {
      schema.exclusiveMinimum = schema.minimum;
      delete schema.minimum;
    } else {
      delete schema.exclusiveMinimum;
    }
  }
  if (typeof schema.exclusiveMaximum === 'boolean') {
    if (schema.exclusiveMaximum) {
      schema.exclusiveMaximum = schema.maximum;
      delete schema.maximum;
    } else {
      delete schema.exclusiveMaximum;
    }
  }
  for (const value of Object.values(schema)) toJsonSchema2020(value);
}

function scopeDescription(scope: string): string {
  const [module, permission] = scope.split(':');
  const what =
    module === 'MANAGE_USERS' ? 'users and their KYC' : 'orders, positions, webhooks and the organisation';
  const how = permission === 'READ' ? 'read' : permission === 'WRITE' ? 'change' : 'read and change';
  return `${how} ${what}`;
}

function packageVersion(): string {
  const manifest = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as {
    version: string;
  };
  return manifest.version;
}
