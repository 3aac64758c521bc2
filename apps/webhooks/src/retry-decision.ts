// What follows a failed scheduled attempt (docs/api-guide.md#delivery-retries-and-the-24-hour-window): the
// next retry after the backoff, or later when the receiver asked for time, or FAILED when the retries are
// spent or the next one would fall outside the delivery window. Pure, so the schedule is tested alone.
import { MAX_EVENT_RETRIES } from '@svc/protocol';

import type { GiveUpReason } from './metrics.js';

export interface RetrySchedule {
  /** The waits before retries 1, 2 and 3 (ms). */
  readonly retryDelaysMs: readonly [number, number, number];
  /** Each wait is spread by up to this fraction either way. */
  readonly retryJitter: number;
  /** No attempt after the event's creation + this (ms). */
  readonly windowMs: number;
}

export interface FailedAttempt {
  /** The numRetries the failed attempt carried. */
  readonly numRetries: number;
  readonly createdAt: Date;
  /** The time the receiver asked to be left alone until (ms), if it did. */
  readonly pausedUntil?: number | undefined;
}

export type AfterFailure = { readonly kind: 'retry'; readonly at: number } | GiveUp;
export interface GiveUp {
  readonly kind: 'fail';
  readonly reason: GiveUpReason;
}

/** `random` is in [0, 1), as Math.random's. */
export function afterFailure(
  attempt: FailedAttempt,
  schedule: RetrySchedule,
  now: number,
  random: () => number = Math.random,
): AfterFailure {
  if (attempt.numRetries >= MAX_EVENT_RETRIES) return { kind: 'fail', reason: 'retries_exhausted' };
  const at = Math.max(now + backoff(attempt.numRetries, schedule, random), attempt.pausedUntil ?? 0);
  if (at >= deadlineOf(attempt.createdAt, schedule)) return { kind: 'fail', reason: 'window_expired' };
  return { kind: 'retry', at };
}

/** The wait before retry `numRetries + 1`: the configured step, spread by ± jitter. */
export function backoff(numRetries: number, schedule: RetrySchedule, random: () => number): number {
  const base = schedule.retryDelaysMs[numRetries] ?? schedule.retryDelaysMs[2];
  const spread = 1 + schedule.retryJitter * (random() * 2 - 1);
  return Math.round(base * spread);
}

/** The end of an event's delivery window (ms): no attempt at or after it, asked-for ones included. */
export function deadlineOf(createdAt: Date, schedule: Pick<RetrySchedule, 'windowMs'>): number {
  return createdAt.getTime() + schedule.windowMs;
}
