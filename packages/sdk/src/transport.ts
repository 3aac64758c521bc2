// One request to the api: authentication (signature or bearer token), the timeout, retries with
// exponential backoff and jitter for what is safe to repeat, and the answer turned into data or a typed
// error. Every attempt is signed afresh, and no signature is ever sent twice (the api refuses replays).
import {
  HEADERS,
  isEnvelope,
  isInsufficientScopeBody,
  isSuccessEnvelope,
  signedRequestHeaders,
  type SignedRequestHeaders,
} from '@svc/protocol';

import {
  SvcError,
  SvcNetworkError,
  SvcPermissionError,
  SvcServerError,
  SvcTimeoutError,
  errorForStatus,
} from './errors.js';

/** The part of `fetch` the client uses; pass your own (svix's `fetch` option) to add tracing or proxies. */
export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

export interface RetryPolicy {
  /** Retries after the first attempt. Default 2; 0 turns retries off. */
  readonly maxRetries: number;
  /** The first backoff; doubled each retry. Default 500 ms. */
  readonly initialDelayMs: number;
  /** The longest backoff. Default 8000 ms. */
  readonly maxDelayMs: number;
  /** A Retry-After longer than this is not waited for: the error is thrown. Default 60 s. */
  readonly maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = Object.freeze({
  maxRetries: 2,
  initialDelayMs: 500,
  maxDelayMs: 8000,
  maxRetryAfterMs: 60_000,
});

export const DEFAULT_TIMEOUT_MS = 30_000;

/** Per-call options, accepted as the last argument of every method. */
export interface RequestOptions {
  /** Overrides the client's timeout for this call (per attempt). */
  readonly timeoutMs?: number;
  /** Overrides the client's retry count for this call. */
  readonly maxRetries?: number;
  /** Aborts the call (no retry after an abort). */
  readonly signal?: AbortSignal;
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
  /** Whether the request may be repeated after a failure (GET; order creation thanks to clientOrderId). */
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
    const maxRetries = request.idempotent ? (callOptions.maxRetries ?? this.options.retry.maxRetries) : 0;
    const timeoutMs = callOptions.timeoutMs ?? this.options.timeoutMs;
    let refreshed = false;
    for (let attempt = 1; ; attempt++) {
      const headers: Record<string, string> = {
        accept: 'application/json',
        'user-agent': this.options.userAgent,
      };
      if (contentType !== undefined) headers['content-type'] = contentType;
      if (request.auth !== 'none' && this.authenticator) {
        Object.assign(
          headers,
          await this.authenticator.headers({ path: request.path, query, body: bodyText }),
        );
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
        if (answer.status === 429 || answer.status >= 500) {
          const retryAfterMs = parseRetryAfter(answer.headers.get('retry-after'), this.options.now());
          if (retryAfterMs !== undefined && retryAfterMs > this.options.retry.maxRetryAfterMs) throw error;
          delayMs = retryAfterMs ?? this.backoff(attempt);
        }
      } catch (caught) {
        if (callOptions.signal?.aborted) throw callOptions.signal.reason;
        if (!(caught instanceof SvcError)) throw caught;
        error = caught;
        if (error instanceof SvcNetworkError || error instanceof SvcTimeoutError)
          delayMs = this.backoff(attempt);
      }
      if (delayMs === undefined || attempt > maxRetries) throw error;
      await sleep(delayMs, callOptions.signal);
    }
  }

  /** Exponential backoff with equal jitter: between half and all of initial * 2^(attempt-1), capped. */
  private backoff(attempt: number): number {
    const { initialDelayMs, maxDelayMs } = this.options.retry;
    const ceiling = Math.min(maxDelayMs, initialDelayMs * 2 ** (attempt - 1));
    return ceiling / 2 + Math.random() * (ceiling / 2);
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
      if (callOptions.signal?.aborted) throw callOptions.signal.reason;
      if (timeout.signal.aborted) {
        throw new SvcTimeoutError(
          `${init.method} ${context.path}: no complete answer within ${timeoutMs} ms`,
          {
            ...context,
            timeoutMs,
            cause: error,
          },
        );
      }
      throw new SvcNetworkError(`${init.method} ${context.path}: ${describeNetworkError(error)}`, {
        ...context,
        cause: error,
      });
    } finally {
      clearTimeout(timer);
    }
  }
}

interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
}

type Outcome<T> = { ok: true; data: T } | { ok: false; error: SvcError };

function interpret<T>(
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

/** Retry-After in ms: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  if (value === null) return undefined;
  if (/^[0-9]+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
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

function describeNetworkError(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | null)?.cause;
  const code = typeof cause?.code === 'string' ? cause.code : undefined;
  const message = typeof cause?.message === 'string' ? cause.message : (error as Error).message;
  return code === undefined ? `no answer (${message})` : `no answer (${code}: ${message})`;
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason as Error);
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason as Error);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Longest a timestamp is moved ahead to keep a signature unique; the api accepts up to now + 3900 s. */
const MAX_TIMESTAMP_BUMP_SECONDS = 3600;

/**
 * Signatures sent, by API key and then by timestamp, shared by every client of this process (two clients
 * with one key would otherwise sign the same request alike). Only timestamps >= now can repeat.
 */
const sentByKey = new Map<string, Map<number, Set<string>>>();

/**
 * Signs with the API key (spec 5.1) and never sends the same signature twice: two identical requests in
 * the same second would carry the same one, and the api refuses the second as a replay. When a signature
 * would repeat, X-TIMESTAMP moves one second ahead, as often as needed. Another process using the same key
 * can still collide: a 401 is then repeated once, signed afresh (the api did nothing with it).
 */
export class RequestSigner implements Authenticator {
  private readonly sent: Map<number, Set<string>>;

  constructor(
    private readonly credentials: { readonly apiKey: string; readonly apiSecret: string },
    private readonly now: () => number,
  ) {
    let sent = sentByKey.get(credentials.apiKey);
    if (!sent) sentByKey.set(credentials.apiKey, (sent = new Map<number, Set<string>>()));
    this.sent = sent;
  }

  headers(request: { path: string; query: string; body: string }): Promise<Record<string, string>> {
    return Promise.resolve({ ...this.sign(request) });
  }

  refreshAfterUnauthorized(): boolean {
    return true;
  }

  sign(request: { path: string; query: string; body: string }): SignedRequestHeaders {
    const now = Math.floor(this.now() / 1000);
    for (const timestamp of this.sent.keys()) if (timestamp < now) this.sent.delete(timestamp);
    for (let timestamp = now; timestamp <= now + MAX_TIMESTAMP_BUMP_SECONDS; timestamp++) {
      const headers = signedRequestHeaders({ ...request, timestamp: String(timestamp) }, this.credentials);
      const signature = headers[HEADERS.signature];
      let bucket = this.sent.get(timestamp);
      if (bucket?.has(signature)) continue;
      if (!bucket) this.sent.set(timestamp, (bucket = new Set()));
      bucket.add(signature);
      return headers;
    }
    throw new Error(
      `more than ${MAX_TIMESTAMP_BUMP_SECONDS} identical requests signed within the window: the api would refuse them as replays`,
    );
  }
}
