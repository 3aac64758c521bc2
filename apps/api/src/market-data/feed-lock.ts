// One feed per deployment (docs/configuration.md#market-data): every api instance with a feed configured
// asks for one PostgreSQL session-level advisory lock, and only the holder consumes the stream and writes.
// The lock lives on a connection of its own, outside the pool, so it is released exactly when that session
// ends: a stopped or crashed holder frees it, and a standby instance, asking again every
// MARKET_DATA_STALE_MS, takes over. The holder checks its session as often; when it is gone (PostgreSQL
// restarted, the network cut) it stops its feed before another instance can have taken the lock.
import pg from 'pg';
import type { Logger } from 'pino';

/** The advisory lock key of the market-data feed: "mktdata" in ASCII, as a bigint. */
export const FEED_LOCK = 30_798_920_105_948_257n;

export interface FeedLockOptions {
  readonly url: string;
  /** How often a standby instance asks for the lock, and the holder checks it still holds it. */
  readonly checkMs: number;
  readonly logger: Logger;
}

export class FeedLock {
  private closing = false;
  private wake: (() => void) | undefined;
  private running: Promise<void> | undefined;
  private holding = false;

  constructor(private readonly options: FeedLockOptions) {}

  /**
   * Until close(): waits for the lock, then runs `lead` (which starts the feed and answers how to stop
   * it) for as long as the lock is held; then waits for it again.
   */
  run(lead: () => () => Promise<void>): void {
    this.running ??= this.loop(lead);
  }

  /** Whether this process holds the lock (and so runs the feed). */
  get held(): boolean {
    return this.holding;
  }

  /** Stops leading (the feed's stop is awaited) and releases the lock. */
  async close(): Promise<void> {
    this.closing = true;
    this.wake?.();
    await this.running;
  }

  private async loop(lead: () => () => Promise<void>): Promise<void> {
    while (!this.closing) {
      const client = new pg.Client({
        connectionString: this.options.url,
        application_name: 'svc-market-data',
      });
      const session = { lost: false };
      const holding = () => !this.closing && !session.lost;
      client.on('error', () => {
        session.lost = true;
        this.wake?.();
      });
      try {
        await client.connect();
        const { rows } = await client.query<{ locked: boolean }>(
          'SELECT pg_try_advisory_lock($1) AS locked',
          [FEED_LOCK.toString()],
        );
        if (rows[0]?.locked) {
          this.options.logger.info('market data feed lock taken: this instance runs the feed');
          this.holding = true;
          const stop = lead();
          try {
            while (holding()) {
              await this.pause();
              if (holding()) await client.query('SELECT 1');
            }
          } finally {
            await stop();
            this.holding = false;
            this.options.logger.info('market data feed stopped on this instance');
          }
        }
      } catch (error) {
        this.options.logger.warn({ err: error }, 'market data feed lock: session lost');
      } finally {
        // Ending the session releases the lock.
        await client.end().catch(() => undefined);
      }
      if (this.isOpen()) await this.pause();
    }
  }

  private isOpen(): boolean {
    return !this.closing;
  }

  /** Waits checkMs, or less when closing or the session fails. */
  private pause(): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(done, this.options.checkMs);
      this.wake = done;
    });
  }
}
