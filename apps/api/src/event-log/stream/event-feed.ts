// One organisation's events as they become final, read once per api process and handed to every stream of
// that organisation the process holds (docs/decisions.md, "Events: serving the stream").
//
// The order is (txid, position): the writing transaction's id, then the insertion position. A row is final
// once its transaction is below the oldest transaction still running (the snapshot's xmin): no row can
// appear before it any more, so a cursor in that order never skips a transaction that commits late. The
// feed's cursor only moves over final rows; a stream that starts behind it (Last-Event-ID, since) reads its
// backlog up to the cursor, then joins, in one synchronous step, the streams the feed hands rows to.
import type { EventLogRow, StreamKey, StreamRead } from '../event-log.repository.js';

export interface FeedReader {
  frontier(): Promise<StreamKey>;
  readAfter(orgId: number, after: StreamKey, limit: number): Promise<StreamRead>;
  readRange(
    orgId: number,
    range: { after: StreamKey; upTo: StreamKey; since: Date | undefined },
    limit: number,
  ): Promise<EventLogRow[]>;
}

/** Where a stream starts: at the feed's cursor, after an event it already has, or at a time. */
export type StreamStart =
  | { readonly kind: 'now' }
  | { readonly kind: 'after'; readonly key: StreamKey }
  | { readonly kind: 'since'; readonly since: Date };

/** Where the rows go: an open stream. */
export interface FeedSink {
  readonly open: boolean;
  /** Takes one row; false when the sink closed instead (its client is too far behind). */
  send(row: EventLogRow): boolean;
  /** Resolves when the client has taken what was sent. */
  drained(): Promise<void>;
}

export function compareKeys(a: StreamKey, b: StreamKey): number {
  if (a.txid !== b.txid) return a.txid < b.txid ? -1 : 1;
  return a.position === b.position ? 0 : a.position < b.position ? -1 : 1;
}

const maxKey = (a: StreamKey, b: StreamKey): StreamKey => (compareKeys(a, b) >= 0 ? a : b);

/** A stream's place: rows at or before `last` were handed over (or filtered out) already. */
export class Subscription {
  constructor(
    readonly sink: FeedSink,
    public last: StreamKey,
    readonly since: Date | undefined,
  ) {}

  offer(row: EventLogRow): void {
    if (compareKeys(row.key, this.last) <= 0) return;
    this.last = row.key;
    if (this.since && row.createdAt < this.since) return;
    this.sink.send(row);
  }
}

export interface FeedOptions {
  /** Rows per read. */
  readonly batch: number;
  /** First wait before reading again while committed rows wait to become final; doubles up to maxRetryMs. */
  readonly minRetryMs: number;
  readonly maxRetryMs: number;
  /** Wait after a failed read. */
  readonly errorRetryMs: number;
  readonly onError: (error: unknown) => void;
}

export const FEED_DEFAULTS: Omit<FeedOptions, 'onError'> = {
  batch: 500,
  minRetryMs: 2,
  maxRetryMs: 25,
  errorRetryMs: 1000,
};

export class OrgFeed {
  private cursor: StreamKey | undefined;
  private started: Promise<void> | undefined;
  private readonly live = new Set<Subscription>();
  private catchingUp = 0;
  private reading = false;
  /** Rows may have become final since the read under way began: read once more after it. */
  private readMore = false;
  private retry: NodeJS.Timeout | undefined;
  private retryMs: number;
  /** The xmin of the last read: whether the oldest running transaction moved on since. */
  private lastXmin = 0n;
  private closed = false;

  constructor(
    readonly orgId: number,
    private readonly reader: FeedReader,
    private readonly options: FeedOptions,
  ) {
    this.retryMs = options.minRetryMs;
  }

  /** No stream follows or joins this feed: it may be dropped. */
  get idle(): boolean {
    return this.live.size === 0 && this.catchingUp === 0;
  }

  /** Something may have committed for this organisation: read what became final. */
  wake(): void {
    if (!this.cursor || this.closed) return;
    if (this.reading) {
      this.readMore = true;
      return;
    }
    this.reading = true;
    void this.read().finally(() => {
      this.reading = false;
    });
  }

