// The client's `events.stream()`: the organisation's events as they commit, read from the api's Server-Sent
// Events route (README.md, "Following the event stream"). It reconnects with backoff and resumes after the
// last event it handed out (Last-Event-ID), so across reconnects no event is missed or seen twice.
import { EventParseError, parseWebhookEventText, type WebhookEvent } from '@svc/protocol';
import { createParser, type EventSourceMessage } from 'eventsource-parser';

import { describeNetworkError } from '../answer.js';
import { SvcError, SvcNetworkError, SvcRateLimitError, SvcServerError, SvcTimeoutError } from '../errors.js';
import { backoffDelay, sleep } from '../retry-policy.js';
import type { Transport } from '../transport.js';

export const EVENT_STREAM_PATH = '/api/v1/events/stream';

/** A connection silent for this long (no event, no heartbeat) is taken as dead and replaced. */
export const DEFAULT_IDLE_TIMEOUT_MS = 60_000;

/** One event as the stream carries it. */
export interface StreamedEvent {
  /** The event's id (a UUID): the `svc-event-id` its webhook deliveries carry. */
  readonly id: string;
  /** The body exactly as the api sent it, the `{event, data}` JSON a webhook delivery carries. */
  readonly body: string;
  /** The body, checked and typed. */
  readonly event: WebhookEvent;
}

/** What the stream reader says before it waits to reconnect. */
export interface ReconnectInfo {
  /** Failed or ended connections in a row (1 for the first reconnect after a working connection). */
  readonly attempt: number;
  /** How long it waits before connecting again. */
  readonly delayMs: number;
  /** Why the last connection ended: undefined when the api closed it normally. */
  readonly error: SvcError | undefined;
  /** Where it resumes: the last event handed out (undefined before the first). */
  readonly lastEventId: string | undefined;
}

export interface EventStreamOptions {
  /** On the first connection, start with the events created at or after this time (ISO 8601 or a Date). */
  readonly since?: string | Date;
  /** Start after this event (its id), as a reconnect would. Give this or `since`, not both. */
  readonly lastEventId?: string;
  /** Ends the stream: the iteration finishes without an error. So does `break` out of `for await`. */
  readonly signal?: AbortSignal;
  /** Per connection: how long to wait for the api to answer. Default the client's `timeoutMs`. */
  readonly timeoutMs?: number;
  /** A connection silent for this long is replaced. Default 60 s. */
  readonly idleTimeoutMs?: number;
  /**
   * Failed connections in a row before the error is thrown. Default unlimited: the stream follows until
   * it is aborted or the api refuses it (401, 403, 404 and other 4xx except 429).
   */
  readonly maxReconnects?: number;
  /** Called when a connection is open (the api answered 200). */
  readonly onConnect?: (info: { readonly lastEventId: string | undefined }) => void;
  /** Called before each wait to reconnect. */
  readonly onReconnect?: (info: ReconnectInfo) => void;
}

/** Largest event the reader holds while it arrives; the api's bodies are a few kilobytes. */
const MAX_EVENT_CHARS = 4 * 1024 * 1024;

export class EventStreamResource {
  constructor(private readonly transport: Transport) {}

  /**
   * The organisation's events as they commit, for `for await`: each with its id, its body text and the
   * typed event. Needs BASE_MODULE:READ.
   */
  stream(options: EventStreamOptions = {}): AsyncIterableIterator<StreamedEvent> {
    return follow(this.transport, checkOptions(options));
  }
}

type Checked = Omit<EventStreamOptions, 'since'> & {
  /** `since` as ISO 8601 in UTC. */
  readonly sinceIso: string | undefined;
  readonly idleTimeoutMs: number;
  readonly maxReconnects: number;
};

function checkOptions(options: EventStreamOptions): Checked {
  const { since, lastEventId, idleTimeoutMs = DEFAULT_IDLE_TIMEOUT_MS } = options;
  const maxReconnects = options.maxReconnects ?? Infinity;
  if (since !== undefined && lastEventId !== undefined) {
    throw new TypeError('give since or lastEventId, not both (lastEventId resumes after an event)');
  }
  // Printable ASCII only: it goes into the Last-Event-ID header as it is.
  if (lastEventId !== undefined && (typeof lastEventId !== 'string' || !/^[\x21-\x7e]+$/.test(lastEventId))) {
    throw new TypeError(`lastEventId must be an event id, got ${JSON.stringify(lastEventId)}`);
  }
  if (!(idleTimeoutMs > 0)) throw new TypeError(`idleTimeoutMs must be > 0, got ${String(idleTimeoutMs)}`);
  if (!(maxReconnects >= 0) || (maxReconnects !== Infinity && !Number.isInteger(maxReconnects))) {
    throw new TypeError(`maxReconnects must be an integer >= 0, got ${String(maxReconnects)}`);
  }
  return {
    ...options,
    sinceIso: since === undefined ? undefined : isoTime(since),
    idleTimeoutMs,
    maxReconnects,
  };
}

