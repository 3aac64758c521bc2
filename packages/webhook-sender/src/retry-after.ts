// A receiver that asks for time (docs/api-guide.md#when-your-receiver-asks-for-time): the Retry-After of
// a 429 or 503 answer, as delay-seconds or an HTTP-date (RFC 9110 section 10.2.3). HTTP-date has three
// forms a recipient must read (section 5.6.7); Date.parse is not used because it reads far more than
// these, and reads the asctime form in local time.

/** Answers whose Retry-After is honoured. */
export const RETRY_AFTER_STATUSES: readonly number[] = [429, 503];

const DELAY_SECONDS = /^[0-9]+$/;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const MONTH = `(${MONTHS.join('|')})`;
const TIME = '([0-9]{2}):([0-9]{2}):([0-9]{2})';
/** Sun, 06 Nov 1994 08:49:37 GMT */
const IMF_FIXDATE = new RegExp(
  `^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), ([0-9]{2}) ${MONTH} ([0-9]{4}) ${TIME} GMT$`,
);
/** Sunday, 06-Nov-94 08:49:37 GMT */
const RFC850_DATE = new RegExp(
  `^(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), ([0-9]{2})-${MONTH}-([0-9]{2}) ${TIME} GMT$`,
);
/** Sun Nov  6 08:49:37 1994 (day padded with a space) */
const ASCTIME_DATE = new RegExp(
  `^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) ${MONTH} ([ 0-9][0-9]) ${TIME} ([0-9]{4})$`,
);

/**
 * How long, in ms from `now`, a Retry-After value asks to wait: 0 for a date already past, null when the
 * value is absent or not one of the forms (then it is ignored). Never more than Number.MAX_SAFE_INTEGER.
 */
export function parseRetryAfter(value: string | undefined, now: number): number | null {
  if (value === undefined) return null;
  const text = value.trim();
  if (DELAY_SECONDS.test(text)) return Math.min(Number(text) * 1000, Number.MAX_SAFE_INTEGER);
  const at = parseHttpDate(text, now);
  return at === null ? null : Math.max(0, at - now);
}

/** The instant of an HTTP-date in any of its three forms, or null. */
export function parseHttpDate(text: string, now: number): number | null {
  let match = IMF_FIXDATE.exec(text);
  if (match) {
    const [, day, month, year, h, m, s] = match;
    return instant(Number(year), month, day, h, m, s);
  }
  match = RFC850_DATE.exec(text);
  if (match) {
    const [, day, month, yy, h, m, s] = match;
    // A two-digit year more than 50 years ahead is the most recent past year with those digits.
    const thisYear = new Date(now).getUTCFullYear();
    let year = Math.floor(thisYear / 100) * 100 + Number(yy);
    if (year > thisYear + 50) year -= 100;
    return instant(year, month, day, h, m, s);
  }
  match = ASCTIME_DATE.exec(text);
  if (match) {
    const [, month, day, h, m, s, year] = match;
    return instant(Number(year), month, day?.trim(), h, m, s);
  }
  return null;
}

function instant(
  year: number,
  monthName: string | undefined,
  dayText: string | undefined,
  ...clock: (string | undefined)[]
): number | null {
  const month = MONTHS.indexOf(monthName ?? '');
  const day = Number(dayText);
  const [h, m, s] = clock.map(Number) as [number, number, number];
  const daysInMonth = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  // Second 60 is a leap second: read as the next second's start, as Date would.
  if (month < 0 || day < 1 || day > daysInMonth || h > 23 || m > 59 || s > 60) return null;
  return Date.UTC(year, month, day, h, m, s);
}
