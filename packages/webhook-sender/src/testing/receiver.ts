// Test support: a real HTTP webhook receiver on loopback that verifies every request's signature with
// the protocol package, records what arrived, and answers as the test says (status, delay, reset).
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { isChallenge, verifyWebhookRequest } from '@svc/protocol';

export interface ReceivedRequest {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  /** The raw body text. */
  readonly body: string;
  /** The signature and timestamp checked out against the receiver's secret. */
  readonly verified: boolean;
  readonly receivedAt: number;
}

/** How to answer one request; the default is 200, and the challenge string for a challenge. */
export interface Answer {
  readonly status?: number;
  readonly body?: string;
  /** Wait this long before the status line. */
  readonly delayMs?: number;
  /** Reset the connection (TCP RST) instead of answering. */
  readonly reset?: boolean;
  readonly headers?: Readonly<Record<string, string>>;
}

export type Responder = (request: ReceivedRequest) => Answer;

export class TestReceiver {
  readonly requests: ReceivedRequest[] = [];
  private waiters: { count: number; resolve: () => void }[] = [];

  private constructor(
    private readonly server: Server,
    readonly secret: string,
    public responder: Responder,
  ) {}

  /** Listens on `host` (default 127.0.0.1), on a free port. */
  static async start(
    secret: string,
    responder: Responder = () => ({}),
    host = '127.0.0.1',
  ): Promise<TestReceiver> {
    const server = createServer();
    const receiver = new TestReceiver(server, secret, responder);
    server.on('request', (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => receiver.handle(req.url ?? '/', req.headers, Buffer.concat(chunks), res));
    });
    server.keepAliveTimeout = 5000;
    await new Promise<void>((resolve) => server.listen(0, host, resolve));
    return receiver;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** http://<host>:<port><path>, host default localhost. */
  url(path = '/hook', host = 'localhost'): string {
    return `http://${host}:${this.port}${path}`;
  }

  /** Requests that were events (not challenges), parsed. */
  events(): { request: ReceivedRequest; body: { event: Record<string, unknown>; data: unknown } }[] {
    return this.requests
      .filter((request) => !isChallenge(JSON.parse(request.body)))
      .map((request) => ({
        request,
        body: JSON.parse(request.body) as { event: Record<string, unknown>; data: unknown },
      }));
  }

  /** Resolves once `count` requests have arrived in all; rejects after `timeoutMs`. */
  waitForRequests(count: number, timeoutMs = 10_000): Promise<void> {
    if (this.requests.length >= count) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`waited ${timeoutMs} ms for ${count} requests, got ${this.requests.length}`)),
        timeoutMs,
      );
      this.waiters.push({
        count,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      });
    });
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(path: string, headers: IncomingHttpHeaders, raw: Buffer, res: ServerResponse): void {
    const verified = verifyWebhookRequest(raw, headers, this.secret).ok;
    const request: ReceivedRequest = {
      path,
      headers,
      body: raw.toString('utf8'),
      verified,
      receivedAt: Date.now(),
    };
    this.requests.push(request);
    this.waiters = this.waiters.filter((waiter) => {
      if (this.requests.length < waiter.count) return true;
      waiter.resolve();
      return false;
    });
    const answer = this.responder(request);
    const respond = () => {
      if (answer.reset) {
        res.socket?.resetAndDestroy();
        return;
      }
      let body = answer.body;
      if (body === undefined) {
        const parsed: unknown = JSON.parse(request.body);
        body = isChallenge(parsed) ? parsed.challenge : '';
      }
      res.writeHead(answer.status ?? 200, { 'content-type': 'text/plain', ...answer.headers });
      res.end(body);
    };
    if (answer.delayMs) setTimeout(respond, answer.delayMs);
    else respond();
  }
}
