import fc from 'fast-check';

import { MAX_RECONNECT_MS, reconnectDelay } from './reconnect-delay.js';

describe('reconnectDelay', () => {
  it('doubles from the base at each failure, up to a minute, within the upper half', () => {
    expect([0, 1, 2, 3].map((failures) => reconnectDelay(failures, 1000, 0))).toEqual([
      500, 1000, 2000, 4000,
    ]);
    expect([0, 1, 2, 3].map((failures) => reconnectDelay(failures, 1000, 0.999999))).toEqual([
      1000, 2000, 4000, 8000,
    ]);
    expect(reconnectDelay(10, 1000, 0)).toBe(MAX_RECONNECT_MS / 2);
    expect(reconnectDelay(1000, 1000, 0.999999)).toBe(MAX_RECONNECT_MS);
  });

  it('never waits less than half the base or more than a minute (property)', () => {
    fc.assert(
      fc.property(
        fc.nat({ max: 10_000 }),
        fc.integer({ min: 10, max: 60_000 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (failures, base, random) => {
          const delay = reconnectDelay(failures, base, random);
          expect(delay).toBeGreaterThanOrEqual(Math.floor(base / 2));
          expect(delay).toBeLessThanOrEqual(MAX_RECONNECT_MS);
        },
      ),
    );
  });
});
