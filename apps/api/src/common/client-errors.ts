// Requests Node refuses before Fastify or a route sees them (headers too large, malformed HTTP, a request
// that took too long to arrive) still get the envelope, then the connection is closed.
import type { Socket } from 'node:net';

import { errorEnvelope } from '@svc/protocol';

import { ERRORS, type ErrorCode, errorMessage } from './errors.js';

const CLIENT_ERRORS: Readonly<Record<string, { code: ErrorCode; detail: string }>> = {
  HPE_HEADER_OVERFLOW: { code: 'headers_too_large', detail: 'the request headers are over the size limit' },
  ERR_HTTP_REQUEST_TIMEOUT: { code: 'request_timeout', detail: 'the request did not arrive in time' },
};

/** Fastify's clientErrorHandler: one envelope answer, then the socket closes. */
export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const known = error.code ? CLIENT_ERRORS[error.code] : undefined;
  const code: ErrorCode = known?.code ?? 'bad_request';
  const { status, text } = ERRORS[code];
  const body = JSON.stringify(
    errorEnvelope(status, errorMessage(text, known?.detail ?? 'malformed HTTP request')),
  );
  socket.end(
    `HTTP/1.1 ${status} ${text}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  );
}
