// pino, JSON logs with secrets redacted (docs/decisions.md, "Operations: logs and request ids"), the same for
// the api and the worker.
import { type DestinationStream, pino, type Logger } from 'pino';

/** Fields that hold a secret, wherever an object carrying them is logged. */
const SECRET_FIELDS = [
  'apiSecret',
  'clientSecret',
  'client_secret',
  'secret',
  'password',
  'access_token',
  'accessToken',
  'adminToken',
  'masterKey',
  'authorization',
  // Operators' credentials (docs/operators.md).
  'token',
  'setupToken',
  'totpSecret',
  'otpauthUri',
  'csrfToken',
  'passwordHash',
  'totpSecretCiphertext',
  'tokenHash',
  'oidcClientSecret',
];
const SECRET_HEADERS = [
  'authorization',
  '["x-api-key"]',
  '["x-signature"]',
  'cookie',
  '["set-cookie"]',
  '["x-csrf-token"]',
];

/** Paths that may hold a secret; their values never reach the log. */
export const REDACTED_PATHS = [
  ...SECRET_HEADERS.flatMap((header) => {
    const path = header.startsWith('[') ? `headers${header}` : `headers.${header}`;
    return [path, `*.${path}`];
  }),
  ...SECRET_FIELDS.flatMap((field) => [field, `*.${field}`]),
];

/** The logger of `service` (its `service` field), to stdout unless `destination` is given. */
export function createServiceLogger(service: string, level: string, destination?: DestinationStream): Logger {
  const options = { level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' }, base: { service } };
  return destination ? pino(options, destination) : pino(options);
}
