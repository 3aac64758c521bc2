// Canonical JSON of a raw body text, as signed (DESIGN section 5): transmitted key order, no whitespace,
// numbers in JavaScript form, strings escaped as JSON.stringify does. It works on the text, not on a
// parsed object, because JavaScript objects move integer-like keys ("10", "2") to the front.

/** Why a body cannot be canonicalised. Servers answer all three with 400. */
export type CanonicalJsonFailure = 'invalid_json' | 'duplicate_key' | 'too_deep';

export class CanonicalJsonError extends Error {
  override readonly name = 'CanonicalJsonError';

  constructor(
    readonly reason: CanonicalJsonFailure,
    readonly detail: string,
    /** Offset in the body text (UTF-16 code units) where the problem was found. */
    readonly position: number,
  ) {
    super(`${reason === 'invalid_json' ? 'Invalid JSON' : 'Refused JSON'}: ${detail} at position ${position}`);
  }
}

/** Deeper bodies are refused rather than risking the stack; no real request nests this far. */
export const MAX_JSON_DEPTH = 512;

/**
 * Canonical text of `text`. An absent or empty body is `{}`. Throws {@link CanonicalJsonError} on
 * invalid JSON, on a key repeated in one object, or past {@link MAX_JSON_DEPTH} levels of nesting.
 */
export function canonicalizeJson(text: string | undefined): string {
  if (text === undefined || text === '') return '{}';
  return new Canonicalizer(text).run();
}

const enum Char {
  Tab = 0x09,
  LineFeed = 0x0a,
  CarriageReturn = 0x0d,
  Space = 0x20,
  Quote = 0x22,
  Plus = 0x2b,
  Comma = 0x2c,
  Minus = 0x2d,
  Dot = 0x2e,
  Zero = 0x30,
  One = 0x31,
  Nine = 0x39,
  Colon = 0x3a,
  UpperE = 0x45,
  OpenBracket = 0x5b,
  Backslash = 0x5c,
  CloseBracket = 0x5d,
  LowerE = 0x65,
  LowerF = 0x66,
  LowerN = 0x6e,
  LowerT = 0x74,
  LowerU = 0x75,
  OpenBrace = 0x7b,
  CloseBrace = 0x7d,
}

/** Integers of up to 15 digits are exact doubles, so String(Number(x)) gives x back. */
const MAX_VERBATIM_INTEGER_LENGTH = 15;

/**
 * One pass over the text. The output is the input with some spans replaced (whitespace dropped,
 * numbers and strings rewritten); unchanged stretches are copied as slices, so a body that is already
 * canonical comes back as the very same string.
 */
class Canonicalizer {
  private pos = 0;
  private out = '';
  /** Everything before this offset is already in `out`. */
  private copied = 0;

  constructor(private readonly src: string) {}

  run(): string {
    this.skipWhitespace();
    this.value(0);
    this.skipWhitespace();
    if (this.pos < this.src.length) throw this.invalid('unexpected data after the JSON value');
    if (this.copied === 0) return this.src;
    return this.out + this.src.slice(this.copied);
  }

  private replace(from: number, to: number, text: string): void {
    this.out += this.src.slice(this.copied, from) + text;
    this.copied = to;
  }

  private value(depth: number): void {
    switch (this.src.charCodeAt(this.pos)) {
      case Char.OpenBrace:
        this.object(depth + 1);
        return;
      case Char.OpenBracket:
        this.array(depth + 1);
        return;
      case Char.Quote:
        this.string();
        return;
      case Char.LowerT:
        this.literal('true');
        return;
      case Char.LowerF:
        this.literal('false');
        return;
      case Char.LowerN:
        this.literal('null');
        return;
      default:
        this.number();
    }
  }

  private object(depth: number): void {
    if (depth > MAX_JSON_DEPTH) throw this.tooDeep();
    this.pos++;
    this.skipWhitespace();
    if (this.src.charCodeAt(this.pos) === Char.CloseBrace) {
      this.pos++;
      return;
    }
    const keys = new Set<string>();
    for (;;) {
      if (this.src.charCodeAt(this.pos) !== Char.Quote) throw this.invalid('expected a string key');
      const keyAt = this.pos;
      const key = this.string();
      if (keys.has(key)) {
        throw new CanonicalJsonError('duplicate_key', `duplicate key ${JSON.stringify(key)}`, keyAt);
      }
      keys.add(key);
      this.skipWhitespace();
      if (this.src.charCodeAt(this.pos) !== Char.Colon) throw this.invalid("expected ':' after a key");
      this.pos++;
      this.skipWhitespace();
      this.value(depth);
      this.skipWhitespace();
      const next = this.src.charCodeAt(this.pos++);
      if (next === Char.CloseBrace) return;
      if (next !== Char.Comma) throw this.invalid("expected ',' or '}'", this.pos - 1);
      this.skipWhitespace();
    }
  }

  private array(depth: number): void {
    if (depth > MAX_JSON_DEPTH) throw this.tooDeep();
    this.pos++;
    this.skipWhitespace();
    if (this.src.charCodeAt(this.pos) === Char.CloseBracket) {
      this.pos++;
      return;
    }
    for (;;) {
      this.value(depth);
      this.skipWhitespace();
      const next = this.src.charCodeAt(this.pos++);
      if (next === Char.CloseBracket) return;
      if (next !== Char.Comma) throw this.invalid("expected ',' or ']'", this.pos - 1);
      this.skipWhitespace();
    }
  }

