// One Server-Sent Events answer on the raw Node response (text/event-stream): the headers, frames written
// as they come, and an end. A client that reads slower than events arrive is disconnected once this much
// is waiting in its socket's buffer; it resumes with Last-Event-ID from where it got to.
import { once } from 'node:events';
import type { ServerResponse } from 'node:http';

/** What may wait unsent for one client before the stream is closed. */
export const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;

/** How long an EventSource waits before it reconnects after the stream ends (the `retry:` field). */
export const RECONNECT_MS = 2000;

export class SseResponse {
  private ended = false;

  constructor(private readonly response: ServerResponse) {
    // The client went away, or the answer ended (it says Connection: close): its socket goes too, at once.
    // Left to itself, Node may hold an aborted stream's socket open for seconds, and a shutdown with it.
    const socket = response.socket;
    response.once('close', () => {
      this.ended = true;
      socket?.destroy();
    });
  }

  get open(): boolean {
    return !this.ended && !this.response.destroyed;
  }

  /** The 200 with its headers (`headers` are those set before, e.g. X-Request-Id), and the retry hint. */
  start(headers: Readonly<Record<string, string | number | readonly string[] | undefined>>): void {
    this.response.writeHead(200, {
      ...headers,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      // Proxies that buffer answers (nginx) pass this one through as it is written.
      'x-accel-buffering': 'no',
      // The connection ends with the stream (a client reconnects afresh): none is left idle to hold a
      // shutdown until its keep-alive timeout.
      connection: 'close',
    });
    this.write(`retry: ${RECONNECT_MS}\n\n`);
  }

  /** Writes a frame; answers false, and ends the stream, when the client is too far behind. */
  write(frame: string): boolean {
    if (!this.open) return false;
    this.response.write(frame);
    if (this.response.writableLength > MAX_BUFFERED_BYTES) {
      this.end();
      return false;
    }
    return true;
  }

  /** Resolves when the socket has taken what was written (or the stream ended). */
  async drained(): Promise<void> {
    if (!this.open || !this.response.writableNeedDrain) return;
    await Promise.race([once(this.response, 'drain'), once(this.response, 'close')]);
  }

  /** Ends the answer, after a last comment line if given. */
  end(comment?: string): void {
    if (!this.open) return;
    this.ended = true;
    this.response.end(comment === undefined ? undefined : `: ${comment}\n\n`);
  }

  onClose(listener: () => void): void {
    this.response.once('close', listener);
  }
}
