// What the `svc listen` tests share: a receiver on loopback built on the SDK's own webhook handler, and the
// listener run in-process (cli/main.ts) with its output collected as it comes.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { main } from '../../src/cli/main.js';
import { createWebhookHandler, type WebhookEvent, type WebhookHandler } from '../../src/index.js';
import { sleepMs } from './sse-server.js';

export interface Delivery {
  readonly body: string;
  readonly headers: IncomingMessage['headers'];
  readonly status: number;
}

/** A receiver on loopback: the SDK's webhook handler, given its secret once the listener printed it. */
export async function startReceiver() {
  let handler: WebhookHandler | undefined;
  let failing = false;
  /** Every request and the handler's answer. */
  const deliveries: Delivery[] = [];
  /** What the handler's callback was given: verified deliveries only. */
  const handled: { event: WebhookEvent; eventId: string | undefined }[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const answering = handler
        ? handler.handle(body, request.headers)
        : Promise.resolve({ status: 503, body: '', headers: {} });
      void answering.then((answer) => {
        deliveries.push({ body, headers: request.headers, status: answer.status });
        response.writeHead(answer.status, answer.headers);
        response.end(answer.body);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    deliveries,
    handled,
    useSecret(secret: string) {
      handler = createWebhookHandler({
        secret,
        onEvent: (event, { eventId }) => {
          if (failing) throw new Error('the receiver failed');
          handled.push({ event, eventId });
        },
      });
    },
    fail(value: boolean) {
      failing = value;
    },
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Listeners still running, stopped after each test whatever its outcome. */
export const running: { stop(): void; exit: Promise<number> }[] = [];

/** `svc listen` run in-process: its output as it comes, and a stop like Ctrl-C. */
export function run(argv: string[], env: Record<string, string>) {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const stop = new AbortController();
  const exit = main(argv, {
    stdout: (text) => stdout.push(...text.trimEnd().split('\n')),
    stderr: (text) => stderr.push(...text.trimEnd().split('\n')),
    env,
    signal: stop.signal,
  });
  const listener = { stdout, stderr, exit, stop: () => stop.abort() };
  running.push(listener);
  return listener;
}

export async function until(what: string, check: () => boolean, timeoutMs = 8000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleepMs(20);
  }
}
