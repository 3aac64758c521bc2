// How the web areas write numbers and times for people (docs/decisions.md, "Web pages: numbers and
// times as people read them"): amounts grouped by thousands with every digit they hold, rates as percentages, times
// in UTC (public/web.js rewrites them to the viewer's zone). Nothing here rounds: the text shown is the
// exact value, only grouped, so copying it loses no digit.
import { Dec } from '../common/decimal.js';

/**
 * An amount as the api answers it: a number, the exact-digits JSON value of common/decimal.ts
 * (exactNumber, which only JSON.stringify writes), or decimal text as PostgreSQL stores it.
 */
export type AmountValue = number | string;

/**
 * The exact decimal of `value` in plain digits, without exponent or trailing zeros ("55000.50000000" →
 * "55000.5", 1e-7 → "0.0000001"); undefined when it is no finite number.
 */
export function exactDecimal(value: AmountValue): string | undefined {
  const text = typeof value === 'string' ? value.trim() : JSON.stringify(value);
  if (!/^-?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(text)) return undefined;
  return new Dec(text).toFixed();
}

/** Plain decimal digits with the integer part grouped by thousands: "-1234567.891" → "-1,234,567.891". */
export function groupDigits(plain: string): string {
  const match = /^(-?)(\d+)(\.\d+)?$/.exec(plain);
  if (!match) return plain;
  const [, sign = '', integer = '', fraction = ''] = match;
  return `${sign}${integer.replace(/\B(?=(\d{3})+$)/g, ',')}${fraction}`;
}

/** What to show of an amount, and its exact digits for a title or a copy. */
export interface Shown {
  readonly text: string;
  readonly exact: string;
}

/**
 * An amount with its unit: "1,234.5 EUR". Every digit stays: 0.12345678 BTC is shown so, never 0.12. A
 * value that is no number is shown as it came.
 */
export function formatAmount(value: AmountValue, unit?: string): Shown {
  const exact = exactDecimal(value);
  const digits = exact === undefined ? String(value) : groupDigits(exact);
  return { text: unit ? `${digits} ${unit}` : digits, exact: exact ?? String(value) };
}

/** A rate as a percentage, exactly (the decimal point moved, not a float product): 0.0015 → "0.15 %". */
export function formatRate(value: AmountValue): Shown {
  const exact = exactDecimal(value);
  if (exact === undefined) return { text: String(value), exact: String(value) };
  return { text: `${groupDigits(new Dec(exact).times(100).toFixed())} %`, exact };
}

/** A count: 12345 → "12,345". */
export function formatCount(value: number): string {
  return Number.isSafeInteger(value) ? groupDigits(String(value)) : String(value);
}

/**
 * An ISO 8601 time as the server shows it, in UTC to the second: "2030-01-31 12:00:05 UTC". The script
 * replaces it with the viewer's local time; the exact value stays in the element's datetime and title.
 */
export function formatUtc(iso: string): string {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}(?::\d{2})?)(?:\.\d+)?Z$/.exec(iso);
  return match ? `${match[1]} ${match[2]} UTC` : iso;
}

/**
 * A JSON object or array on one line, cut at `max` characters with an ellipsis: the summary of a folded
 * record (an audit entry's details). The whole value is shown unfolded, pretty-printed.
 */
export function jsonPreview(value: object, max = 80): string {
  const text = JSON.stringify(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
