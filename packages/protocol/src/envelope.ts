// The response envelope of every endpoint (docs/api-guide.md#the-envelope, docs/api-guide.md#errors), and the
// one body that is not enveloped: the 401 for a bearer token without the required scope
// (docs/api-guide.md#errors).

export interface Envelope<T> {
  /** Mirrors the HTTP status. */
  readonly code: number;
  readonly data: T | null;
  readonly error: string | null;
}

export interface SuccessEnvelope<T> extends Envelope<T> {
  readonly code: 200;
  readonly data: T;
  readonly error: null;
}

export interface ErrorEnvelope extends Envelope<never> {
  readonly data: null;
  readonly error: string;
}

export function successEnvelope<T>(data: T): SuccessEnvelope<T> {
  return { code: 200, data, error: null };
}

export function errorEnvelope(code: number, error: string): ErrorEnvelope {
  if (!Number.isInteger(code) || code < 400 || code > 599) {
    throw new RangeError(`an error envelope carries an HTTP error status, got ${String(code)}`);
  }
  return { code, data: null, error };
}

/** The success check (docs/api-guide.md#the-envelope): envelope code 200, error empty, data present. */
export function isSuccessEnvelope<T>(body: Envelope<T>): body is SuccessEnvelope<T> {
  return body.code === 200 && (body.error === null || body.error === '') && body.data != null;
}

/** Whether `value` has the envelope's shape: `code` an integer, `data` present, `error` string or null. */
export function isEnvelope(value: unknown): value is Envelope<unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const body = value as Record<string, unknown>;
  return (
    Number.isInteger(body.code) && 'data' in body && (body.error === null || typeof body.error === 'string')
  );
}

/** Body of HTTP 401 when a bearer token lacks the endpoint's permission (docs/api-guide.md#errors). */
export interface InsufficientScopeBody {
  readonly message: string;
  readonly status: 401;
}

export function insufficientScopeBody(required: string): InsufficientScopeBody {
  return { message: `You are not authorized to perform this action: it needs ${required}`, status: 401 };
}

export function isInsufficientScopeBody(value: unknown): value is InsufficientScopeBody {
  if (typeof value !== 'object' || value === null) return false;
  const body = value as Record<string, unknown>;
  return body.status === 401 && typeof body.message === 'string' && !('code' in body);
}
