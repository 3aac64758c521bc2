// Builds the Nest application on Fastify from its dependencies; main.ts and the tests both use it.
import type { LoggerService } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { CanonicalJsonError, canonicalizeJson } from '@svc/protocol';
import type { Logger } from 'pino';

import { AppModule, type AppDependencies } from './app.module.js';
import { keepNumberText } from './common/decimal.js';
import { badRequest } from './common/errors.js';
import { answerClientError } from './common/client-errors.js';
import { checkContentTypes } from './common/content-type.js';
import { EnvelopeFastifyAdapter } from './common/envelope.js';
import { closeConnectionsWhenClosing } from './common/graceful-close.js';
import { echoRequestId, RequestLog, requestId } from './common/logger.js';
import { createValidationPipe } from './common/validation.js';
import { MetricsService } from './metrics/metrics.service.js';
import { setupOpenApi } from './openapi/openapi.js';
import { dropEmptyQueryValues } from './web/filter-forms.js';
import { PUBLIC_DIR } from './web/public-dir.js';
import { webPageRoutes } from './web/web-areas.js';
import { setupWebSecurity } from './web/web-security.js';

/** Every route of the api is under this prefix but those of operations. */
export const API_PREFIX = 'api/v1';
const UNPREFIXED_ROUTES = ['healthz', 'readyz', 'metrics'];

export async function createApp(deps: AppDependencies): Promise<NestFastifyApplication> {
  const adapter = new EnvelopeFastifyAdapter({
    loggerInstance: deps.logger,
    bodyLimit: deps.config.bodyLimitBytes,
    routerOptions: { ignoreTrailingSlash: true },
    // The id comes from requestId (X-Request-Id when sensible); one log line per request (RequestLog).
    requestIdHeader: false,
    genReqId: requestId,
    logController: new RequestLog(),
    trustProxy: true,
    clientErrorHandler: answerClientError,
  });
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(deps), adapter, {
    rawBody: true,
    logger: nestLogger(deps.logger),
  });
  app.setGlobalPrefix(API_PREFIX, { exclude: [...UNPREFIXED_ROUTES, ...webPageRoutes(app)] });
  app.useGlobalPipes(createValidationPipe());
  app.useBodyParser('application/json', { bodyLimit: deps.config.bodyLimitBytes }, parseJsonBody);
  const fastify = app.getHttpAdapter().getInstance();
  echoRequestId(fastify);
  checkContentTypes(fastify);
  closeConnectionsWhenClosing(fastify);
  app.get(MetricsService).measure(fastify);
  setupOpenApi(app);
  await setupWebSecurity(app);
  dropEmptyQueryValues(fastify);
  app.useStaticAssets({ root: PUBLIC_DIR, prefix: '/assets/', decorateReply: false });
  await app.init();
  return app;
}

/** Nest's own messages (module wiring, routes) through pino. */
function nestLogger(logger: Logger): LoggerService {
  const child = logger.child({ component: 'nest' });
  return {
    log: (message: unknown) => child.debug(String(message)),
    error: (message: unknown, trace?: unknown) => child.error({ trace }, String(message)),
    warn: (message: unknown) => child.warn(String(message)),
    debug: (message: unknown) => child.debug(String(message)),
    verbose: (message: unknown) => child.trace(String(message)),
  };
}

/**
 * JSON bodies are checked as the signature sees them: invalid JSON and duplicate keys are a 400 naming the
 * position, for bearer callers too (docs/api-guide.md#api-key-signing). Numbers keep their digits
 * (NumberText) so that amounts are never read through a double. Async on purpose: Fastify takes a synchronous
 * parser's return value for no answer and the request hangs.
 */
// eslint-disable-next-line @typescript-eslint/require-await
async function parseJsonBody(_request: unknown, body: Buffer): Promise<unknown> {
  if (body.length === 0) return undefined;
  const text = utf8Text(body);
  checkJsonBody(text);
  return JSON.parse(text, reviveBody as Parameters<typeof JSON.parse>[1]) as unknown;
}

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The body as text; bytes that are not UTF-8 are refused rather than replaced (they would sign alike). */
export function utf8Text(body: Buffer): string {
  try {
    return UTF8.decode(body);
  } catch {
    throw badRequest('body is not valid UTF-8');
  }
}

/** Keys that name the prototype machinery of a JavaScript object; no field of the api is called so. */
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

function reviveBody(this: unknown, key: string, value: unknown, context?: { source?: string }): unknown {
  if (FORBIDDEN_KEYS.has(key) && !Array.isArray(this)) {
    throw badRequest(`body: the key ${JSON.stringify(key)} is not accepted anywhere in a body`);
  }
  return keepNumberText(value, context?.source);
}

function checkJsonBody(text: string): void {
  try {
    canonicalizeJson(text);
  } catch (error) {
    if (error instanceof CanonicalJsonError) throw badRequest(`body: ${error.message}`);
    throw error;
  }
}
