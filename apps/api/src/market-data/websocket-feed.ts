// One exchange's public stream over a WebSocket that stays up (docs/configuration.md#market-data): connect,
// send the subscriptions on every connection, parse each message, and on a close, an error or silence
// longer than MARKET_DATA_STALE_MS connect again after a growing wait. Memory stays bounded: messages
// over MAX_MESSAGE_BYTES close the connection (ws's maxPayload), and nothing is queued here.
import type { Logger } from 'pino';
import WebSocket from 'ws';

import type { FeedMessage } from './feed-message.js';
import type { MarketDataUpdate } from './market-data.js';
import { reconnectDelay } from './reconnect-delay.js';

/** A partial book of 20 levels is about 2 KB; anything near this is not a message we read. */
export const MAX_MESSAGE_BYTES = 1024 * 1024;

/** What differs between exchanges: what to send when connected, and how to read what comes. */
export interface FeedProtocol {
  /** Sent, in order, on every new connection. */
  subscriptions(): string[];
  parse(text: string, receivedAt: Date): FeedMessage;
}

export interface WebSocketFeedOptions {
  readonly url: string;
  readonly protocol: FeedProtocol;
  readonly staleMs: number;
  readonly reconnectMs: number;
  readonly logger: Logger;
}

export class WebSocketFeed {
  private socket: WebSocket | undefined;
  private emit: ((update: MarketDataUpdate) => void) | undefined;
  private staleTimer: NodeJS.Timeout | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  /** Connections in a row that ended before a single update came. */
  private failures = 0;
  private stopped = true;

  constructor(private readonly options: WebSocketFeedOptions) {}

  start(emit: (update: MarketDataUpdate) => void): void {
    this.emit = emit;
    this.stopped = false;
    this.connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.emit = undefined;
    clearTimeout(this.retryTimer);
    clearTimeout(this.staleTimer);
    const socket = this.socket;
    this.socket = undefined;
    if (!socket || socket.readyState === WebSocket.CLOSED) return;
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    socket.terminate();
    await closed;
  }

  private connect(): void {
    const { url, logger } = this.options;
    const socket = new WebSocket(url, {
      maxPayload: MAX_MESSAGE_BYTES,
      handshakeTimeout: this.options.staleMs,
    });
    this.socket = socket;
    socket.on('open', () => {
      logger.info({ url }, 'market data connected');
      for (const message of this.options.protocol.subscriptions()) socket.send(message);
      this.watch(socket);
    });
    socket.on('message', (data, isBinary) => {
      if (this.socket !== socket) return;
      this.watch(socket);
      this.receive(isBinary ? '' : textOf(data));
    });
    // ws answers the exchange's pings itself; a ping also proves the connection is alive.
    socket.on('ping', () => this.watch(socket));
    socket.on('error', (error) => logger.warn({ url, err: error }, 'market data connection failed'));
    socket.on('close', (code, reason) => {
      if (this.socket !== socket) return;
      this.socket = undefined;
      clearTimeout(this.staleTimer);
      if (this.stopped) return;
      const delay = reconnectDelay(this.failures++, this.options.reconnectMs);
      logger.warn({ url, code, reason: reason.toString(), delay }, 'market data disconnected; reconnecting');
      this.retryTimer = setTimeout(() => this.connect(), delay);
    });
  }

  private receive(text: string): void {
    const message = this.options.protocol.parse(text, new Date());
    const { logger, url } = this.options;
    switch (message.kind) {
      case 'updates':
        this.failures = 0;
        if (message.dropped > 0) {
          logger.warn(
            { url, dropped: message.dropped },
            'market data values refused (not exact in 8 decimals)',
          );
        }
        for (const update of message.updates) this.emit?.(update);
        return;
      case 'refused':
        logger.error({ url, reason: message.reason }, 'market data request refused');
        return;
      case 'malformed':
        logger.warn({ url, reason: message.reason, text: text.slice(0, 200) }, 'market data message skipped');
        return;
      case 'ignored':
        return;
    }
  }

  /** (Re)arms the silence check: a connection quiet for staleMs is dropped, and so made again. */
  private watch(socket: WebSocket): void {
    clearTimeout(this.staleTimer);
    this.staleTimer = setTimeout(() => {
      this.options.logger.warn({ url: this.options.url, staleMs: this.options.staleMs }, 'market data stale');
      socket.terminate();
    }, this.options.staleMs);
  }
}

/** A text frame's UTF-8 (ws hands frames as Buffers unless told otherwise). */
function textOf(data: WebSocket.RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return (Buffer.isBuffer(data) ? data : Buffer.from(data)).toString('utf8');
}
