// One request to the api: authentication (signature or bearer token), the timeout, retries for what is
// safe to repeat (retry-policy.ts), and the answer turned into data or a typed error (answer.ts). Every
// attempt is signed afresh, and no signature is ever sent twice (the api refuses replays). Every write
// carries an Idempotency-Key, the same on each attempt, which makes it safe to repeat
// (docs/api-guide.md#idempotent-retries).
import { CanonicalJsonError } from '@svc/protocol';

import { describeNetworkError, interpret, type Answer } from './answer.js';
import {
  SvcError,
  SvcNetworkError,
  SvcPermissionError,
  SvcServerError,
  SvcTimeoutError,
  SvcValidationError,
} from './errors.js';
import { backoffDelay, parseRetryAfter, sleep, type RetryPolicy } from './retry-policy.js';

/** The part of `fetch` the client uses; pass your own (svix's `fetch` option) to add tracing or proxies. */
export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

export const DEFAULT_TIMEOUT_MS = 30_000;

/** Per-call options, accepted as the last argument of every method. */
export interface RequestOptions {
  /** Overrides the client's timeout for this call (per attempt). */
  readonly timeoutMs?: number;
  /** Overrides the client's retry count for this call. */
  readonly maxRetries?: number;
  /** Aborts the call (no retry after an abort). */
  readonly signal?: AbortSignal;
  /**
   * The Idempotency-Key of a write (POST, PATCH, DELETE), sent on each of its attempts: a random UUID unless
   * given. Give your own to make a call safe to repeat across restarts of your process: the api answers the
   * same key and request with the first answer for 24 hours, without running it again.
   */
  readonly idempotencyKey?: string;
}

export type RequestBody =
  | { readonly kind: 'json'; readonly value: unknown }
  /** Raw JSON text, sent and signed exactly as given. */
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'form'; readonly fields: URLSearchParams }
  | { readonly kind: 'multipart'; readonly form: FormData };

export type QueryValue = string | number | boolean | undefined;

export interface ApiRequest {
  readonly method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** Path as sent and signed, e.g. `/api/v1/user/`. */
  readonly path: string;
  /** An object (undefined values left out, in its key order) or a raw query string. */
  readonly query?: Readonly<Record<string, QueryValue>> | string;
  readonly body?: RequestBody;
  /**
   * Whether the request may be repeated after a failure without an Idempotency-Key (GET, the token
   * request); a write with a key may be in any case.
   */
  readonly idempotent: boolean;
  /** 'none' for the token request. */
  readonly auth?: 'client' | 'none';
}

/** How requests are authenticated; the client picks one from its options. */
export interface Authenticator {
  /** Headers for one attempt. */
  headers(request: { path: string; query: string; body: string }): Promise<Record<string, string>>;
  /** Called once on a 401 envelope: true when a retry with fresh credentials is worth it. */
  refreshAfterUnauthorized?(headers: Record<string, string>): boolean;
}

export interface TransportOptions {
  readonly baseUrl: string;
  readonly fetch: FetchLike;
  readonly timeoutMs: number;
  readonly retry: RetryPolicy;
  readonly userAgent: string;
  /** The clock, in ms (tests). */
  readonly now: () => number;
}

export class Transport {
  private authenticator: Authenticator | undefined;

  constructor(readonly options: TransportOptions) {}

  useAuthenticator(authenticator: Authenticator): void {
    this.authenticator = authenticator;
  }

