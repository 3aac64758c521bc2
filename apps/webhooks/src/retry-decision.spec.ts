import { afterFailure, backoff, deadlineOf, type RetrySchedule } from './retry-decision.js';

const schedule: RetrySchedule = {
  retryDelaysMs: [60_000, 600_000, 6_000_000],
  retryJitter: 0.1,
  windowMs: 86_400_000,
};
const createdAt = new Date('2026-11-27T10:00:00.000Z');
const now = createdAt.getTime() + 1000;
const middle = () => 0.5; // no jitter: spread = 1 + 0.1 * (0.5 * 2 - 1)

describe('afterFailure', () => {
  it('retries after each step of the schedule, numRetries 0, 1 and 2', () => {
    expect(afterFailure({ numRetries: 0, createdAt }, schedule, now, middle)).toEqual({
      kind: 'retry',
      at: now + 60_000,
    });
    expect(afterFailure({ numRetries: 1, createdAt }, schedule, now, middle)).toEqual({
      kind: 'retry',
      at: now + 600_000,
    });
    expect(afterFailure({ numRetries: 2, createdAt }, schedule, now, middle)).toEqual({
      kind: 'retry',
      at: now + 6_000_000,
    });
  });

  it('fails the event for good after the third retry', () => {
    expect(afterFailure({ numRetries: 3, createdAt }, schedule, now, middle)).toEqual({
      kind: 'fail',
      reason: 'retries_exhausted',
    });
  });

  it('waits for the time the receiver asked for when it is later than the backoff', () => {
    const pausedUntil = now + 120_000;
    expect(afterFailure({ numRetries: 0, createdAt, pausedUntil }, schedule, now, middle)).toEqual({
      kind: 'retry',
      at: pausedUntil,
    });
    expect(afterFailure({ numRetries: 0, createdAt, pausedUntil: now + 5 }, schedule, now, middle)).toEqual({
      kind: 'retry',
      at: now + 60_000,
    });
  });

  it('fails the event when the next retry would fall at or past the end of the window', () => {
    const late = deadlineOf(createdAt, schedule) - 60_000;
    expect(afterFailure({ numRetries: 0, createdAt }, schedule, late, middle)).toEqual({
      kind: 'fail',
      reason: 'window_expired',
    });
    expect(afterFailure({ numRetries: 0, createdAt }, schedule, late - 1, middle)).toEqual({
      kind: 'retry',
      at: late - 1 + 60_000,
    });
    const pausedPastWindow = { numRetries: 1, createdAt, pausedUntil: deadlineOf(createdAt, schedule) };
    expect(afterFailure(pausedPastWindow, schedule, now, middle).kind).toBe('fail');
  });
});

describe('backoff', () => {
  it('spreads each step by at most the jitter either way', () => {
    expect(backoff(0, schedule, () => 0)).toBe(54_000);
    expect(backoff(0, schedule, () => 0.999_999_9)).toBe(66_000);
    expect(backoff(2, schedule, () => 0.25)).toBe(5_700_000);
  });

  it('keeps the last step for any later retry number', () => {
    expect(backoff(7, schedule, middle)).toBe(6_000_000);
  });
});
