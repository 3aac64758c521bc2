// Builds the Nest application on Fastify from its dependencies; main.ts and the tests both use it.
import { BadRequestException, type LoggerService } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { CanonicalJsonError, canonicalizeJson } from '@svc/protocol';
import type { Logger } from 'pino';

import { AppModule, type AppDependencies } from './app.module.js';
import { closeConnectionsWhenClosing } from './common/graceful-close.js';
import { echoRequestId, RequestLog, requestId } from './common/logger.js';
import { createValidationPipe } from './common/validation.js';
import { MetricsService } from './metrics/metrics.service.js';
import { setupOpenApi } from './openapi/openapi.js';

/** Every route of the api is under this prefix but those of operations. */
export const API_PREFIX = 'api/v1';
const UNPREFIXED_ROUTES = ['healthz', 'readyz', 'metrics'];

export async function createApp(deps: AppDependencies): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({
    loggerInstance: deps.logger,
    bodyLimit: deps.config.bodyLimitBytes,
    routerOptions: { ignoreTrailingSlash: true },
    // The id comes from requestId (X-Request-Id when sensible); one log line per request (RequestLog).
    requestIdHeader: false,
    genReqId: requestId,
    logController: new RequestLog(),
    trustProxy: true,
  });
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(deps), adapter, {
    rawBody: true,
    logger: nestLogger(deps.logger),
  });
  app.setGlobalPrefix(API_PREFIX, { exclude: UNPREFIXED_ROUTES });
  app.useGlobalPipes(createValidationPipe());
  app.useBodyParser('application/json', { bodyLimit: deps.config.bodyLimitBytes }, parseJsonBody);
  const fastify = app.getHttpAdapter().getInstance();
  echoRequestId(fastify);
  closeConnectionsWhenClosing(fastify);
  app.get(MetricsService).measure(fastify);
  setupOpenApi(app);
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
 * JSON bodies are checked as the signature sees them: invalid JSON and duplicate keys are a 400 naming
 * the position, for bearer callers too (DESIGN section 5). Async on purpose: Fastify takes a synchronous
 * parser's return value for no answer and the request hangs.
 */
// eslint-disable-next-line @typescript-eslint/require-await
async function parseJsonBody(_request: unknown, body: Buffer): Promise<unknown> {
  if (body.length === 0) return undefined;
  const text = body.toString('utf8');
  checkJsonBody(text);
  return JSON.parse(text) as unknown;
}

function checkJsonBody(text: string): void {
  try {
    canonicalizeJson(text);
  } catch (error) {
    if (error instanceof CanonicalJsonError) throw new BadRequestException(`body: ${error.message}`);
    throw error;
  }
}
