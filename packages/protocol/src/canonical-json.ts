// Canonical JSON of a raw body text, as signed (docs/api-guide.md#api-key-signing): transmitted key order, no
// whitespace, numbers in JavaScript form, strings escaped as JSON.stringify does. It works on the text, not
// on a parsed object, because JavaScript objects move integer-like keys ("10", "2") to the front.
import { CanonicalJsonError } from './canonical-json-error.js';
import { AmbiguousNumber, canonicalNumber, sameDecimal } from './canonical-numbers.js';

export { CanonicalJsonError, formatJsonPath } from './canonical-json-error.js';
export type { CanonicalJsonFailure, JsonPathSegment } from './canonical-json-error.js';

export interface CanonicalizeOptions {
  /**
   * A number literal whose exact decimal value differs from that of its canonical form
   * `String(Number(literal))` (9007199254740993, 12345678901234567891, 1e400, 0.1000000000000000055511151231257827):
   * `'refuse'` (the default, and what signing uses) throws a CanonicalJsonError `ambiguous_number` naming its
   * path; `'rewrite'` writes the canonical form, for a reader that does not rely on a signature over it.
   * Literals that merely spell the same value otherwise (55.50, 1E2, -0) are rewritten either way.
   */
  readonly ambiguousNumbers?: 'refuse' | 'rewrite';
}

/** Deeper bodies are refused rather than risking the stack; no real request nests this far. */
export const MAX_JSON_DEPTH = 512;

/**
 * Canonical text of `text`. An absent or empty body is `{}`. Throws {@link CanonicalJsonError} on
 * invalid JSON, on a key repeated in one object, past {@link MAX_JSON_DEPTH} levels of nesting, or (unless
 * told otherwise) on a number its canonical form would change the value of.
 */
export function canonicalizeJson(text: string | undefined, options: CanonicalizeOptions = {}): string {
  if (text === undefined || text === '') return '{}';
  return new Canonicalizer(text, options.ambiguousNumbers !== 'rewrite').run();
}

// Character codes the scanner compares against.
const TAB = 0x09;
const LINE_FEED = 0x0a;
const CARRIAGE_RETURN = 0x0d;
const SPACE = 0x20;
const QUOTE = 0x22;
const SLASH = 0x2f;
const PLUS = 0x2b;
const COMMA = 0x2c;
const MINUS = 0x2d;
const DOT = 0x2e;
const ZERO = 0x30;
const ONE = 0x31;
const NINE = 0x39;
const COLON = 0x3a;
const UPPER_E = 0x45;
const OPEN_BRACKET = 0x5b;
const BACKSLASH = 0x5c;
const CLOSE_BRACKET = 0x5d;
const LOWER_B = 0x62;
const LOWER_E = 0x65;
const LOWER_F = 0x66;
const LOWER_N = 0x6e;
const LOWER_R = 0x72;
const LOWER_T = 0x74;
const LOWER_U = 0x75;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

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

  constructor(
    private readonly src: string,
    private readonly refuseAmbiguousNumbers: boolean,
  ) {}

  run(): string {
    this.skipWhitespace();
    try {
      this.value(0);
    } catch (error) {
      if (error instanceof AmbiguousNumber) throw error.refusal();
      throw error;
    }
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
      case OPEN_BRACE:
        this.object(depth + 1);
        return;
      case OPEN_BRACKET:
        this.array(depth + 1);
        return;
      case QUOTE:
        this.string();
        return;
      case LOWER_T:
        this.literal('true');
        return;
      case LOWER_F:
        this.literal('false');
        return;
      case LOWER_N:
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
    if (this.src.charCodeAt(this.pos) === CLOSE_BRACE) {
      this.pos++;
      return;
    }
    const keys = new Set<string>();
    for (;;) {
      if (this.src.charCodeAt(this.pos) !== QUOTE) throw this.invalid('expected a string key');
      const keyAt = this.pos;
      const key = this.string();
      if (keys.has(key)) {
        throw new CanonicalJsonError('duplicate_key', `duplicate key ${JSON.stringify(key)}`, keyAt);
      }
      keys.add(key);
      this.skipWhitespace();
      if (this.src.charCodeAt(this.pos) !== COLON) throw this.invalid("expected ':' after a key");
      this.pos++;
      this.skipWhitespace();
      try {
        this.value(depth);
      } catch (error) {
        // The path is put together on the way out, so that a body without such a number pays nothing for it.
        if (error instanceof AmbiguousNumber) error.path.unshift(key);
        throw error;
      }
      this.skipWhitespace();
      const next = this.src.charCodeAt(this.pos++);
      if (next === CLOSE_BRACE) return;
      if (next !== COMMA) throw this.invalid("expected ',' or '}'", this.pos - 1);
      this.skipWhitespace();
    }
  }

  private array(depth: number): void {
    if (depth > MAX_JSON_DEPTH) throw this.tooDeep();
    this.pos++;
    this.skipWhitespace();
    if (this.src.charCodeAt(this.pos) === CLOSE_BRACKET) {
      this.pos++;
      return;
    }
    for (let index = 0; ; index++) {
      try {
        this.value(depth);
      } catch (error) {
        if (error instanceof AmbiguousNumber) error.path.unshift(index);
        throw error;
      }
      this.skipWhitespace();
      const next = this.src.charCodeAt(this.pos++);
      if (next === CLOSE_BRACKET) return;
      if (next !== COMMA) throw this.invalid("expected ',' or ']'", this.pos - 1);
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
      if (c === QUOTE) break;
      if (c === BACKSLASH) {
        verbatim = false;
        i += this.escapeLength(i);
      } else if (!(c >= SPACE)) {
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
      case QUOTE:
      case BACKSLASH:
      case SLASH:
      case LOWER_B:
      case LOWER_F:
      case LOWER_N:
      case LOWER_R:
      case LOWER_T:
        return 2;
      case LOWER_U:
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
    if (src.charCodeAt(i) === MINUS) i++;
    const first = src.charCodeAt(i);
    if (first === ZERO) {
      i++;
      // "-0" is a number whose canonical form is "0".
      if (i - start === 2) verbatim = false;
    } else if (first >= ONE && first <= NINE) {
      i = this.digits(i);
    } else {
      throw this.invalid(i === start ? 'unexpected character' : 'expected a digit after -', i);
    }
    if (src.charCodeAt(i) === DOT) {
      verbatim = false;
      i = this.requireDigits(i + 1, "expected a digit after '.'");
    }
    const e = src.charCodeAt(i);
    if (e === LOWER_E || e === UPPER_E) {
      verbatim = false;
      i++;
      const sign = src.charCodeAt(i);
      if (sign === PLUS || sign === MINUS) i++;
      i = this.requireDigits(i, 'expected a digit in the exponent');
    }
    this.pos = i;
    if (verbatim && i - start <= MAX_VERBATIM_INTEGER_LENGTH) return;
    const literal = src.slice(start, i);
    const canonical = canonicalNumber(literal);
    if (canonical === literal) return;
    if (this.refuseAmbiguousNumbers && !sameDecimal(literal, canonical)) {
      throw new AmbiguousNumber(literal, canonical, start);
    }
    this.replace(start, i, canonical);
  }

  private digits(from: number): number {
    let i = from;
    for (let c = this.src.charCodeAt(i); c >= ZERO && c <= NINE; c = this.src.charCodeAt(++i));
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
      if (c !== SPACE && c !== LINE_FEED && c !== CARRIAGE_RETURN && c !== TAB) break;
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

function hex4(code: number): string {
  return code.toString(16).toUpperCase().padStart(4, '0');
}
