// OrgFeed against a model of PostgreSQL's visibility rules: transactions take their id at their first
// insert and commit or roll back in any order; a read sees committed rows and the oldest running id. Under
// random interleavings (fast-check's scheduler decides when each read answers), every stream gets each
// committed row after its start exactly once, in (txid, position) order, and never a rolled-back one.
import fc from 'fast-check';

import type { EventLogRow, StreamKey, StreamRead } from '../event-log.repository.js';
import { compareKeys, type FeedReader, type FeedSink, OrgFeed, type StreamStart } from './event-feed.js';

interface Transaction {
  xid: bigint | undefined;
  readonly rows: EventLogRow[];
  state: 'open' | 'committed' | 'rolled back';
  /** Step at which it committed. */
  committedAt?: number;
}

class Model {
  private nextXid = 100n;
  private position = 0n;
  readonly transactions: Transaction[] = [];
  step = 0;

  begin(): void {
    this.transactions.push({ xid: undefined, rows: [], state: 'open' });
  }

  open(): Transaction[] {
    return this.transactions.filter((t) => t.state === 'open');
  }

  insert(transaction: Transaction): void {
    transaction.xid ??= this.nextXid++;
    this.position++;
    transaction.rows.push({
      id: `e${this.position}`,
      orgId: 1,
      entity: 'Users',
      eventType: null,
      data: '{}',
      status: 'PENDING',
      createdAt: new Date(1_000_000 + Number(this.position) * 1000),
      key: { txid: transaction.xid, position: this.position },
    });
  }

  end(transaction: Transaction, commit: boolean): void {
    transaction.state = commit ? 'committed' : 'rolled back';
    if (commit) transaction.committedAt = this.step;
  }

  committed(): EventLogRow[] {
    return this.transactions
      .filter((t) => t.state === 'committed')
      .flatMap((t) => t.rows)
      .sort((a, b) => compareKeys(a.key, b.key));
  }

  xmin(): bigint {
    const running = this.transactions.filter((t) => t.state === 'open' && t.xid !== undefined);
    return running.reduce((min, t) => (t.xid! < min ? t.xid! : min), this.nextXid);
  }

  readAfter(after: StreamKey, limit: number): StreamRead {
    const xmin = this.xmin();
    const visible = this.committed()
      .filter((row) => compareKeys(row.key, after) > 0)
      .slice(0, limit);
    return {
      rows: visible.filter((row) => row.key.txid < xmin),
      xmin,
      pending: visible.some((row) => row.key.txid >= xmin),
    };
  }

  readRange(after: StreamKey, upTo: StreamKey, since: Date | undefined, limit: number): EventLogRow[] {
    return this.committed()
      .filter((row) => compareKeys(row.key, after) > 0 && compareKeys(row.key, upTo) <= 0)
      .filter((row) => !since || row.createdAt >= since)
      .slice(0, limit);
  }
}

type Op =
  | { kind: 'begin' }
  | { kind: 'insert'; tx: number }
  | { kind: 'commit'; tx: number; notify: boolean }
  | { kind: 'rollback'; tx: number }
  | { kind: 'answer' }
  | { kind: 'subscribe'; start: 'now' | 'after' | 'since'; pick: number }
  | { kind: 'close'; stream: number };

// Few transactions at once and many answers, so that reads land between inserts and commits.
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 2, arbitrary: fc.constant({ kind: 'begin' as const }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('insert' as const), tx: fc.nat(2) }) },
  {
    weight: 4,
    arbitrary: fc.record({ kind: fc.constant('commit' as const), tx: fc.nat(2), notify: fc.boolean() }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('rollback' as const), tx: fc.nat(2) }) },
  { weight: 8, arbitrary: fc.constant({ kind: 'answer' as const }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('subscribe' as const),
      start: fc.constantFrom('now' as const, 'after' as const, 'since' as const),
      pick: fc.nat(20),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('close' as const), stream: fc.nat(5) }) },
);

interface Stream {
  readonly sink: FeedSink & { received: EventLogRow[]; closed: boolean };
  readonly start: StreamStart;
  readonly at: number;
}

