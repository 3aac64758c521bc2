// The delivery queue in this process's memory: the same contract as the PostgreSQL queue
// (delivery-queue.ts), so that the worker's decisions (delivery.ts) are tested without a database. It
// keeps what a settlement changes where a test can read it: each event's status and numRetries, the
// attempts recorded, the asked-for attempts still queued.
import { randomUUID } from 'node:crypto';

import type { Attempted, DueAttempt, EventRow } from './delivery-rows.js';
import {
  askedShare,
  earliestPutBack,
  type DeliveryQueue,
  type Settlement,
  type Taken,
} from './delivery-queue.js';
import type { GiveUpReason } from './metrics.js';
import { recoveryOutcomes, type RecoveryOutcome } from './recovery.js';

export type EventStatus = 'PENDING' | 'DELIVERED' | 'FAILED' | 'SKIPPED';

interface QueuedEvent {
  row: EventRow;
  status: EventStatus;
  nextAttemptAt: number;
}

interface QueuedRedelivery {
  readonly id: string;
  readonly eventId: string;
  readonly recoveryId: string | null;
  dueAt: number;
}

export class MemoryDeliveryQueue implements DeliveryQueue {
  private readonly events = new Map<string, QueuedEvent>();
  private readonly redeliveries: QueuedRedelivery[] = [];
  private readonly held = new Set<string>();
  readonly attempts: Attempted[] = [];
  readonly recovered: RecoveryOutcome[] = [];

  constructor(private readonly now: () => number = Date.now) {}

  /** An event in the status its row says (a new one is PENDING), its next attempt due at `at`. */
  add(row: EventRow, at = this.now()): void {
    this.events.set(row.id, { row: { ...row }, status: row.status as EventStatus, nextAttemptAt: at });
  }

  /** One asked-for attempt of a known event, due at once. */
  redeliver(eventId: string, recoveryId: string | null = null): void {
    if (!this.events.has(eventId)) throw new Error(`no event ${eventId}`);
    this.redeliveries.push({ id: randomUUID(), eventId, recoveryId, dueAt: this.now() });
  }

  /** The event as the settlements left it. */
  event(id: string): { status: EventStatus; numRetries: number; nextAttemptAt: number } | undefined {
    const event = this.events.get(id);
    return (
      event && { status: event.status, numRetries: event.row.num_retries, nextAttemptAt: event.nextAttemptAt }
    );
  }

  /** The asked-for attempts still queued. */
  get queuedRedeliveries(): readonly { eventId: string; recoveryId: string | null; dueAt: number }[] {
    return this.redeliveries;
  }

  async take(limit: number, decide: (due: readonly DueAttempt[]) => Promise<Settlement>): Promise<Taken> {
    const now = this.now();
    const asked = this.redeliveries
      .filter((r) => r.dueAt <= now && !this.held.has(r.id))
      .sort((a, b) => a.dueAt - b.dueAt)
      .slice(0, askedShare(limit))
      .map((r): DueAttempt => ({
        row: this.rowOf(r.eventId),
        asked: { id: r.id, recoveryId: r.recoveryId },
      }));
    const scheduled = [...this.events.values()]
      .filter((e) => e.status === 'PENDING' && e.nextAttemptAt <= now && !this.held.has(e.row.id))
      .sort((a, b) => a.nextAttemptAt - b.nextAttemptAt)
      .slice(0, limit - asked.length)
      .map((e): DueAttempt => ({ row: { ...e.row } }));
    const due = [...asked, ...scheduled];
    if (due.length === 0) return { count: 0, putBackUntil: undefined, retried: [], givenUp: [] };
    const keys = due.map((d) => d.asked?.id ?? d.row.id);
    keys.forEach((key) => this.held.add(key));
    try {
      const settlement = await decide(due);
      return { count: due.length, putBackUntil: earliestPutBack(settlement), ...this.settle(settlement) };
    } finally {
      keys.forEach((key) => this.held.delete(key));
    }
  }

  private settle(s: Settlement): { retried: number[]; givenUp: GiveUpReason[] } {
    for (const attempt of s.attempts) {
      this.attempts.push(attempt);
      const event = this.eventOf(attempt.due.row.id);
      if (attempt.due.asked) {
        event.row.num_retries = Math.max(event.row.num_retries, attempt.numRetries);
        if (attempt.result.delivered) event.status = 'DELIVERED';
      } else if (attempt.result.delivered) event.status = 'DELIVERED';
    }
    const finished = new Set(
      [...s.attempts.map((a) => a.due), ...s.dropped].flatMap((d) => (d.asked ? [d.asked.id] : [])),
    );
    this.removeRedeliveries(finished);
    this.recovered.push(...recoveryOutcomes(s));
    for (const due of s.skipped) this.eventOf(due.row.id).status = 'SKIPPED';
    for (const { due, at } of s.putBack) {
      if (due.asked) {
        const redelivery = this.redeliveries.find((r) => r.id === due.asked?.id);
        if (redelivery) redelivery.dueAt = at;
      } else this.eventOf(due.row.id).nextAttemptAt = at;
    }
    const retried = s.retries.map(({ row, numRetries, at }) => {
      const event = this.eventOf(row.id);
      event.row.num_retries = numRetries + 1;
      event.nextAttemptAt = at;
      return numRetries + 1;
    });
    const givenUp = s.failed.flatMap(({ row, numRetries, reason }) => {
      const event = this.eventOf(row.id);
      if (event.row.num_retries !== numRetries || event.status !== 'PENDING') return [];
      event.status = 'FAILED';
      return [reason];
    });
    return { retried, givenUp };
  }

  private removeRedeliveries(ids: ReadonlySet<string>): void {
    for (let i = this.redeliveries.length - 1; i >= 0; i--)
      if (ids.has(this.redeliveries[i]?.id ?? '')) this.redeliveries.splice(i, 1);
  }

  private rowOf(eventId: string): EventRow {
    const event = this.eventOf(eventId);
    return { ...event.row, status: event.status };
  }

  private eventOf(id: string): QueuedEvent {
    const event = this.events.get(id);
    if (!event) throw new Error(`no event ${id}`);
    return event;
  }
}