  /** Sends `request` and answers the envelope's data, or throws an SvcError. */
  async request<T>(request: ApiRequest, callOptions: RequestOptions = {}): Promise<T> {
    const query = queryString(request.query);
    const url = `${this.options.baseUrl}${request.path}${query === '' ? '' : `?${query}`}`;
    const { bodyText, body, contentType } = encodeBody(request.body);
    const idempotencyKey = carriesKey(request)
      ? (callOptions.idempotencyKey ?? globalThis.crypto.randomUUID())
      : undefined;
    const retryable = request.idempotent || idempotencyKey !== undefined;
    const maxRetries = retryable ? (callOptions.maxRetries ?? this.options.retry.maxRetries) : 0;
    const timeoutMs = callOptions.timeoutMs ?? this.options.timeoutMs;
    let refreshed = false;
    for (let attempt = 1; ; attempt++) {
      const headers: Record<string, string> = {
        accept: 'application/json',
        'user-agent': this.options.userAgent,
      };
      if (contentType !== undefined) headers['content-type'] = contentType;
      if (idempotencyKey !== undefined) headers['idempotency-key'] = idempotencyKey;
      if (request.auth !== 'none' && this.authenticator) {
        Object.assign(headers, await signedHeaders(this.authenticator, request, query, bodyText));
      }
      const context = { method: request.method, path: request.path, attempts: attempt };
      let error: SvcError;
      let delayMs: number | undefined;
      try {
        const answer = await this.send(
          url,
          { method: request.method, headers, body },
          timeoutMs,
          callOptions,
        );
        const outcome = interpret<T>(answer, context);
        if (outcome.ok) return outcome.data;
        error = outcome.error;
        if (
          answer.status === 401 &&
          !(error instanceof SvcPermissionError) &&
          !refreshed &&
          request.auth !== 'none' &&
          this.authenticator?.refreshAfterUnauthorized?.(headers)
        ) {
          // A revoked or expired token: the api did nothing, so one more try with a new token is safe.
          refreshed = true;
          attempt--;
          continue;
        }
        if (answer.status === 429 || answer.status >= 500 || keyInUse(answer, idempotencyKey)) {
          const retryAfterMs = parseRetryAfter(answer.headers.get('retry-after'), this.options.now());
          if (retryAfterMs !== undefined && retryAfterMs > this.options.retry.maxRetryAfterMs) throw error;
          delayMs = retryAfterMs ?? backoffDelay(this.options.retry, attempt);
        }
      } catch (caught) {
        if (callOptions.signal?.aborted) throw callOptions.signal.reason;
        if (!(caught instanceof SvcError)) throw caught;
        error = caught;
        if (error instanceof SvcNetworkError || error instanceof SvcTimeoutError)
          delayMs = backoffDelay(this.options.retry, attempt);
      }
      if (delayMs === undefined || attempt > maxRetries) throw error;
      await sleep(delayMs, callOptions.signal);
    }
  }

  /**
   * Opens a long-lived answer (Server-Sent Events), authenticated like `request`; the timeout covers only
   * the wait for it to start. Answers the open response, whose body the caller reads and ends through
   * `signal`; any other answer is thrown as the SvcError its envelope maps to. Not retried: reconnecting
   * is the caller's business.
   */
  async openStream(
    request: { readonly path: string; readonly query?: ApiRequest['query'] },
    headers: Readonly<Record<string, string>>,
    callOptions: { readonly timeoutMs?: number; readonly signal: AbortSignal },
  ): Promise<Response> {
    const query = queryString(request.query);
    const url = `${this.options.baseUrl}${request.path}${query === '' ? '' : `?${query}`}`;
    const timeoutMs = callOptions.timeoutMs ?? this.options.timeoutMs;
    const context = { method: 'GET', path: request.path, attempts: 1 };
    for (let refreshed = false; ; refreshed = true) {
      const sent: Record<string, string> = {
        accept: 'text/event-stream',
        'user-agent': this.options.userAgent,
        ...headers,
        ...(await this.authenticator?.headers({ path: request.path, query, body: '' })),
      };
      const timeout = new AbortController();
      const timer = setTimeout(() => timeout.abort(), timeoutMs);
      let answer: Answer;
      try {
        const response = await this.options.fetch(url, {
          method: 'GET',
          headers: sent,
          signal: AbortSignal.any([timeout.signal, callOptions.signal]),
          redirect: 'manual',
        });
        if (response.status === 200 && isEventStream(response.headers)) return response;
        answer = { status: response.status, headers: response.headers, text: await response.text() };
      } catch (error) {
        throw this.sendFailure(error, timeout.signal, timeoutMs, callOptions, context);
      } finally {
        clearTimeout(timer);
      }
      const outcome = interpret<never>(answer, context);
      const error = outcome.ok
        ? new SvcServerError(
            `GET ${request.path}: HTTP 200 but not an event stream (content-type ${
              answer.headers.get('content-type') ?? 'missing'
            })`,
            { ...context, status: 200 },
          )
        : outcome.error;
      const retry =
        answer.status === 401 &&
        !(error instanceof SvcPermissionError) &&
        !refreshed &&
        this.authenticator?.refreshAfterUnauthorized?.(sent) === true;
      if (!retry) throw error;
    }
  }