  /**
   * Hands `subscription` every final row after its start, then every new one as the feed reads it. A
   * start behind the feed's cursor is caught up first, a page at a time, as fast as the client reads.
   */
  async subscribe(sink: FeedSink, start: StreamStart): Promise<Subscription> {
    await this.start();
    const cursor = this.cursor as StreamKey;
    const subscription = new Subscription(
      sink,
      start.kind === 'now' ? cursor : start.kind === 'after' ? start.key : { txid: 0n, position: 0n },
      start.kind === 'since' ? start.since : undefined,
    );
    this.catchingUp++;
    try {
      for (;;) {
        const target = this.cursor as StreamKey;
        if (compareKeys(subscription.last, target) < 0) {
          if (!(await this.catchUp(subscription, target))) return subscription;
        }
        // Synchronous from here to the join: the feed cannot hand out rows in between.
        if (compareKeys(subscription.last, this.cursor as StreamKey) >= 0) {
          if (sink.open) this.live.add(subscription);
          return subscription;
        }
        // The feed moved on while the backlog was read: read up to where it is now.
      }
    } finally {
      this.catchingUp--;
    }
  }

  unsubscribe(subscription: Subscription): void {
    this.live.delete(subscription);
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.retry);
    this.live.clear();
  }

  private start(): Promise<void> {
    this.started ??= this.reader.frontier().then((frontier) => {
      this.cursor = frontier;
      // Rows already committed but not yet final are read as soon as they are.
      this.wake();
    });
    return this.started;
  }

  /** The rows in (subscription.last, target], in order; false when the sink closed meanwhile. */
  private async catchUp(subscription: Subscription, target: StreamKey): Promise<boolean> {
    let after = subscription.last;
    for (;;) {
      const rows = await this.reader.readRange(
        this.orgId,
        { after, upTo: target, since: subscription.since },
        this.options.batch,
      );
      for (const row of rows) subscription.offer(row);
      if (!subscription.sink.open) return false;
      await subscription.sink.drained();
      const last = rows.at(-1);
      if (rows.length < this.options.batch || !last) break;
      after = last.key;
    }
    // Every row up to the target was considered (rows before `since` are passed over).
    subscription.last = maxKey(subscription.last, target);
    return subscription.sink.open;
  }

  private async read(): Promise<void> {
    do {
      this.readMore = false;
      const cursor = this.cursor as StreamKey;
      let read: StreamRead;
      try {
        read = await this.reader.readAfter(this.orgId, cursor, this.options.batch);
      } catch (error) {
        this.options.onError(error);
        this.schedule(this.options.errorRetryMs);
        return;
      }
      if (this.closed) return;
      // Hand over and move the cursor in one synchronous step (see subscribe).
      for (const row of read.rows) for (const subscription of this.live) subscription.offer(row);
      const last = read.rows.at(-1);
      if (read.rows.length >= this.options.batch && last) {
        this.cursor = last.key;
        this.readMore = true;
      } else {
        // Every final row after the cursor was read: every key below (xmin, 0) is behind us.
        this.cursor = maxKey(maxKey(cursor, last?.key ?? cursor), { txid: read.xmin, position: 0n });
      }
      if (read.pending) {
        // Rows wait behind an older transaction. While transactions keep ending (xmin moves on), look
        // again soon; when one stays open, back off so a long transaction does not turn into a busy loop.
        if (read.rows.length > 0 || read.xmin > this.lastXmin) this.retryMs = this.options.minRetryMs;
        this.schedule(this.retryMs);
        this.retryMs = Math.min(this.retryMs * 2, this.options.maxRetryMs);
      } else {
        this.retryMs = this.options.minRetryMs;
      }
      this.lastXmin = read.xmin;
    } while (this.readMore);
  }

  private schedule(ms: number): void {
    if (this.retry || this.closed) return;
    this.retry = setTimeout(() => {
      this.retry = undefined;
      this.wake();
    }, ms);
  }
}
