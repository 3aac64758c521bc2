// The OpenAPI document, generated from the controllers by @nestjs/swagger and served raw at /openapi.json
// with Swagger UI at /docs (DESIGN section 10). Routes say who may call them with @Public, @RequireScope
// and @AdminOnly (auth/decorators.ts); the envelope is added here to every response a route does not
// describe itself.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { ALL_SCOPES } from '@svc/protocol';

import { orgSecurity, SECURITY_SCHEMES } from '../auth/decorators.js';

type Operation = NonNullable<OpenAPIObject['paths'][string]['get']>;
type SchemaObject = NonNullable<NonNullable<OpenAPIObject['components']>['schemas']>[string];

export const OPENAPI_JSON_PATH = '/openapi.json';
export const DOCS_PATH = '/docs';

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

const SCHEMAS: Record<string, SchemaObject> = {
  Envelope: {
    type: 'object',
    description: 'Every answer (spec 2.1): `code` repeats the HTTP status; `data` holds the result.',
    required: ['code', 'data', 'error'],
    properties: {
      code: { type: 'integer', example: 200 },
      data: { description: "The route's result" },
      error: { type: 'null' },
    },
  },
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
    description: 'HTTP 401 when a bearer token lacks the scope the route needs (spec 7): not the envelope.',
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
        'and X-SIGNATURE, spec 5.1) or a bearer token from POST /api/v1/oauth/token; the operator routes ' +
        '(/api/v1/admin) take the admin token.',
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
        'Lowercase hex HMAC-SHA256, under the API secret, of the canonical JSON of {body, query, url, ts} (spec 5.1). Each signature is accepted once.',
    })
    .addSecurity(SECURITY_SCHEMES.bearer, {
      type: 'http',
      scheme: 'bearer',
      description: `An access token from POST /api/v1/oauth/token (client credentials). A route's requirement names the scope it needs; READWRITE grants READ and WRITE. Scopes: ${ALL_SCOPES.join(', ')}.`,
    })
    .addSecurity(SECURITY_SCHEMES.admin, {
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'ADMIN_TOKEN',
      description: 'The operator token from the configuration (ADMIN_TOKEN).',
    });
  // The default for a route that declares nothing: the guard asks for an organisation's credentials.
  for (const requirement of orgSecurity()) builder.addSecurityRequirements(requirement);

  const document = SwaggerModule.createDocument(app, builder.build(), {
    operationIdFactory: (controller, method) => `${controller.replace(/Controller$/, '')}_${method}`,
  });
  document.components = { ...document.components, schemas: { ...SCHEMAS, ...document.components?.schemas } };
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (!operation) continue;
      declarePathParameters(path, operation);
      describeResponses(operation, operation.security ?? document.security ?? []);
    }
  }
  return document;
}

/** Serves the document at /openapi.json and Swagger UI at /docs, both public and raw. */
export function setupOpenApi(app: INestApplication): void {
  // Built on the first request: a start (and every test's app) does not pay for it.
  SwaggerModule.setup(DOCS_PATH, app, () => createOpenApiDocument(app), {
    jsonDocumentUrl: OPENAPI_JSON_PATH,
    raw: ['json'],
    customSiteTitle: 'svc platform API',
  });
}

/** A path parameter that only a custom pipe reads is not seen by @nestjs/swagger; OpenAPI needs it listed. */
function declarePathParameters(path: string, operation: Operation): void {
  const declared = new Set(
    (operation.parameters ?? []).flatMap((parameter) =>
      'in' in parameter && parameter.in === 'path' ? [parameter.name] : [],
    ),
  );
  for (const [, name] of path.matchAll(/\{([^}]+)\}/g)) {
    if (name === undefined || declared.has(name)) continue;
    operation.parameters = [
      ...(operation.parameters ?? []),
      { name, in: 'path', required: true, schema: { type: 'string' } },
    ];
  }
}

/** The envelope for what a route does not describe itself, and the error answers every route may give. */
function describeResponses(operation: Operation, security: Record<string, string[]>[]): void {
  for (const [status, response] of Object.entries(operation.responses)) {
    if (!/^2\d\d$/.test(status) || !response || !('description' in response) || response.content) continue;
    response.description ||= 'The envelope, with the result in `data`';
    response.content = json('Envelope');
  }
  if (security.some((requirement) => SECURITY_SCHEMES.bearer in requirement)) {
    operation.responses['401'] ??= {
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
  operation.responses.default ??= {
    description: 'Any failure: the envelope with `code` equal to the HTTP status',
    content: json('ErrorEnvelope'),
  };
}

function packageVersion(): string {
  const manifest = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as {
    version: string;
  };
  return manifest.version;
}
