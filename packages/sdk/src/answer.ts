// One attempt's outcome: the api's answer turned into the envelope's data or a typed SvcError (the error
// mapping of docs/decisions.md, "SDK: the client"), and a fetch failure described for SvcNetworkError.
import { isEnvelope, isInsufficientScopeBody, isSuccessEnvelope } from '@svc/protocol';

import { SvcError, SvcPermissionError, SvcServerError, errorForStatus } from './errors.js';

export interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
}

export type Outcome<T> = { ok: true; data: T } | { ok: false; error: SvcError };

export function interpret<T>(
  answer: Answer,
  context: { method: string; path: string; attempts: number },
): Outcome<T> {
  const requestId = answer.headers.get('x-request-id') ?? undefined;
  let body: unknown;
  try {
    body = answer.text === '' ? undefined : JSON.parse(answer.text);
  } catch {
    body = undefined;
  }
  const details = { ...context, status: answer.status, requestId };
  if (answer.status === 200) {
    if (isEnvelope(body) && isSuccessEnvelope(body)) return { ok: true, data: body.data as T };
    return {
      ok: false,
      error: new SvcServerError(
        `${context.method} ${context.path}: HTTP 200 but the body is not a success envelope: ${preview(answer.text)}`,
        { ...details, errorText: undefined },
      ),
    };
  }
  if (answer.status === 401 && isInsufficientScopeBody(body)) {
    const requiredScope = /scope="([^"]*)"/.exec(answer.headers.get('www-authenticate') ?? '')?.[1];
    return {
      ok: false,
      error: new SvcPermissionError(
        `${context.method} ${context.path} failed with HTTP 401: ${body.message}${
          requestId === undefined ? '' : ` (request id ${requestId})`
        }`,
        { ...details, errorText: body.message, requiredScope },
      ),
    };
  }
  const errorText = isEnvelope(body)
    ? (body.error ?? undefined)
    : answer.text === ''
      ? undefined
      : preview(answer.text);
  const retryAfter = answer.headers.get('retry-after');
  return {
    ok: false,
    error: errorForStatus({
      ...details,
      errorText,
      retryAfter: retryAfter !== null && /^[0-9]+$/.test(retryAfter) ? Number(retryAfter) : undefined,
    }),
  };
}

function preview(text: string): string {
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

export function describeNetworkError(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | null)?.cause;
  const code = typeof cause?.code === 'string' ? cause.code : undefined;
  const message = typeof cause?.message === 'string' ? cause.message : (error as Error).message;
  return code === undefined ? `no answer (${message})` : `no answer (${code}: ${message})`;
}
