// Retry-After as a receiver writes it: delay-seconds and the three HTTP-date forms, and what is ignored.
import fc from 'fast-check';

import { parseHttpDate, parseRetryAfter } from '../src/retry-after.js';

const NOW = Date.UTC(2026, 4, 10, 12, 0, 0);

describe('parseRetryAfter', () => {
  it.each([
    ['0', 0],
    ['1', 1000],
    ['120', 120_000],
    [' 30 ', 30_000],
    ['007', 7000],
    ['86400', 86_400_000],
  ])('reads delay-seconds %j as %i ms', (value, ms) => {
    expect(parseRetryAfter(value, NOW)).toBe(ms);
  });

  it('caps an absurd number of seconds at the largest safe integer', () => {
    expect(parseRetryAfter('9'.repeat(400), NOW)).toBe(Number.MAX_SAFE_INTEGER);
  });

  it.each([
    ['IMF-fixdate', 'Sun, 10 May 2026 12:02:00 GMT', 120_000],
    ['RFC 850', 'Sunday, 10-May-26 13:00:00 GMT', 3_600_000],
    ['asctime, one-digit day', 'Sun May 10 12:00:30 2026', 30_000],
    ['asctime, day padded with a space', 'Mon Jun  1 12:00:00 2026', 22 * 86_400_000],
  ])('reads an HTTP-date (%s) as the time from now until it', (_form, value, ms) => {
    expect(parseRetryAfter(value, NOW)).toBe(ms);
  });

  it('answers 0 for a date already past', () => {
    expect(parseRetryAfter('Sat, 09 May 2026 12:00:00 GMT', NOW)).toBe(0);
  });

  it.each([
    ['absent', undefined],
    ['empty', ''],
    ['negative', '-5'],
    ['a fraction', '1.5'],
    ['an exponent', '1e3'],
    ['words', 'soon'],
    ['ISO 8601', '2026-05-10T12:02:00Z'],
    ['a zone other than GMT', 'Sun, 10 May 2026 12:02:00 UTC'],
    ['no day name', '10 May 2026 12:02:00 GMT'],
    ['a month that is not one', 'Sun, 10 Foo 2026 12:02:00 GMT'],
    ['30 February', 'Mon, 30 Feb 2026 12:00:00 GMT'],
    ['hour 24', 'Sun, 10 May 2026 24:00:00 GMT'],
    ['minute 60', 'Sun, 10 May 2026 12:60:00 GMT'],
    ['a lower-case month', 'Sun, 10 may 2026 12:02:00 GMT'],
  ])('ignores a value that is %s (null)', (_name, value) => {
    expect(parseRetryAfter(value, NOW)).toBeNull();
  });

  it('reads a two-digit year more than 50 years ahead as the past century', () => {
    expect(parseHttpDate('Thursday, 01-Jan-70 00:00:00 GMT', NOW)).toBe(Date.UTC(2070, 0, 1));
    expect(parseHttpDate('Tuesday, 01-Jan-80 00:00:00 GMT', NOW)).toBe(Date.UTC(1980, 0, 1));
  });

  it('reads back every date Date#toUTCString writes (IMF-fixdate)', () => {
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(1000, 0, 1), max: Date.UTC(9999, 11, 31) }), (ms) => {
        const second = Math.floor(ms / 1000) * 1000;
        expect(parseHttpDate(new Date(second).toUTCString(), NOW)).toBe(second);
      }),
    );
  });

  it('reads any whole number of seconds as that many thousand ms', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 ** 9 }), (seconds) => {
        expect(parseRetryAfter(String(seconds), NOW)).toBe(seconds * 1000);
      }),
    );
  });
});