  /** Reads a string token and returns its value. */
  private string(): string {
    const src = this.src;
    const start = this.pos;
    let i = start + 1;
    // Verbatim unless it holds an escape or a lone surrogate, which JSON.stringify would spell differently.
    let verbatim = true;
    for (;;) {
      const c = src.charCodeAt(i);
      if (c === Char.Quote) break;
      if (c === Char.Backslash) {
        verbatim = false;
        i += this.escapeLength(i);
      } else if (!(c >= Char.Space)) {
        // NaN (end of text) fails the comparison too.
        if (i >= src.length) throw this.invalid('unterminated string', start);
        throw this.invalid(`control character U+${hex4(c)} must be escaped in a string`, i);
      } else if (c >= 0xd800 && c <= 0xdfff) {
        const next = src.charCodeAt(i + 1);
        if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
          i += 2;
        } else {
          verbatim = false;
          i++;
        }
      } else {
        i++;
      }
    }
    this.pos = i + 1;
    if (verbatim) return src.slice(start + 1, i);
    const raw = src.slice(start, i + 1);
    const value = JSON.parse(raw) as string;
    const canonical = JSON.stringify(value);
    if (canonical !== raw) this.replace(start, i + 1, canonical);
    return value;
  }

  /** Length of the escape sequence at `at` (which holds the backslash). */
  private escapeLength(at: number): number {
    const c = this.src.charCodeAt(at + 1);
    switch (c) {
      case Char.Quote:
      case Char.Backslash:
      case 0x2f: // '/'
      case 0x62: // 'b'
      case Char.LowerF:
      case Char.LowerN:
      case 0x72: // 'r'
      case Char.LowerT:
        return 2;
      case Char.LowerU:
        if (!/^[0-9a-fA-F]{4}$/.test(this.src.slice(at + 2, at + 6))) {
          throw this.invalid('\\u must be followed by four hex digits', at);
        }
        return 6;
      default:
        throw this.invalid('invalid escape sequence in a string', at);
    }
  }

  private number(): void {
    const src = this.src;
    const start = this.pos;
    let i = start;
    let verbatim = true;
    if (src.charCodeAt(i) === Char.Minus) i++;
    const first = src.charCodeAt(i);
    if (first === Char.Zero) {
      i++;
      // "-0" is a number whose canonical form is "0".
      if (i - start === 2) verbatim = false;
    } else if (first >= Char.One && first <= Char.Nine) {
      i = this.digits(i);
    } else {
      throw this.invalid(i === start ? 'unexpected character' : 'expected a digit after -', i);
    }
    if (src.charCodeAt(i) === Char.Dot) {
      verbatim = false;
      i = this.requireDigits(i + 1, "expected a digit after '.'");
    }
    const e = src.charCodeAt(i);
    if (e === Char.LowerE || e === Char.UpperE) {
      verbatim = false;
      i++;
      const sign = src.charCodeAt(i);
      if (sign === Char.Plus || sign === Char.Minus) i++;
      i = this.requireDigits(i, 'expected a digit in the exponent');
    }
    this.pos = i;
    if (verbatim && i - start <= MAX_VERBATIM_INTEGER_LENGTH) return;
    const literal = src.slice(start, i);
    const canonical = canonicalNumber(literal);
    if (canonical !== literal) this.replace(start, i, canonical);
  }

  private digits(from: number): number {
    let i = from;
    for (let c = this.src.charCodeAt(i); c >= Char.Zero && c <= Char.Nine; c = this.src.charCodeAt(++i));
    return i;
  }

  private requireDigits(from: number, message: string): number {
    const to = this.digits(from);
    if (to === from) throw this.invalid(message, from);
    return to;
  }

  private literal(word: 'true' | 'false' | 'null'): void {
    if (!this.src.startsWith(word, this.pos)) throw this.invalid('unexpected character');
    this.pos += word.length;
  }

  private skipWhitespace(): void {
    const start = this.pos;
    let i = start;
    for (;;) {
      const c = this.src.charCodeAt(i);
      if (c !== Char.Space && c !== Char.LineFeed && c !== Char.CarriageReturn && c !== Char.Tab) break;
      i++;
    }
    if (i !== start) {
      this.replace(start, i, '');
      this.pos = i;
    }
  }

  private invalid(detail: string, at = this.pos): CanonicalJsonError {
    const found = at < this.src.length ? JSON.stringify(this.src.charAt(at)) : 'end of text';
    let what = detail;
    if (detail === 'unexpected character') what = `unexpected ${found}`;
    else if (detail.startsWith('expected')) what = `${detail}, found ${found}`;
    return new CanonicalJsonError('invalid_json', what, at);
  }

  private tooDeep(): CanonicalJsonError {
    return new CanonicalJsonError('too_deep', `nesting deeper than ${MAX_JSON_DEPTH} levels`, this.pos);
  }
}

/** JavaScript's form of a JSON number literal; one too large for a double is written null, as JSON.stringify does. */
function canonicalNumber(literal: string): string {
  const value = Number(literal);
  return Number.isFinite(value) ? String(value) : 'null';
}

function hex4(code: number): string {
  return code.toString(16).toUpperCase().padStart(4, '0');
}