  private async send(
    url: string,
    init: { method: string; headers: Record<string, string>; body: string | FormData | undefined },
    timeoutMs: number,
    callOptions: RequestOptions,
  ): Promise<Answer> {
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(), timeoutMs);
    const signal = callOptions.signal
      ? AbortSignal.any([timeout.signal, callOptions.signal])
      : timeout.signal;
    const context = { method: init.method, path: new URL(url).pathname };
    try {
      const { body, ...rest } = init;
      const response = await this.options.fetch(url, {
        ...rest,
        ...(body === undefined ? {} : { body }),
        signal,
        redirect: 'manual',
      });
      // Read inside the timeout too: a server that sends headers and then stalls is a timeout.
      const text = await response.text();
      return { status: response.status, headers: response.headers, text };
    } catch (error) {
      throw this.sendFailure(error, timeout.signal, timeoutMs, callOptions, context);
    } finally {
      clearTimeout(timer);
    }
  }

  /** What a failed fetch is: the caller's abort as is, a timeout, or a network failure. */
  private sendFailure(
    error: unknown,
    timeout: AbortSignal,
    timeoutMs: number,
    callOptions: RequestOptions,
    context: { method: string; path: string },
  ): unknown {
    if (callOptions.signal?.aborted) return callOptions.signal.reason;
    if (timeout.aborted) {
      return new SvcTimeoutError(
        `${context.method} ${context.path}: no complete answer within ${timeoutMs} ms`,
        {
          ...context,
          timeoutMs,
          cause: error,
        },
      );
    }
    return new SvcNetworkError(`${context.method} ${context.path}: ${describeNetworkError(error)}`, {
      ...context,
      cause: error,
    });
  }
}

/**
 * The authenticator's headers; a body it cannot sign (invalid JSON, or a number its signature would round:
 * docs/api-guide.md#canonical-body) is a validation error, and nothing is sent.
 */
async function signedHeaders(
  authenticator: Authenticator,
  request: ApiRequest,
  query: string,
  body: string,
): Promise<Record<string, string>> {
  try {
    return await authenticator.headers({ path: request.path, query, body });
  } catch (error) {
    if (!(error instanceof CanonicalJsonError)) throw error;
    throw new SvcValidationError(`${request.method} ${request.path}: not sent: ${error.message}`, {
      method: request.method,
      path: request.path,
      cause: error,
    });
  }
}

/** Whether the request is a write of the organisation's, which the api lets carry an Idempotency-Key. */
function carriesKey(request: ApiRequest): boolean {
  return request.method !== 'GET' && request.auth !== 'none';
}

/**
 * The api's 409 while an earlier attempt with the same key still runs (one that timed out here, say): worth
 * waiting for, as its answer will then be given to the repeat.
 */
function keyInUse(answer: Answer, idempotencyKey: string | undefined): boolean {
  return (
    idempotencyKey !== undefined && answer.status === 409 && answer.text.includes('idempotency_key_in_use')
  );
}

function queryString(query: ApiRequest['query']): string {
  if (query === undefined) return '';
  if (typeof query === 'string') return query.startsWith('?') ? query.slice(1) : query;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined) params.append(key, String(value));
  }
  return params.toString();
}

function encodeBody(body: RequestBody | undefined): {
  bodyText: string;
  body: string | FormData | undefined;
  contentType: string | undefined;
} {
  if (body === undefined) return { bodyText: '', body: undefined, contentType: undefined };
  switch (body.kind) {
    case 'json': {
      // The text signed is the text sent: canonicalisation happens on this exact string.
      const text = JSON.stringify(body.value);
      return { bodyText: text, body: text, contentType: 'application/json' };
    }
    case 'text':
      return { bodyText: body.text, body: body.text, contentType: 'application/json' };
    case 'form':
      return {
        bodyText: '',
        body: body.fields.toString(),
        contentType: 'application/x-www-form-urlencoded',
      };
    case 'multipart':
      // fetch writes the boundary into the content type; a multipart body is not part of the signature.
      return { bodyText: '', body: body.form, contentType: undefined };
  }
}

function isEventStream(headers: Headers): boolean {
  return /^text\/event-stream\s*(;|$)/i.test(headers.get('content-type') ?? '');
}
