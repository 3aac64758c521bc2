// ISO 8601 date-times with a zone, as requests give them: checked strictly (a real calendar date, at most
// milliseconds), since `Date.parse` accepts 2025-02-30 and zone-less text in local time.
const INSTANT =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?(?:(Z)|([+-])(\d{2}):(\d{2}))$/;

export const INSTANT_RULE =
  'an ISO 8601 date and time with a zone, e.g. 2030-01-31T22:00:00Z or 2030-02-01T00:00:00.000+02:00, at most milliseconds';

/** The instant `text` names, or undefined when it is not one. */
export function parseInstant(text: unknown): Date | undefined {
  if (typeof text !== 'string') return undefined;
  const match = INSTANT.exec(text);
  if (!match) return undefined;
  const [, y, mo, d, h, mi, s = '0', ms = '0', z, sign, oh = '0', om = '0'] = match;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth) return undefined;
  if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 59 || Number(oh) > 23 || Number(om) > 59)
    return undefined;
  const offsetMinutes = z ? 0 : (sign === '-' ? -1 : 1) * (Number(oh) * 60 + Number(om));
  const utc = Date.UTC(year, month - 1, day, Number(h), Number(mi), Number(s), Number(ms.padEnd(3, '0')));
  const date = new Date(utc - offsetMinutes * 60_000);
  return Number.isNaN(date.getTime()) ? undefined : date;
}
