// The time range of a CSV export (docs/dashboard.md#exports, docs/console.md#audit-log): `since` and
// `until` in the query, each a day (2030-01-31, as a date field sends it: that UTC day's start for since,
// the next day's start for until, so the day is included) or an instant with a zone. Left out: the last
// 30 days up to now.
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, registerDecorator } from 'class-validator';

import { badRequest } from './errors.js';
import { INSTANT_RULE, parseInstant } from './instant.js';

const DAY_MS = 86_400_000;
const DEFAULT_DAYS = 30;
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

export const RANGE_RULE = `a day (2030-01-31, in UTC) or ${INSTANT_RULE}`;

/** The start of the UTC day `text` names (2030-01-31), or undefined when it names none. */
function parseDay(text: string): Date | undefined {
  const match = DAY.exec(text);
  if (!match) return undefined;
  const [, y, m, d] = match.map(Number) as [number, number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d
    ? date
    : undefined;
}

/** A bound of the range: a day's start (plus a day for `until`), or an instant. */
export function parseBound(value: unknown, end: boolean): Date | undefined {
  if (typeof value !== 'string') return undefined;
  const day = parseDay(value);
  if (day) return end ? new Date(day.getTime() + DAY_MS) : day;
  return parseInstant(value);
}

function Bound(end: boolean, description: string) {
  return (target: object, propertyName: string) => {
    IsOptional()(target, propertyName);
    registerDecorator({
      name: 'isRangeBound',
      target: target.constructor,
      propertyName,
      validator: {
        validate: (value: unknown) => parseBound(value, end) !== undefined,
        defaultMessage: () => `${propertyName} must be ${RANGE_RULE}`,
      },
    });
    ApiPropertyOptional({ type: 'string', description: `${description} (${RANGE_RULE})` })(
      target,
      propertyName,
    );
  };
}

/** The query of an export: its time range. */
export class ExportRangeQuery {
  @Bound(false, 'Rows created at or after this time')
  since?: string;

  @Bound(true, 'Rows created before this time (a day: up to its end)')
  until?: string;
}

export interface TimeRange {
  /** At or after. */
  readonly since: Date;
  /** Before. */
  readonly until: Date;
}

/** The range a checked query names; 400 naming both fields when until is not after since. */
export function timeRange(query: ExportRangeQuery, now = new Date()): TimeRange {
  const until = parseBound(query.until, true) ?? now;
  const since = parseBound(query.since, false) ?? new Date(until.getTime() - DEFAULT_DAYS * DAY_MS);
  if (until <= since) throw badRequest('until must be after since');
  return { since, until };
}

/** "2030-01-01_2030-01-31": a range as a file name's part (the UTC days of its ends). */
export function rangeName(range: TimeRange): string {
  const day = (date: Date) => date.toISOString().slice(0, 10);
  return `${day(range.since)}_${day(new Date(range.until.getTime() - 1))}`;
}
