// The api's logs (JSON, secrets redacted, docs/decisions.md, "Operations: logs and request ids"): one line
// per request with its id, which the caller may choose (X-Request-Id) and always gets back.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

import { type FastifyBaseLogger, type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import { createServiceLogger } from '@svc/runtime';
import type { Bindings, ChildLoggerOptions, DestinationStream, LevelWithSilentOrString, Logger } from 'pino';

export const LOGGER = Symbol('LOGGER');

/** The api's logger: @svc/runtime's, secrets redacted as in the worker's. */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  return createServiceLogger('api', level, destination);
}

const REQUEST_ID_HEADER = 'x-request-id';
/** What an incoming X-Request-Id may be; anything else is replaced, so ids stay safe to log and index. */
const REQUEST_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

/** Fastify's genReqId: the caller's X-Request-Id when it is sensible, else a new UUID. */
export function requestId(request: IncomingMessage): string {
  const incoming = request.headers[REQUEST_ID_HEADER];
  return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

/** Returns the request id to the caller as X-Request-Id, on every answer (common/request-hooks.ts). */
export function echoRequestId(request: FastifyRequest, reply: FastifyReply): void {
  void reply.header(REQUEST_ID_HEADER, request.id);
}

/**
 * Fastify's childLoggerFactory: each request's logger (its `reqId` binding) is made when a line is first
 * written at an enabled level, not for every request. A pino child with the redaction paths costs about 5 %
 * of the bearer echo's CPU (for its target: docs/decisions.md, "Request path: the request logger made at
 * first write"), and a request that succeeds at LOG_LEVEL warn writes nothing. A route with its own log level
 * or serializers gets its child at once, as Fastify would make it.
 */
export function requestChildLogger(
  logger: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger {
  if (options.level !== undefined || options.serializers !== undefined)
    return logger.child(bindings, options);
  return new LazyChildLogger(logger as Logger, bindings);
}

/** A pino child made on first use; what only reads the level asks the parent (the child inherits it). */
class LazyChildLogger implements FastifyBaseLogger {
  private made: Logger | undefined;

  constructor(
    private readonly parent: Logger,
    private readonly bindings: Bindings,
  ) {}

  private get logger(): Logger {
    return (this.made ??= this.parent.child(this.bindings));
  }

  get level(): LevelWithSilentOrString {
    return this.made ? this.made.level : this.parent.level;
  }

  set level(level: LevelWithSilentOrString) {
    this.logger.level = level;
  }

  isLevelEnabled(level: LevelWithSilentOrString): boolean {
    return (this.made ?? this.parent).isLevelEnabled(level);
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.logger.child(bindings, options);
  }

  fatal(...args: Parameters<Logger['fatal']>): void {
    if (this.isLevelEnabled('fatal')) this.logger.fatal(...args);
  }

  error(...args: Parameters<Logger['error']>): void {
    if (this.isLevelEnabled('error')) this.logger.error(...args);
  }

  warn(...args: Parameters<Logger['warn']>): void {
    if (this.isLevelEnabled('warn')) this.logger.warn(...args);
  }

  info(...args: Parameters<Logger['info']>): void {
    if (this.isLevelEnabled('info')) this.logger.info(...args);
  }

  debug(...args: Parameters<Logger['debug']>): void {
    if (this.isLevelEnabled('debug')) this.logger.debug(...args);
  }

  trace(...args: Parameters<Logger['trace']>): void {
    if (this.isLevelEnabled('trace')) this.logger.trace(...args);
  }

  silent(): void {}
}

/** Told of each request Fastify has answered (MetricsService times them). */
export type AnsweredRequestListener = (request: FastifyRequest, reply: FastifyReply) => void;

/**
 * Fastify's request log: one line per request when it is answered (in place of its two): method, URL with
 * secret query values redacted, route pattern, status and duration. Headers and bodies are never logged.
 * Fastify calls it on every answer, so the listeners given to `onAnswered` are told there too, at no hook's
 * cost (an onResponse hook is a dispatch more on every request; for the bearer echo target:
 * docs/decisions.md, "Request path: no hook for occasional work").
 */
export class RequestLog extends LogController {
  private readonly listeners: AnsweredRequestListener[] = [];

  onAnswered(listener: AnsweredRequestListener): void {
    this.listeners.push(listener);
  }

  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    for (const listener of this.listeners) listener(request, reply);
    // At LOG_LEVEL warn or above a success writes nothing: build no line for it (request.ip alone parses
    // X-Forwarded-For).
    if (!error && !(request.log as Logger).isLevelEnabled('info')) return;
    const line = {
      method: request.method,
      url: redactUrl(request.url),
      route: request.routeOptions.url,
      statusCode: reply.statusCode,
      responseTime: Math.round(reply.elapsedTime * 10) / 10,
      remoteAddress: request.ip,
    };
    if (error) request.log.error({ ...line, err: error }, 'request errored');
    else request.log.info(line, 'request completed');
  }
}

const SECRET_QUERY_KEY = /secret|token|signature|password|api[-_]?key/i;

/** The URL with the values of query parameters whose name suggests a secret replaced. */
export function redactUrl(url: string): string {
  const question = url.indexOf('?');
  if (question === -1) return url;
  const pairs = url
    .slice(question + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      if (equals === -1) return pair;
      const key = pair.slice(0, equals);
      return SECRET_QUERY_KEY.test(decodeName(key)) ? `${key}=[redacted]` : pair;
    });
  return `${url.slice(0, question)}?${pairs.join('&')}`;
}

function decodeName(key: string): string {
  try {
    return decodeURIComponent(key.replace(/\+/g, ' '));
  } catch {
    return key;
  }
}
