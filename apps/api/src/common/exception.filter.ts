// The one exception filter: every failure leaves as the envelope with `code` equal to the HTTP status
// (docs/api-guide.md#errors), except a bearer token without the required scope, which gets the API guide's
// {message, status} body (docs/api-guide.md#errors). A 500 says nothing of internals; its error id is in the
// log. It also writes the answer kept under an Idempotency-Key when a repeat gets it instead of running
// (docs/api-guide.md#idempotent-retries): as kept, byte for byte.
import { randomUUID } from 'node:crypto';

import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException, Inject } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { errorEnvelope, insufficientScopeBody } from '@svc/protocol';
import type { FastifyRequest } from 'fastify';
import type { Logger } from 'pino';

import type { EnvelopeFastifyAdapter } from './envelope.js';
import { AppError, ERRORS, errorMessage, InsufficientScopeError, statusText } from './errors.js';
import { LOGGER } from './logger.js';
import { ReplayedAnswer } from '../idempotency/idempotency.service.js';
import { ErrorPage } from '../web/components/error-page.js';
import { renderHtml } from '../web/web-answer.js';
import { signedOutAnswer } from '../web/signed-out-answer.js';
import { webAreaHome, webAreaOf } from '../web/web-areas.js';

/** Errors meaning PostgreSQL is not reachable (connection refused or dropped, shutting down, too busy). */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  '57P01',
  '57P02',
  '57P03',
  '53300',
]);

@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  constructor(
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const { httpAdapter } = this.adapterHost;
    // Not enveloped again: these bodies are the error envelope (or a page) already.
    const adapter = httpAdapter as unknown as EnvelopeFastifyAdapter;
    const reply = host.switchToHttp().getResponse<unknown>();
    const request = host.switchToHttp().getRequest<FastifyRequest>();

    if (exception instanceof ReplayedAnswer) {
      for (const [name, value] of Object.entries(exception.headers))
        httpAdapter.setHeader(reply, name, value);
      adapter.replyAsIs(reply, exception.answer.body, exception.answer.status);
      return;
    }
    if (exception instanceof InsufficientScopeError) {
      const challenge = `Bearer error="insufficient_scope", scope="${exception.required}"`;
      httpAdapter.setHeader(reply, 'www-authenticate', challenge);
      adapter.replyAsIs(reply, insufficientScopeBody(exception.required), 401);
      return;
    }
    const { status, message, headers } = this.describe(exception, request);
    for (const [name, value] of Object.entries(headers)) httpAdapter.setHeader(reply, name, value);
    const area = webAreaOf(request.url);
    if (area) {
      // A web area's failures are pages (web/components/error-page.tsx), never cached.
      httpAdapter.setHeader(reply, 'content-type', 'text/html; charset=utf-8');
      httpAdapter.setHeader(reply, 'cache-control', 'no-store');
      const signedOut = status === 401 ? signedOutAnswer(area, request) : null;
      if (signedOut?.kind === 'redirect') {
        httpAdapter.setHeader(reply, 'location', signedOut.location);
        adapter.replyAsIs(reply, '', 303);
        return;
      }
      if (signedOut?.kind === 'reload') {
        // The header too (the page refreshes itself anyway), when the URL is plain ASCII as a header needs.
        if (/^[\x21-\x7e]+$/.test(signedOut.location)) {
          httpAdapter.setHeader(reply, 'refresh', `0; url=${signedOut.location}`);
        }
        adapter.replyAsIs(reply, signedOut.html, 200);
        return;
      }
      // A refused form (CSRF token, Origin) is no matter of permissions: the area's hint would mislead.
      const refusedForm = exception instanceof AppError && exception.code === 'form_refused';
      const home = webAreaHome(area);
      const hint = refusedForm ? undefined : home.hints[status];
      adapter.replyAsIs(reply, renderHtml(ErrorPage({ status, message, hint, area: home })), status);
      return;
    }
    adapter.replyAsIs(reply, errorEnvelope(status, message), status);
  }

  private describe(
    exception: unknown,
    request: FastifyRequest,
  ): { status: number; message: string; headers: Readonly<Record<string, string>> } {
    if (exception instanceof AppError) {
      return { status: exception.status, message: exception.message, headers: exception.headers };
    }
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      if (status === 404 && isNoRoute(exception) && !SERVED_METHODS.includes(request.method)) {
        const { status: notAllowed, text } = ERRORS.method_not_allowed;
        return {
          status: notAllowed,
          message: errorMessage(text, `${request.method.slice(0, 20)} is not served`),
          headers: { allow: SERVED_METHODS.join(', ') },
        };
      }
      return { status, message: httpExceptionMessage(exception, status, request), headers: {} };
    }
    if (isUnavailable(exception)) {
      this.logger.warn({ err: exception, reqId: request.id }, 'database unavailable');
      const { status, text } = ERRORS.unavailable;
      return {
        status,
        message: errorMessage(text, 'the database cannot be reached, retry later'),
        headers: { 'retry-after': '5' },
      };
    }
    const errorId = randomUUID();
    this.logger.error({ err: exception, errorId, reqId: request.id }, 'unhandled error');
    const { status, text } = ERRORS.internal;
    return { status, message: `${text} (error id ${errorId})`, headers: {} };
  }
}

/** The methods some route serves; any other (TRACE, CONNECT...) is a 405 on every path. */
const SERVED_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** Nest's 404 for a path no route serves. */
function isNoRoute(exception: HttpException): boolean {
  return /^Cannot [A-Z-]+ /.test(exception.message);
}

function httpExceptionMessage(exception: HttpException, status: number, request: FastifyRequest): string {
  if (status === 404 && isNoRoute(exception)) {
    return errorMessage(statusText(404), `no route ${request.method} ${request.url.split('?')[0] ?? ''}`);
  }
  const response = exception.getResponse();
  const message = typeof response === 'string' ? response : (response as { message?: unknown }).message;
  const detail = Array.isArray(message)
    ? message.join('; ')
    : typeof message === 'string'
      ? message
      : exception.message;
  return errorMessage(statusText(status), detail);
}

/**
 * Whether `error` (or the driver error TypeORM wraps in it) says PostgreSQL is out of reach: refused or
 * dropped connections, a client the pool marked broken, a server shutting down or out of connections.
 */
function isUnavailable(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 3) return false;
  const { code, message, driverError } = error as {
    code?: unknown;
    message?: unknown;
    driverError?: unknown;
  };
  if (typeof code === 'string' && UNAVAILABLE_CODES.has(code)) return true;
  if (
    typeof message === 'string' &&
    /Connection terminated|connect ECONNREFUSED|timeout exceeded when trying to connect|not queryable|Connection ended|terminating connection|Client was closed/i.test(
      message,
    )
  )
    return true;
  return isUnavailable(driverError, depth + 1);
}
