// A webhook endpoint in a few lines, for node:http, Express and Fastify: it answers the registration
// challenge (docs/api-guide.md#registration-and-the-challenge), verifies every delivery, calls you with the
// typed event and answers 200 only once your callback has resolved (anything else makes the service retry),
// optionally dropping deliveries of an event it has already handled (`svc-event-id`, stable across retries;
// delivery is at least once).
import type { IncomingMessage, ServerResponse } from 'node:http';

import type { HeaderSource, WebhookEvent, WebhookSecrets } from '@svc/protocol';

import { checkSecrets } from './webhook-secrets.js';
import { WebhookVerificationError, verifyWebhookMessage } from './webhooks.js';

/** Where handled event ids are remembered; give your own (a database table, Redis) to share it. */
export interface EventIdStore {
  has(eventId: string): boolean | Promise<boolean>;
  add(eventId: string): void | Promise<void>;
}

export interface WebhookContext {
  /** The `svc-event-id` header: one id per event, the same on every retry. */
  readonly eventId: string | undefined;
}

export interface WebhookHandlerOptions {
  /**
   * The secret the endpoint was registered with; while it changes, the old and the new one
   * (`[oldSecret, newSecret]`): a delivery signed with either is accepted
   * (docs/api-guide.md#changing-the-url-or-the-secret).
   */
  readonly secret: WebhookSecrets;
  /** Your code. The delivery is acknowledged (200) once it resolves; if it throws, the service retries. */
  readonly onEvent: (event: WebhookEvent, context: WebhookContext) => void | Promise<void>;
  /** Default five minutes either way. */
  readonly toleranceMs?: number;
  /**
   * Drop deliveries whose `svc-event-id` was handled already (answered 200 without calling onEvent):
   * true keeps the last 10,000 ids for 25 hours in memory; or give a store. Default off.
   */
  readonly dedupe?: boolean | EventIdStore;
  /** Told about refused deliveries and failed callbacks (for your logs); the answer is not changed. */
  readonly onError?: (error: unknown) => void;
  /** Largest body read, in bytes. Default 1 MiB. */
  readonly maxBodyBytes?: number;
}

/** What to answer. */
export interface WebhookResponse {
  readonly status: number;
  readonly body: string;
  readonly headers: Readonly<Record<string, string>>;
}

/** The few parts of an Express request and response the handler uses (Express stays optional). */
interface ExpressLikeRequest extends IncomingMessage {
  body?: unknown;
}

/** The few parts of Fastify the plugin uses. */
interface FastifyLikeRequest {
  readonly method: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: unknown;
}
interface FastifyLikeReply {
  code(status: number): FastifyLikeReply;
  headers(values: Record<string, string>): FastifyLikeReply;
  send(payload?: string): FastifyLikeReply;
}
interface FastifyLikeInstance {
  addContentTypeParser(
    contentType: string,
    options: { parseAs: 'buffer'; bodyLimit?: number },
    parser: (request: unknown, body: Buffer, done: (error: Error | null, body?: Buffer) => void) => void,
  ): void;
  post(
    path: string,
    handler: (request: FastifyLikeRequest, reply: FastifyLikeReply) => Promise<unknown>,
  ): unknown;
}

export interface WebhookHandler {
  /** Framework-free: the raw body and headers in, what to answer out. */
  handle(rawBody: string | Uint8Array, headers: HeaderSource): Promise<WebhookResponse>;
  /** `http.createServer(handler.node)`, or any route of a node:http-style router. */
  readonly node: (request: IncomingMessage, response: ServerResponse) => void;
  /**
   * Express: `app.post('/webhooks', handler.express)`. Reads the body itself; if a body parser ran first
   * it needs the raw bytes (`express.raw({ type: 'application/json' })`), not `express.json()`.
   */
  readonly express: (request: ExpressLikeRequest, response: ServerResponse) => void;
  /**
   * Fastify plugin: `app.register(handler.fastify, { path: '/webhooks' })`. It keeps application/json
   * bodies raw inside its own encapsulated context only.
   */
  readonly fastify: (instance: FastifyLikeInstance, options: { path?: string }) => Promise<void>;
}

const EMPTY = { status: 200, body: '', headers: {} } as const;

