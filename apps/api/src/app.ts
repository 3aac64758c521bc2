// Builds the Nest application on Fastify from its dependencies; main.ts and the tests both use it.
import type { IncomingMessage } from 'node:http';

import {
  BadRequestException,
  type DynamicModule,
  type LoggerService,
  type RawBodyRequest,
  type Type,
} from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
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

export interface AppOptions {
  /**
   * The HTTP platform. Fastify is the service's; Express is there for the benchmark that compares the
   * two (bench/api.bench.mjs), a dev dependency loaded only when asked for.
   */
  readonly adapter?: 'fastify' | 'express';
  /**
   * Modules of AppModule to leave out. For that same benchmark: the KYC upload runs on Fastify's multipart
   * parser, which refuses to start on Express.
   */
  readonly without?: readonly Type[];
}

export function createApp(
  deps: AppDependencies,
  options?: AppOptions & { readonly adapter?: 'fastify' },
): Promise<NestFastifyApplication>;
export function createApp(
  deps: AppDependencies,
  options: AppOptions & { readonly adapter: 'express' },
): Promise<NestExpressApplication>;
export async function createApp(
  deps: AppDependencies,
  options: AppOptions = {},
): Promise<NestFastifyApplication | NestExpressApplication> {
  if (options.adapter === 'express') return createExpressApp(deps, options.without);
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
  const app = await NestFactory.create<NestFastifyApplication>(appModule(deps, options.without), adapter, {
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

/** The same application on Express, with the same raw-body JSON check and body limit. */
async function createExpressApp(
  deps: AppDependencies,
  without: readonly Type[] = [],
): Promise<NestExpressApplication> {
  const { ExpressAdapter } = await import('@nestjs/platform-express');
  const app = await NestFactory.create<NestExpressApplication>(
    appModule(deps, without),
    new ExpressAdapter(),
    {
      rawBody: true,
      bodyParser: false,
      logger: nestLogger(deps.logger),
    },
  );
  app.setGlobalPrefix(API_PREFIX, { exclude: UNPREFIXED_ROUTES });
  app.set('trust proxy', true);
  // Answer as the Fastify app does: no ETag, no X-Powered-By.
  app.set('etag', false);
  app.disable('x-powered-by');
  app.useGlobalPipes(createValidationPipe());
  const limit = deps.config.bodyLimitBytes;
  app.useBodyParser('json', { limit, strict: false });
  app.useBodyParser('urlencoded', { limit, extended: true });
  // After the JSON parser, the check of parseJsonBody (duplicate keys are a 400 too).
  app.use((request: RawBodyRequest<IncomingMessage>, _response: unknown, next: (error?: unknown) => void) => {
    const type = request.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
    try {
      if (type === 'application/json' && request.rawBody?.length)
        checkJsonBody(request.rawBody.toString('utf8'));
      next();
    } catch (error) {
      next(error);
    }
  });
  await app.init();
  return app;
}

function appModule(deps: AppDependencies, without: readonly Type[] = []): DynamicModule {
  const module = AppModule.forRoot(deps);
  if (without.length === 0) return module;
  return {
    ...module,
    imports: module.imports?.filter((imported) => !without.includes(imported as Type)) ?? [],
  };
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
