import fc from 'fast-check';

import { endpointHealth, FAILING_STREAK, type HealthFacts, RECENT_ATTEMPTS } from './endpoint-health.js';

const now = new Date('2030-01-31T10:00:00.000Z');
const error = { at: now, errorKind: 'http_status', statusCode: 500, response: 'boom' };

const quiet: HealthFacts = {
  endpointStatus: 'ACTIVE',
  pausedUntil: null,
  recentAttempts: 0,
  recentFailures: 0,
  consecutiveFailures: 0,
  failedEvents: 0,
  lastError: null,
};

const state = (facts: Partial<HealthFacts>) => endpointHealth({ ...quiet, ...facts }, now).state;

describe('endpointHealth', () => {
  it('is NO_ENDPOINT without a registration or when its challenge failed, whatever else', () => {
    expect(endpointHealth({ ...quiet, endpointStatus: null }, now)).toMatchObject({
      state: 'NO_ENDPOINT',
      reason: 'No webhook is registered.',
    });
    expect(state({ endpointStatus: 'CHALLENGE_FAILED', consecutiveFailures: 9, recentFailures: 9 })).toBe(
      'NO_ENDPOINT',
    );
  });

  it('is HEALTHY when the recent attempts were delivered, and when nothing was sent', () => {
    expect(endpointHealth({ ...quiet, recentAttempts: 20 }, now)).toMatchObject({
      state: 'HEALTHY',
      reason: 'The last 20 attempts were delivered.',
    });
    expect(endpointHealth(quiet, now).reason).toBe('Nothing was sent in the last 24 hours.');
  });

  it(`is FAILING from ${FAILING_STREAK} failed attempts in a row, with the last error`, () => {
    const failing = endpointHealth(
      { ...quiet, recentAttempts: 5, recentFailures: 3, consecutiveFailures: 3, lastError: error },
      now,
    );
    expect(failing).toEqual({
      state: 'FAILING',
      reason: 'The last 3 attempts failed.',
      recentAttempts: 5,
      recentFailures: 3,
      consecutiveFailures: 3,
      failedEvents: 0,
      lastError: error,
    });
    expect(state({ recentAttempts: 5, recentFailures: 2, consecutiveFailures: 2 })).toBe('DEGRADED');
  });

  it('is DEGRADED for a recent failure, an event still FAILED, or a pause in force, naming each', () => {
    expect(
      endpointHealth(
        {
          ...quiet,
          recentAttempts: 20,
          recentFailures: 1,
          failedEvents: 2,
          pausedUntil: new Date(now.getTime() + 60_000),
        },
        now,
      ).reason,
    ).toBe(
      '1 of the last 20 attempts failed; 2 events of the last 24 hours failed for good; the receiver asked for time until 2030-01-31T10:01:00.000Z.',
    );
    expect(state({ failedEvents: 1 })).toBe('DEGRADED');
    // A pause that is over is no pause.
    expect(state({ pausedUntil: new Date(now.getTime() - 1) })).toBe('HEALTHY');
  });

  it('decides every combination by the documented rule', () => {
    const facts = fc
      .record({
        endpointStatus: fc.constantFrom(null, 'ACTIVE', 'CHALLENGE_FAILED'),
        pausedUntil: fc.option(
          fc.integer({ min: -3600_000, max: 3600_000 }).map((ms) => new Date(now.getTime() + ms)),
        ),
        recentAttempts: fc.integer({ min: 0, max: RECENT_ATTEMPTS }),
        failedEvents: fc.integer({ min: 0, max: 1000 }),
        failures: fc.nat(),
        streak: fc.nat(),
      })
      .map(({ failures, streak, ...rest }): HealthFacts => {
        const recentFailures = rest.recentAttempts === 0 ? 0 : failures % (rest.recentAttempts + 1);
        const consecutiveFailures = recentFailures === 0 ? 0 : streak % (recentFailures + 1);
        return { ...rest, recentFailures, consecutiveFailures, lastError: recentFailures > 0 ? error : null };
      });
    fc.assert(
      fc.property(facts, (f) => {
        const expected =
          f.endpointStatus !== 'ACTIVE'
            ? 'NO_ENDPOINT'
            : f.consecutiveFailures >= FAILING_STREAK
              ? 'FAILING'
              : f.recentFailures > 0 || f.failedEvents > 0 || (f.pausedUntil?.getTime() ?? 0) > now.getTime()
                ? 'DEGRADED'
                : 'HEALTHY';
        const health = endpointHealth(f, now);
        return health.state === expected && health.reason.length > 0 && health.lastError === f.lastError;
      }),
    );
  });
});