describe('OrgFeed', () => {
  it('hands every stream each committed row after its start once, in order, whatever commits when', async () => {
    await fc.assert(
      fc.asyncProperty(fc.scheduler(), fc.array(op, { minLength: 20, maxLength: 80 }), async (s, ops) => {
        const model = new Model();
        const reader: FeedReader = {
          frontier: s.scheduleFunction(async () => Promise.resolve({ txid: model.xmin(), position: 0n })),
          readAfter: s.scheduleFunction(async (_org: number, after: StreamKey, limit: number) =>
            Promise.resolve(model.readAfter(after, limit)),
          ),
          readRange: s.scheduleFunction(
            async (
              _org: number,
              range: { after: StreamKey; upTo: StreamKey; since: Date | undefined },
              limit: number,
            ) => Promise.resolve(model.readRange(range.after, range.upTo, range.since, limit)),
          ),
        };
        const feed = new OrgFeed(1, reader, {
          batch: 3,
          minRetryMs: 1,
          maxRetryMs: 2,
          errorRetryMs: 1,
          onError: (error) => {
            throw error;
          },
        });
        const streams: Stream[] = [];
        const joining: Promise<unknown>[] = [];
        for (const next of ops) {
          model.step++;
          const open = model.open();
          switch (next.kind) {
            case 'begin':
              model.begin();
              break;
            case 'insert':
              if (open.length > 0) model.insert(open[next.tx % open.length]!);
              break;
            case 'commit':
            case 'rollback': {
              const transaction = open[next.tx % Math.max(open.length, 1)];
              if (!transaction) break;
              model.end(transaction, next.kind === 'commit');
              if (next.kind === 'commit' && next.notify && transaction.rows.length > 0) feed.wake();
              break;
            }
            case 'answer':
              if (s.count() > 0) await s.waitNext(1);
              break;
            case 'subscribe': {
              const committed = model.committed();
              const start: StreamStart =
                next.start === 'after' && committed.length > 0
                  ? { kind: 'after', key: committed[next.pick % committed.length]!.key }
                  : next.start === 'since' && committed.length > 0
                    ? { kind: 'since', since: committed[next.pick % committed.length]!.createdAt }
                    : { kind: 'now' };
              const received: EventLogRow[] = [];
              const sink = {
                received,
                closed: false,
                get open() {
                  return !this.closed;
                },
                send: (row: EventLogRow) => {
                  received.push(row);
                  return true;
                },
                drained: () => Promise.resolve(),
              };
              streams.push({ sink, start, at: model.step });
              joining.push(feed.subscribe(sink, start));
              break;
            }
            case 'close': {
              const stream = streams[next.stream % Math.max(streams.length, 1)];
              if (stream) stream.sink.closed = true;
              break;
            }
          }
        }
        // Everything ends; the feed reads (notified, or on its own retries) until nothing is left.
        for (const transaction of model.open()) model.end(transaction, true);
        const settled = { joined: false };
        void Promise.all(joining).then(() => (settled.joined = true));
        for (let round = 0; round < 3 || !settled.joined || s.count() > 0; round++) {
          if (round > 10_000) throw new Error('the feed does not settle');
          if (round < 3) feed.wake();
          await s.waitIdle();
          await new Promise((resolve) => setTimeout(resolve, round < 3 ? 1 : 0));
        }
        feed.close();

        const all = model.committed();
        for (const stream of streams) {
          const { received } = stream.sink;
          const ids = received.map((row) => row.id);
          expect(new Set(ids).size).toBe(ids.length);
          for (let i = 1; i < received.length; i++)
            expect(compareKeys(received[i - 1]!.key, received[i]!.key)).toBeLessThan(0);
          for (const row of received) expect(all).toContain(row);
          // What the stream should have: everything after its start, in order.
          const { start } = stream;
          const expected =
            start.kind === 'after'
              ? all.filter((row) => compareKeys(row.key, start.key) > 0)
              : start.kind === 'since'
                ? all.filter((row) => row.createdAt >= start.since)
                : all.filter((row) => received.length > 0 && compareKeys(row.key, received[0]!.key) >= 0);
          if (start.kind === 'now') {
            // From where it joined, and at least every row committed after it subscribed.
            const later = model.transactions
              .filter((t) => t.state === 'committed' && t.committedAt! > stream.at)
              .flatMap((t) => t.rows);
            if (!stream.sink.closed) for (const row of later) expect(ids).toContain(row.id);
          }
          if (stream.sink.closed) expect(ids).toEqual(expected.slice(0, ids.length).map((row) => row.id));
          else expect(ids).toEqual(expected.map((row) => row.id));
        }
      }),
      { numRuns: 400, timeout: 3000, endOnFailure: true },
    );
  }, 300_000);
});
