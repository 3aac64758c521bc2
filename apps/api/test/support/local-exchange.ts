// A local stand-in for an exchange's public WebSocket endpoint: it accepts connections, records what
// clients send (their subscriptions), and sends what the test gives it, byte for byte. The api is pointed
// at it with MARKET_DATA_URL.
import type { AddressInfo } from 'node:net';

import WebSocket, { WebSocketServer } from 'ws';

export interface ExchangeConnection {
  readonly socket: WebSocket;
  /** Whether the server pings this connection (as exchanges do; Binance every 3 minutes). */
  pinging: boolean;
  /** Text messages the client sent, in order. */
  readonly received: string[];
  readonly path: string;
}

export class LocalExchange {
  readonly connections: ExchangeConnection[] = [];
  private readonly pinger: NodeJS.Timeout;

  private constructor(
    private readonly server: WebSocketServer,
    pingMs: number,
  ) {
    server.on('connection', (socket, request) => {
      const connection = { socket, pinging: true, received: [] as string[], path: request.url ?? '' };
      socket.on('message', (data) => connection.received.push(Buffer.from(data as Buffer).toString('utf8')));
      this.connections.push(connection);
    });
    this.pinger = setInterval(() => {
      for (const connection of this.open) if (connection.pinging) connection.socket.ping();
    }, pingMs);
  }

  /** A server on a free loopback port that pings every connection every `pingMs`. */
  static async start(pingMs = 200): Promise<LocalExchange> {
    const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    return new LocalExchange(server, pingMs);
  }

  /** The address to connect to, e.g. ws://127.0.0.1:1234/stream. */
  url(path = '/stream'): string {
    return `ws://127.0.0.1:${(this.server.address() as AddressInfo).port}${path}`;
  }

  /** The open connections. */
  get open(): ExchangeConnection[] {
    return this.connections.filter((connection) => connection.socket.readyState === WebSocket.OPEN);
  }

  /** Sends `text` on every open connection. */
  send(text: string): void {
    for (const connection of this.open) connection.socket.send(text);
  }

  /** Cuts every open connection without a closing handshake, as a lost network does. */
  dropAll(): void {
    for (const connection of this.open) connection.socket.terminate();
  }

  async close(): Promise<void> {
    clearInterval(this.pinger);
    for (const connection of this.connections) connection.socket.terminate();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** Polls `check` until it holds (or throws after `timeoutMs`). */
export async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
