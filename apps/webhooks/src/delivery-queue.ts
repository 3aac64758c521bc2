// The delivery queue (docs/decisions.md, "Webhooks: one queue for every attempt"): every attempt the worker
// makes, scheduled or asked for, is a due row taken here. A batch holds its attempts while they are made
// and settles them together: what was delivered is acknowledged, a failed attempt is retried at its next
// time or failed for good, one that could not be made now is put back. The interface is small so that the
// worker's decisions are tested against the in-memory queue (memory-delivery-queue.ts), and the
// PostgreSQL queue below against the database.
import { QUEUES, bossDb, query, transaction } from '@svc/db';
import type { PgBoss } from 'pg-boss';
import type { Logger } from 'pino';
import type { DataSource, EntityManager } from 'typeorm';

import type { WorkerConfig } from './config.js';
import {
  DONE_REDELIVERIES,
  FETCH_DUE_EVENTS,
  FETCH_DUE_REDELIVERIES,
  MARK_ASKED_ATTEMPTS,
  MARK_FAILED,
  MARK_SKIPPED,
  PUT_BACK,
  PUT_BACK_REDELIVERIES,
  RECORD_ATTEMPTS,
  SCHEDULE_RETRIES,
  attemptValues,
  type Attempted,
  type DueAttempt,
  type EventRow,
} from './delivery-rows.js';
import { storePauses, type Pause } from './endpoint-pauses.js';
import type { GiveUpReason } from './metrics.js';
import { recordRecoveryOutcomes, recoveryOutcomes } from './recovery.js';

/** What a batch decided for each attempt it took. */
export interface Settlement {
  /** Attempts made. A scheduled one delivered acknowledges its event; an asked one is done with. */
  readonly attempts: readonly Attempted[];
  /** Scheduled events whose attempt failed, due again at `at` with one more retry. */
  readonly retries: readonly Retry[];
  /** Scheduled events that failed for good. */
  readonly failed: readonly GivenUp[];
  /** Attempts not made now (their endpoint busy or paused), due again at `at`. */
  readonly putBack: readonly PutBack[];
  /** Scheduled events with no ACTIVE endpoint: nothing to deliver to. */
  readonly skipped: readonly DueAttempt[];
  /** Asked-for attempts that cannot be made (no ACTIVE endpoint, the window over): done with, undelivered. */
  readonly dropped: readonly DueAttempt[];
  /** Endpoints that asked for time, stored for every worker process. */
  readonly pauses: readonly Pause[];
}

export interface Retry {
  readonly row: EventRow;
  /** The numRetries of the attempt that failed. */
  readonly numRetries: number;
  readonly at: number;
}

export interface GivenUp {
  readonly row: EventRow;
  /** The numRetries of its last attempt. */
  readonly numRetries: number;
  readonly reason: GiveUpReason;
}

export interface PutBack {
  readonly due: DueAttempt;
  readonly at: number;
}

/** What a batch took and what its settlement changed, for the fetch loop and the metrics. */
export interface Taken {
  readonly count: number;
  /** The earliest time an attempt was put back for (ms), if any was. */
  readonly putBackUntil: number | undefined;
  /** The retry number of each retry scheduled. */
  readonly retried: readonly number[];
  /** Why each event that failed for good did. */
  readonly givenUp: readonly GiveUpReason[];
}

export interface DeliveryQueue {
  /**
   * Takes up to `limit` due attempts, held by this batch alone, and settles them with what `decide` answers.
   * If `decide` throws or the process dies first, the attempts are let go undecided, due again at once.
   */
  take(limit: number, decide: (due: readonly DueAttempt[]) => Promise<Settlement>): Promise<Taken>;
}

export function emptySettlement(): Settlement {
  return { attempts: [], retries: [], failed: [], putBack: [], skipped: [], dropped: [], pauses: [] };
}

/** The asked-for share of a batch at most, so that a large recovery cannot starve the schedule's events. */
export function askedShare(limit: number): number {
  return Math.ceil(limit / 2);
}

/**
 * The queue in PostgreSQL: the PENDING events by next_attempt_at (partial index events_due) and the
 * asked-for attempts of webhook_redeliveries by due_at, taken `FOR UPDATE SKIP LOCKED`. The row lock is the
 * lease: a process that dies mid-batch loses its connection, PostgreSQL rolls its transaction back, and the
 * attempts are due again at once for the other batches. The settlement is written in the same transaction.
 */
export class PostgresDeliveryQueue implements DeliveryQueue {
  constructor(
    private readonly config: WorkerConfig,
    private readonly dataSource: DataSource,
    private readonly boss: PgBoss,
    private readonly logger: Logger,
  ) {}

