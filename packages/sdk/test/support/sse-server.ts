// A small event stream server on loopback for the stream reader's and `svc listen`'s tests: it speaks the
// api's contract for GET /api/v1/events/stream (`id:` and `data:` lines, `:` heartbeats, Last-Event-ID and
// `since`, the error envelope) and the token route, records every request, and lets each test script what
// each connection does: send events, drop the socket, stall, or refuse.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { WebhookEvent } from '../../src/index.js';

export interface StreamRequest {
  readonly method: string;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly headers: IncomingMessage['headers'];
  /** The body, for the token route (the stream's requests have none). */
  body: string;
  /** Resolves when the client closed (or the server dropped) this connection. */
  readonly closed: Promise<void>;
}

/** What one connection to the stream does; `count` is 1 for the first connection. */
export type Connection = (stream: OpenStream, request: StreamRequest, count: number) => void | Promise<void>;

/** One connection, as the test drives it. */
export interface OpenStream {
  /** Answers 200 text/event-stream. */
  open(): void;
  /** One event: `id:` and `data:` lines and the blank line. */
  event(id: string, body: string): void;
  /** A heartbeat comment line. */
  heartbeat(): void;
  /** Raw text, for a partial event. */
  write(text: string): void;
  /** Answers an error in the envelope. */
  refuse(status: number, error: string, headers?: Record<string, string>): void;
  /** Cuts the connection without ending the answer (a dropped connection). */
  drop(): void;
  /** Ends the answer normally. */
  end(): void;
  readonly response: ServerResponse;
}

export interface SseServer {
  readonly baseUrl: string;
  readonly requests: StreamRequest[];
  /** The stream requests only. */
  streams(): StreamRequest[];
  /** What the next connections do (count restarts at 1). */
  script(connection: Connection): void;
  close(): Promise<void>;
}

export async function startSseServer(): Promise<SseServer> {
  let connection: Connection = (stream) => stream.open();
  let count = 0;
  const requests: StreamRequest[] = [];
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const closed = new Promise<void>((resolve) => response.once('close', resolve));
    const entry: StreamRequest = {
      method: request.method ?? '',
      path: url.pathname,
      query: url.searchParams,
      headers: request.headers,
      body: '',
      closed,
    };
    requests.push(entry);
    if (url.pathname === '/api/v1/oauth/token') {
      request.on('data', (chunk: Buffer) => (entry.body += chunk.toString('utf8')));
      request.on('end', () => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({
            code: 200,
            data: {
              access_token: `token-${randomUUID()}`,
              token_type: 'Bearer',
              expires_in: 3600,
              scope: 'BASE_MODULE:READ',
            },
            error: null,
          }),
        );
      });
      return;
    }
    const stream = openStream(response);
    if (url.pathname !== '/api/v1/events/stream') {
      stream.refuse(404, 'Not Found');
      return;
    }
    count++;
    Promise.resolve(connection(stream, entry, count)).catch((error: unknown) => {
      console.error('sse-server: the scripted connection failed', error);
      stream.drop();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    streams: () => requests.filter((r) => r.path === '/api/v1/events/stream'),
    script(next) {
      connection = next;
      count = 0;
      requests.length = 0;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function openStream(response: ServerResponse): OpenStream {
  const write = (text: string) => {
    if (!response.destroyed) response.write(text);
  };
  return {
    response,
    open() {
      response.writeHead(200, {
        'content-type': 'text/event-stream',
        'cache-control': 'no-cache',
        'x-request-id': 'req-stream',
      });
      // The head goes out at once, before any event.
      response.flushHeaders();
    },
    event: (id, body) => write(`id: ${id}\ndata: ${body}\n\n`),
    heartbeat: () => write(': heartbeat\n\n'),
    write,
    refuse(status, error, headers = {}) {
      response.writeHead(status, {
        'content-type': 'application/json',
        'x-request-id': `req-${status}`,
        ...headers,
      });
      response.end(JSON.stringify({ code: status, data: null, error }));
    },
    drop: () => response.socket?.destroy(),
    end: () => response.end(),
  };
}

/** A Users event body as the api writes it (one line of JSON). */
export function userEventBody(orgUserId: string, eventType?: 'KYC_COMPLETED'): string {
  const at = '2025-01-01T00:00:00.000Z';
  const body: WebhookEvent = {
    event: {
      orgId: 7,
      entity: 'Users',
      ...(eventType === undefined ? {} : { eventType }),
      numRetries: 0,
      createdAt: at,
      updatedAt: at,
    },
    data: {
      orgUserId,
      orgId: 7,
      kyc: eventType === 'KYC_COMPLETED',
      tnc: true,
      userStatus: 'ACTIVE',
      userType: 'CONSUMER',
    },
  } as WebhookEvent;
  return JSON.stringify(body);
}

/** An Orders event body. */
export function orderEventBody(id: number): string {
  const at = '2025-01-01T00:00:00.000Z';
  return JSON.stringify({
    event: { orgId: 7, entity: 'Orders', numRetries: 0, createdAt: at, updatedAt: at },
    data: {
      id,
      orgId: 7,
      clientOrderId: randomUUID(),
      orgUserId: 'u-1',
      symbol: 'BTC_EUR',
      side: 'BUY',
      type: 'MARKET',
      quantity: 0.001,
      quoteQuantity: 0,
      filled: 0.001,
      status: 'COMPLETED',
      price: 50000,
      averagePrice: 50000,
      estimatedPrice: 50000,
      baseAveragePrice: 50000,
      commissionRate: 0.01,
      vatRate: 0,
      commissionAmount: 0.5,
      vatAmount: 0,
      netExecutedAmount: 50,
      totalExecutedAmount: 50.5,
      commissionAsset: 'EUR',
      rejectionReason: null,
      createdAt: at,
      updatedAt: at,
    },
  });
}

export const sleepMs = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
