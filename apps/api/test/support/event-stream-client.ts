// A Server-Sent Events client for the tests: opens GET /api/v1/events/stream over real HTTP, parses what
// arrives as it arrives (messages, comments, the retry hint), checks each message against the OpenAPI
// document, and lets a test wait for what it expects.
import { signedRequestHeaders } from '@svc/protocol';

import type { ApiFixture, OrgSession } from './app-fixture.js';
import type { OpenApiContract, StreamMessage } from './openapi-contract.js';

export interface StreamFrame {
  readonly kind: 'message' | 'comment' | 'retry';
  readonly id?: string | undefined;
  readonly data?: string;
  /** The comment's text, or the retry value. */
  readonly text?: string;
}

export class EventStreamClient {
  readonly frames: StreamFrame[] = [];
  /** Resolves when the server ends the stream (or the client closes it). */
  readonly ended: Promise<void>;
  private buffer = '';
  private waiters: (() => void)[] = [];
  private done = false;
  /** A message the document does not describe, or a line the format does not have. */
  private failure: Error | undefined;

  private constructor(
    readonly status: number,
    readonly headers: Headers,
    private readonly reader: ReadableStreamDefaultReader<Uint8Array>,
    private readonly path: string,
    private readonly contract: OpenApiContract,
    private readonly abort: AbortController,
  ) {
    this.ended = this.pump();
  }

  /**
   * Opens the stream; `headers` carry the credentials. A refusal is not a stream: the caller reads it with the
   * fixture's request() instead.
   */
  static async open(
    baseUrl: string,
    path: string,
    headers: Record<string, string>,
    contract: OpenApiContract,
  ): Promise<EventStreamClient> {
    const abort = new AbortController();
    const response = await fetch(baseUrl + path, { headers, signal: abort.signal });
    if (!response.body) throw new Error('no body');
    if (!response.headers.get('content-type')?.startsWith('text/event-stream')) {
      throw new Error(`not a stream: ${response.status} ${await response.text()}`);
    }
    return new EventStreamClient(
      response.status,
      response.headers,
      response.body.getReader(),
      path,
      contract,
      abort,
    );
  }

  get messages(): StreamMessage[] {
    return this.frames
      .filter((frame) => frame.kind === 'message')
      .map((frame) => ({ id: frame.id, data: frame.data ?? '' }));
  }

  get ids(): string[] {
    return this.messages.map((message) => message.id ?? '');
  }

  get closed(): boolean {
    return this.done;
  }

  /** Waits until `check` holds for what arrived so far. */
  async until(check: (client: this) => boolean, what: string, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!check(this)) {
      if (this.failure) throw this.failure;
      if (this.done) throw new Error(`the stream ended before ${what}: ${JSON.stringify(this.frames)}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(this.frames)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Waits for `count` messages in all. */
  untilMessages(count: number, timeoutMs?: number): Promise<void> {
    return this.until((client) => client.messages.length >= count, `${count} messages`, timeoutMs);
  }

  /** Closes the stream (when still open); throws what went wrong while reading, if anything did. */
  async close(): Promise<void> {
    // Aborting the request drops its connection (cancelling the body alone may leave it open).
    if (!this.done) this.abort.abort();
    await this.ended;
    if (this.failure) throw this.failure;
  }

  private async pump(): Promise<void> {
    const decoder = new TextDecoder();
    try {
      for (;;) {
        const { done, value } = await this.reader.read();
        if (done) break;
        this.buffer += decoder.decode(value, { stream: true });
        try {
          this.parse();
        } catch (error) {
          this.failure = error as Error;
        }
      }
    } catch {
      // cancelled, or the connection dropped: the stream is over either way
    } finally {
      this.done = true;
      this.notify();
    }
  }

  private parse(): void {
    let end: number;
    while ((end = this.buffer.indexOf('\n\n')) !== -1) {
      const block = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 2);
      let id: string | undefined;
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) this.frames.push({ kind: 'comment', text: line.slice(1).trim() });
        else if (line.startsWith('retry:')) this.frames.push({ kind: 'retry', text: line.slice(6).trim() });
        else if (line.startsWith('id: ')) id = line.slice(4);
        else if (line.startsWith('data: ')) data.push(line.slice(6));
        else throw new Error(`a line the stream should not have: ${JSON.stringify(line)}`);
      }
      if (data.length > 0) {
        const message = { id, data: data.join('\n') };
        this.contract.checkStreamMessage('GET', this.path, message);
        this.frames.push({ kind: 'message', ...message });
      }
    }
    this.notify();
  }

  private notify(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }
}

let signatures = 0;

/**
 * Opens `/api/v1/events/stream` + `query` on `fixture` as `session`: signed with its API key, or with a
 * bearer token when given; `headers` add to them (Last-Event-ID).
 */
export async function openEventStream(
  fixture: ApiFixture,
  session: OrgSession,
  options: { query?: string; headers?: Record<string, string>; bearer?: string } = {},
): Promise<EventStreamClient> {
  const path = '/api/v1/events/stream';
  const query = options.query ?? '';
  // Each signature is accepted once, and a signature is the same for the same request in the same second:
  // streams opened together are signed at distinct timestamps (inside the window ahead).
  const timestamp = String(Math.floor(Date.now() / 1000) + signatures++);
  const auth: Record<string, string> = options.bearer
    ? { authorization: `Bearer ${options.bearer}` }
    : { ...signedRequestHeaders({ path, query: query.replace(/^\?/, '') || undefined, timestamp }, session) };
  return EventStreamClient.open(
    fixture.baseUrl,
    path + query,
    { ...auth, ...options.headers },
    await fixture.openApiContract(),
  );
}
