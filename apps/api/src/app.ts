// Builds the Nest application on Fastify from its dependencies; main.ts and the tests both use it.
import type { LoggerService } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Logger } from 'pino';

import { AppModule, type AppDependencies } from './app.module.js';
import { answerClientError } from './common/client-errors.js';
import { EnvelopeFastifyAdapter } from './common/envelope.js';
import { closeConnectionsWhenClosing } from './common/graceful-close.js';
import { RequestLog, requestChildLogger, requestId } from './common/logger.js';
import { declareCanonicalBody, parseJsonBody } from './common/json-body.js';
import { addRequestHook } from './common/request-hooks.js';
import { createValidationPipe } from './common/validation.js';
import { MetricsService } from './metrics/metrics.service.js';
import { declareIdempotencyClaim } from './idempotency/claimed-request.js';
import { keepIdempotentAnswers } from './idempotency/answer-hook.js';
import { IdempotencyService } from './idempotency/idempotency.service.js';
import { setupOpenApi } from './openapi/openapi.js';
import { PDFJS_DIR, PDFJS_FILES, PUBLIC_DIR } from './web/public-dir.js';
import { webPageRoutes } from './web/web-areas.js';

/** Every route of the api is under this prefix but those of operations. */
export const API_PREFIX = 'api/v1';
const UNPREFIXED_ROUTES = ['healthz', 'readyz', 'metrics'];

export async function createApp(deps: AppDependencies): Promise<NestFastifyApplication> {
  const requestLog = new RequestLog();
  const adapter = new EnvelopeFastifyAdapter({
    loggerInstance: deps.logger,
    bodyLimit: deps.config.bodyLimitBytes,
    routerOptions: { ignoreTrailingSlash: true },
    // The id comes from requestId (X-Request-Id when sensible); one log line per request (RequestLog).
    requestIdHeader: false,
    genReqId: requestId,
    logController: requestLog,
    childLoggerFactory: requestChildLogger,
    // Forwarded headers only from the proxies TRUST_PROXY names (docs/configuration.md): anyone else
    // could pick the address the throttles and the audit log see, and the host links are built on.
    trustProxy: deps.config.trustProxy.length > 0 ? [...deps.config.trustProxy] : false,
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
  declareCanonicalBody(fastify);
  addRequestHook(fastify);
  declareIdempotencyClaim(fastify);
  keepIdempotentAnswers(fastify, app.get(IdempotencyService));
  closeConnectionsWhenClosing(fastify);
  app.get(MetricsService).measure(requestLog);
  setupOpenApi(app, deps.config.publicUrl);
  app.useStaticAssets({ root: PUBLIC_DIR, prefix: '/assets/', decorateReply: false });
  app.useStaticAssets({
    root: PDFJS_DIR,
    prefix: '/assets/pdfjs/',
    decorateReply: false,
    allowedPath: (path: string) => PDFJS_FILES.includes(path.replace(/^\//, '')),
  });
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
