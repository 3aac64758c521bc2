// Number literals against their canonical form (canonical-json.ts): whether String(Number(literal)) still
// denotes the literal's exact decimal value.
import { CanonicalJsonError, formatJsonPath, type JsonPathSegment } from './canonical-json-error.js';

const MINUS = 0x2d;
const ZERO = 0x30;

/**
 * Whether two JSON number texts (a literal and its String(Number()) form) denote the same decimal value.
 * `null` (a literal past the doubles) denotes none.
 */
export function sameDecimal(literal: string, canonical: string): boolean {
  return canonical !== 'null' && decimalKey(literal) === decimalKey(canonical);
}

/**
 * The decimal a number text denotes, as sign, significant digits and the power of ten of the last one:
 * 55.50 -> 555e-1, 1E2 -> 1e2, -0.0 -> 0. The exponent is read through Number: one too long for it to be
 * exact puts the value far outside the doubles, where the canonical form (null, 0) differs anyway.
 */
function decimalKey(text: string): string {
  const negative = text.charCodeAt(0) === MINUS;
  let exponentAt = text.indexOf('e');
  if (exponentAt < 0) exponentAt = text.indexOf('E');
  const mantissa = text.slice(negative ? 1 : 0, exponentAt < 0 ? text.length : exponentAt);
  let exponent = exponentAt < 0 ? 0 : Number(text.slice(exponentAt + 1));
  const dot = mantissa.indexOf('.');
  let digits = mantissa;
  if (dot >= 0) {
    digits = mantissa.slice(0, dot) + mantissa.slice(dot + 1);
    exponent -= mantissa.length - dot - 1;
  }
  let first = 0;
  while (first < digits.length && digits.charCodeAt(first) === ZERO) first++;
  if (first === digits.length) return '0';
  let end = digits.length;
  while (digits.charCodeAt(end - 1) === ZERO) end--;
  exponent += digits.length - end;
  return `${negative ? '-' : ''}${digits.slice(first, end)}e${exponent}`;
}

/** JavaScript's form of a JSON number literal; one too large for a double is written null, as JSON.stringify does. */
export function canonicalNumber(literal: string): string {
  const value = Number(literal);
  return Number.isFinite(value) ? String(value) : 'null';
}

/** A number refused on its way out of the nested values, gathering its path; run() makes it the error. */
export class AmbiguousNumber extends Error {
  readonly path: JsonPathSegment[] = [];

  constructor(
    readonly literal: string,
    readonly canonical: string,
    readonly position: number,
  ) {
    super('ambiguous number');
  }

  refusal(): CanonicalJsonError {
    const where = formatJsonPath(this.path);
    const detail =
      `${where}: the number ${this.literal.slice(0, 100)} would be signed as ${this.canonical}, another ` +
      'number; every number must keep its exact value when written as String(Number(x))';
    return new CanonicalJsonError('ambiguous_number', detail, this.position, [...this.path]);
  }
}