export function createWebhookHandler(options: WebhookHandlerOptions): WebhookHandler {
  if (typeof options.onEvent !== 'function') throw new TypeError('onEvent must be a function');
  const secrets = checkSecrets(options.secret);
  const maxBodyBytes = options.maxBodyBytes ?? 1024 * 1024;
  const store: EventIdStore | undefined =
    options.dedupe === true ? new MemoryEventIdStore() : options.dedupe || undefined;
  const inFlight = new Map<string, Promise<void>>();
  const report = (error: unknown) => {
    try {
      options.onError?.(error);
    } catch {
      // A failing logger must not change the answer.
    }
  };

  async function run(event: WebhookEvent, eventId: string | undefined): Promise<void> {
    if (store === undefined || eventId === undefined) {
      await options.onEvent(event, { eventId });
      return;
    }
    // A delivery of an event still being handled waits for that one and shares its outcome. Registered
    // before the first await, so concurrent duplicates cannot both get past this point.
    const running = inFlight.get(eventId);
    if (running) return running;
    const work = (async () => {
      if (await store.has(eventId)) return;
      await options.onEvent(event, { eventId });
      await store.add(eventId);
    })();
    inFlight.set(eventId, work);
    try {
      await work;
    } finally {
      inFlight.delete(eventId);
    }
  }

  async function handle(rawBody: string | Uint8Array, headers: HeaderSource): Promise<WebhookResponse> {
    let message;
    try {
      message = verifyWebhookMessage(rawBody, headers, secrets, {
        ...(options.toleranceMs === undefined ? {} : { toleranceMs: options.toleranceMs }),
      });
    } catch (error) {
      if (!(error instanceof WebhookVerificationError)) throw error;
      report(error);
      // docs/api-guide.md#errors: a receiver that cannot verify answers 400 with an empty body.
      return { status: 400, body: '', headers: {} };
    }
    if (message.type === 'challenge') {
      return {
        status: 200,
        body: message.challenge,
        headers: { 'content-type': 'text/plain; charset=utf-8' },
      };
    }
    try {
      await run(message.event, message.eventId);
    } catch (error) {
      report(error);
      return { status: 500, body: '', headers: {} };
    }
    return EMPTY;
  }

  async function respondNode(request: IncomingMessage, response: ServerResponse, body?: unknown) {
    let answer: WebhookResponse;
    if (request.method !== 'POST') {
      answer = { status: 405, body: '', headers: { allow: 'POST' } };
    } else {
      try {
        const raw = body === undefined ? await readBody(request, maxBodyBytes) : body;
        answer =
          typeof raw === 'string' || raw instanceof Uint8Array
            ? await handle(raw, request.headers)
            : await refuseParsed(raw);
      } catch (error) {
        report(error);
        answer = { status: error instanceof BodyTooLargeError ? 413 : 400, body: '', headers: {} };
      }
    }
    response.writeHead(answer.status, answer.headers);
    response.end(answer.body);
  }

  function refuseParsed(raw: unknown): Promise<WebhookResponse> {
    // handle() names the problem (parsed_body) for onError, and answers 400.
    return handle(raw as string, {});
  }

  return {
    handle,
    node: (request, response) => {
      respondNode(request, response).catch(report);
    },
    express: (request, response) => {
      // Without a body parser Express leaves the stream unread (body undefined), so read it here.
      respondNode(request, response, request.body).catch(report);
    },
    fastify: (instance, pluginOptions) => {
      instance.addContentTypeParser(
        'application/json',
        { parseAs: 'buffer', bodyLimit: maxBodyBytes },
        (_request, body, done) => {
          done(null, body);
        },
      );
      instance.post(pluginOptions.path ?? '/', async (request, reply) => {
        // Not string or bytes only if another parser ran first; handle() then refuses it as parsed_body.
        const answer = await handle(request.body as string | Uint8Array, request.headers);
        return reply
          .code(answer.status)
          .headers({ ...answer.headers })
          .send(answer.body);
      });
      return Promise.resolve();
    },
  };
}

class BodyTooLargeError extends Error {
  override readonly name = 'BodyTooLargeError';
}

function readBody(request: IncomingMessage, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        reject(new BodyTooLargeError(`the webhook body is over ${maxBytes} bytes`));
        request.destroy();
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

/** The last `capacity` ids, each kept for `ttlMs` (longer than the service's one-day delivery window). */
export class MemoryEventIdStore implements EventIdStore {
  private readonly ids = new Map<string, number>();

  constructor(
    private readonly capacity = 10_000,
    private readonly ttlMs = 25 * 60 * 60 * 1000,
  ) {}

  has(eventId: string): boolean {
    const expires = this.ids.get(eventId);
    if (expires === undefined) return false;
    if (expires > Date.now()) return true;
    this.ids.delete(eventId);
    return false;
  }

  add(eventId: string): void {
    this.ids.delete(eventId);
    this.ids.set(eventId, Date.now() + this.ttlMs);
    // A Map iterates in insertion order: the first key is the oldest.
    while (this.ids.size > this.capacity) {
      const oldest = this.ids.keys().next().value;
      if (oldest === undefined) break;
      this.ids.delete(oldest);
    }
  }
}
