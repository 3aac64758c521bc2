// Errors the services raise on purpose. Each carries a code; the one exception filter maps it to its HTTP
// status and the envelope (docs/api-guide.md#errors). A message is the code's text, then what was wrong:
// `Bad Request: orgUserId must be a string`. Callers write only the second part.

/** Each code's HTTP status and the text its messages start with. */
export const ERRORS = {
  bad_request: { status: 400, text: 'Bad Request' },
  unauthenticated: { status: 401, text: 'Unauthorized' },
  /** docs/api-guide.md#oauth-client-credentials: the token endpoint refuses bad credentials or scopes with exactly this, and nothing more. */
  token_refused: { status: 401, text: 'Forbidden' },
  forbidden: { status: 403, text: 'Forbidden' },
  /**
   * A web page's form refused before any rule of the caller's was looked at: its CSRF token or its Origin
   * is not this site's. A 403 as `forbidden`, but its page gives no hint about permissions or roles.
   */
  form_refused: { status: 403, text: 'Forbidden' },
  not_found: { status: 404, text: 'Not Found' },
  method_not_allowed: { status: 405, text: 'Method Not Allowed' },
  request_timeout: { status: 408, text: 'Request Timeout' },
  conflict: { status: 409, text: 'Conflict' },
  payload_too_large: { status: 413, text: 'Payload Too Large' },
  unsupported_media_type: { status: 415, text: 'Unsupported Media Type' },
  unprocessable: { status: 422, text: 'Unprocessable Content' },
  rate_limited: { status: 429, text: 'Too Many Requests' },
  headers_too_large: { status: 431, text: 'Request Header Fields Too Large' },
  internal: { status: 500, text: 'Internal Server Error' },
  unavailable: { status: 503, text: 'Service Unavailable' },
} as const satisfies Record<string, { status: number; text: string }>;

export type ErrorCode = keyof typeof ERRORS;

/** The text of a status that Nest or Fastify raised itself; the first code with that status names it. */
export function statusText(status: number): string {
  return Object.values(ERRORS).find((error) => error.status === status)?.text ?? 'Error';
}

/** The longest error text answered: texts that echo input (a field name, a key) stay short. */
export const MAX_ERROR_TEXT = 1000;

/** `Text: detail`, or the text alone when there is no detail (or the detail only repeats it); capped. */
export function errorMessage(text: string, detail?: string): string {
  const message = detail && detail !== text ? `${text}: ${detail}` : text;
  return message.length > MAX_ERROR_TEXT ? `${message.slice(0, MAX_ERROR_TEXT - 1)}…` : message;
}

/** A value from the request as an error text quotes it: JSON-quoted, at most `max` characters of it. */
export function quoted(value: string, max = 100): string {
  return JSON.stringify(value.length > max ? `${value.slice(0, max)}…` : value);
}

export class AppError extends Error {
  override readonly name = 'AppError';

  constructor(
    readonly code: ErrorCode,
    /** What was wrong, without the code's text, e.g. `orgUserId must be a string`. */
    readonly detail?: string,
    /** Extra response headers, e.g. Retry-After or WWW-Authenticate. */
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(errorMessage(ERRORS[code].text, detail));
  }

  get status(): number {
    return ERRORS[this.code].status;
  }
}

/**
 * A bearer token lacks the permission the route needs (docs/api-guide.md#errors, RFC 6750 section 3.1):
 * answered with the spec's {message, status} body rather than the envelope.
 */
export class InsufficientScopeError extends Error {
  override readonly name = 'InsufficientScopeError';

  constructor(readonly required: string) {
    super(`insufficient scope: ${required} required`);
  }
}

export const badRequest = (detail: string) => new AppError('bad_request', detail);
export const unauthenticated = (detail: string, headers?: Readonly<Record<string, string>>) =>
  new AppError('unauthenticated', detail, headers);
export const forbidden = (detail: string) => new AppError('forbidden', detail);
export const formRefused = (detail: string) => new AppError('form_refused', detail);
export const notFound = (detail: string) => new AppError('not_found', detail);
export const conflict = (detail: string) => new AppError('conflict', detail);
export const unsupportedMediaType = (detail: string) => new AppError('unsupported_media_type', detail);
export const unprocessable = (detail: string) => new AppError('unprocessable', detail);
export const rateLimited = (retryAfterSeconds: number) =>
  new AppError('rate_limited', `retry in ${retryAfterSeconds} s`, {
    'retry-after': String(retryAfterSeconds),
  });
export const unavailable = (detail: string) => new AppError('unavailable', detail, { 'retry-after': '5' });