function isoTime(since: string | Date): string {
  const ms = since instanceof Date ? since.getTime() : typeof since === 'string' ? Date.parse(since) : NaN;
  if (Number.isNaN(ms)) {
    throw new TypeError(`since must be an ISO 8601 time or a Date, got ${JSON.stringify(since)}`);
  }
  return new Date(ms).toISOString();
}

async function* follow(transport: Transport, options: Checked): AsyncGenerator<StreamedEvent, void> {
  const { signal } = options;
  let lastEventId = options.lastEventId;
  let failures = 0;
  for (;;) {
    if (signal?.aborted) return;
    const connection = new AbortController();
    let error: SvcError | undefined;
    try {
      const response = await transport.openStream(
        {
          path: EVENT_STREAM_PATH,
          query: lastEventId === undefined ? { since: options.sinceIso } : undefined,
        },
        lastEventId === undefined ? {} : { 'last-event-id': lastEventId },
        {
          signal: signal ? AbortSignal.any([connection.signal, signal]) : connection.signal,
          ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
        },
      );
      failures = 0;
      options.onConnect?.({ lastEventId });
      for await (const message of messages(response, connection, options.idleTimeoutMs)) {
        const event = streamedEvent(message);
        lastEventId = event.id;
        yield event;
      }
    } catch (caught) {
      if (signal?.aborted) return;
      if (!isTransient(caught)) throw caught;
      error = caught;
    } finally {
      connection.abort();
    }
    failures++;
    if (failures > options.maxReconnects) {
      if (error === undefined) return;
      throw error;
    }
    const retryAfter = error instanceof SvcRateLimitError ? error.retryAfter : undefined;
    const delayMs =
      retryAfter === undefined ? backoffDelay(transport.options.retry, failures) : retryAfter * 1000;
    options.onReconnect?.({ attempt: failures, delayMs, error, lastEventId });
    try {
      await sleep(delayMs, signal);
    } catch {
      return;
    }
  }
}

/** Worth another connection: no answer, a dropped or silent stream, 429 and 5xx. */
export function isTransient(error: unknown): error is SvcError {
  return (
    error instanceof SvcNetworkError ||
    error instanceof SvcTimeoutError ||
    error instanceof SvcRateLimitError ||
    (error instanceof SvcServerError && error.status !== undefined && error.status >= 500)
  );
}

/** The messages of one open stream, until the api ends it; a drop or a silence is thrown as an SvcError. */
async function* messages(
  response: Response,
  connection: AbortController,
  idleTimeoutMs: number,
): AsyncGenerator<EventSourceMessage, void> {
  const context = { method: 'GET', path: EVENT_STREAM_PATH };
  const received: EventSourceMessage[] = [];
  const failed = { overflow: false };
  const parser = createParser({
    onEvent: (message) => received.push(message),
    // Unknown fields and a bad `retry:` are ignored, as EventSource does; an endless event is not.
    onError: (error) => (failed.overflow ||= error.type === 'max-buffer-size-exceeded'),
    maxBufferSize: MAX_EVENT_CHARS,
  });
  if (!response.body) throw new SvcServerError('GET /api/v1/events/stream: the answer has no body', context);
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  try {
    for (;;) {
      // The connection's own signal is aborted only here (the caller's abort is another signal).
      const timer = setTimeout(() => connection.abort(), idleTimeoutMs);
      let chunk: Awaited<ReturnType<typeof reader.read>>;
      try {
        chunk = await reader.read();
      } catch (error) {
        if (connection.signal.aborted) {
          throw new SvcTimeoutError(
            `GET ${EVENT_STREAM_PATH}: no event or heartbeat for ${idleTimeoutMs} ms`,
            { ...context, timeoutMs: idleTimeoutMs, cause: error },
          );
        }
        throw new SvcNetworkError(
          `GET ${EVENT_STREAM_PATH}: the stream broke: ${describeNetworkError(error)}`,
          {
            ...context,
            cause: error,
          },
        );
      } finally {
        clearTimeout(timer);
      }
      if (chunk.done) return;
      parser.feed(decoder.decode(chunk.value, { stream: true }));
      if (failed.overflow) {
        throw new SvcServerError(
          `GET ${EVENT_STREAM_PATH}: an event of more than ${MAX_EVENT_CHARS} characters`,
          { ...context, status: 200 },
        );
      }
      while (received.length > 0) yield received.shift() as EventSourceMessage;
    }
  } finally {
    reader.cancel().catch(() => undefined);
  }
}

function streamedEvent(message: EventSourceMessage): StreamedEvent {
  const details = { method: 'GET', path: EVENT_STREAM_PATH, status: 200 };
  const id = message.id;
  if (id === undefined || id === '') {
    throw new SvcServerError(`GET ${EVENT_STREAM_PATH}: an event without an id`, details);
  }
  try {
    return { id, body: message.data, event: parseWebhookEventText(message.data) };
  } catch (error) {
    if (!(error instanceof EventParseError)) throw error;
    throw new SvcServerError(
      `GET ${EVENT_STREAM_PATH}: event ${id} is not an event this SDK knows (${error.message}); a newer ` +
        '@svc/sdk may know it',
      { ...details, cause: error },
    );
  }
}
