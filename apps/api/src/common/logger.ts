// pino, JSON logs with secrets redacted (DESIGN section 10). Fastify logs each request with its id.
import { pino, type Logger } from 'pino';

export const LOGGER = Symbol('LOGGER');

/** Paths that may hold a secret; their values never reach the log. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers["x-signature"]',
  'req.headers.cookie',
  '*.apiSecret',
  '*.clientSecret',
  '*.client_secret',
  '*.secret',
  '*.password',
  '*.access_token',
  '*.adminToken',
];

export function createLogger(level: string): Logger {
  return pino({
    level,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    base: { service: 'api' },
  });
}