  take(limit: number, decide: (due: readonly DueAttempt[]) => Promise<Settlement>): Promise<Taken> {
    return transaction(this.dataSource, async (manager) => {
      const asked = await query<EventRow & { redelivery_id: string; recovery_id: string | null }>(
        manager,
        FETCH_DUE_REDELIVERIES,
        [askedShare(limit)],
      );
      const scheduled = await query<EventRow>(manager, FETCH_DUE_EVENTS, [limit - asked.length]);
      const due: DueAttempt[] = [
        ...asked.map(({ redelivery_id, recovery_id, ...row }) => ({
          row,
          asked: { id: redelivery_id, recoveryId: recovery_id },
        })),
        ...scheduled.map((row) => ({ row })),
      ];
      if (due.length === 0) return nothingTaken;
      const settlement = await decide(due);
      const { retried, givenUp } = await this.settle(manager, settlement);
      return { count: due.length, putBackUntil: earliestPutBack(settlement), retried, givenUp };
    });
  }

  private async settle(
    manager: EntityManager,
    s: Settlement,
  ): Promise<{ retried: number[]; givenUp: GiveUpReason[] }> {
    const done = { retried: [] as number[], givenUp: [] as GiveUpReason[] };
    const asked = s.attempts.filter((a) => a.due.asked);
    const recorded = s.attempts.length > 0 ? attemptValues(s.attempts) : undefined;
    const rest =
      asked.length +
      s.retries.length +
      s.failed.length +
      s.putBack.length +
      s.skipped.length +
      s.dropped.length +
      s.pauses.length;
    // The common batch, every scheduled attempt delivered: one statement.
    if (recorded) await query(manager, RECORD_ATTEMPTS, recorded);
    if (rest === 0) return done;

    if (asked.length > 0) {
      await query(manager, MARK_ASKED_ATTEMPTS, [
        asked.map((a) => a.due.row.id),
        asked.map((a) => a.numRetries),
        asked.map((a) => a.result.delivered),
      ]);
    }
    const finished = [...asked.map((a) => a.due), ...s.dropped].flatMap((d) => (d.asked ? [d.asked.id] : []));
    if (finished.length > 0) await query(manager, DONE_REDELIVERIES, [finished]);
    await recordRecoveryOutcomes(manager, recoveryOutcomes(s));
    if (s.skipped.length > 0) await query(manager, MARK_SKIPPED, [s.skipped.map((d) => d.row.id)]);
    await storePauses(manager, s.pauses);
    const [askedLater, scheduledLater] = partition(s.putBack, (p) => p.due.asked !== undefined);
    if (scheduledLater.length > 0) {
      await query(manager, PUT_BACK, [
        scheduledLater.map((p) => p.due.row.id),
        scheduledLater.map((p) => new Date(p.at).toISOString()),
      ]);
    }
    if (askedLater.length > 0) {
      await query(manager, PUT_BACK_REDELIVERIES, [
        askedLater.map((p) => p.due.asked?.id),
        askedLater.map((p) => new Date(p.at).toISOString()),
      ]);
    }
    if (s.retries.length > 0) {
      const moved = await query<{ id: string; num_retries: number }>(manager, SCHEDULE_RETRIES, [
        s.retries.map((r) => r.row.id),
        s.retries.map((r) => r.numRetries),
        s.retries.map((r) => new Date(r.at).toISOString()),
      ]);
      done.retried = moved.map((row) => row.num_retries);
    }
    if (s.failed.length > 0) done.givenUp = await this.fail(manager, s.failed);
    return done;
  }

  /**
   * FAILED for good: noted for the organisation's failure e-mail, which is scheduled per endpoint.
   * Returns why each event that moved was given up.
   */
  private async fail(manager: EntityManager, failed: readonly GivenUp[]): Promise<GiveUpReason[]> {
    const noted = await query<{ event_id: string; org_id: number }>(manager, MARK_FAILED, [
      failed.map((f) => f.row.id),
      failed.map((f) => f.numRetries),
    ]);
    const orgs = new Set(noted.map((row) => row.org_id));
    const endpoints = new Map<string, EventRow>();
    for (const { row } of failed)
      if (orgs.has(row.org_id) && row.endpoint_id) endpoints.set(row.endpoint_id, row);
    for (const [endpointId, row] of endpoints) {
      this.logger.warn({ orgId: row.org_id, url: row.url }, 'webhook events failed for good');
      const soonest = Date.now() + this.config.failureEmailDelayMs;
      const allowed = (row.last_failure_email_at?.getTime() ?? 0) + this.config.failureEmailIntervalMs;
      // One job waiting per endpoint (the queue's policy): if one is already due, this joins it.
      await this.boss.send(
        QUEUES.webhookFailureEmail,
        { endpointId },
        { singletonKey: endpointId, startAfter: new Date(Math.max(soonest, allowed)), db: bossDb(manager) },
      );
    }
    const reasons = new Map(failed.map((f) => [f.row.id, f.reason]));
    return noted.flatMap((row) => reasons.get(row.event_id) ?? []);
  }
}

const nothingTaken: Taken = { count: 0, putBackUntil: undefined, retried: [], givenUp: [] };

export function earliestPutBack(settlement: Settlement): number | undefined {
  return settlement.putBack.length > 0 ? Math.min(...settlement.putBack.map((p) => p.at)) : undefined;
}

function partition<T>(items: readonly T[], test: (item: T) => boolean): [T[], T[]] {
  const yes: T[] = [];
  const no: T[] = [];
  for (const item of items) (test(item) ? yes : no).push(item);
  return [yes, no];
}
