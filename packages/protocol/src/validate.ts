// Field checks for the event parsers: each one takes a value and the path it was found at, and either
// returns the value typed or throws an EventParseError naming that path.

export class EventParseError extends Error {
  override readonly name = 'EventParseError';

  constructor(
    /** Where the bad value is, e.g. `data.quantity`; empty for the body itself. */
    readonly path: string,
    reason: string,
    options?: ErrorOptions,
  ) {
    super(path === '' ? reason : `${path}: ${reason}`, options);
  }
}

export type Check<T> = (value: unknown, path: string) => T;

type Shape = Record<string, Check<unknown>>;
type Checked<S extends Shape> = { [K in keyof S]: S[K] extends Check<infer T> ? T : never };
type Fields = Readonly<Record<string, unknown>>;

export function fail(path: string, expected: string, got: string): never {
  throw new EventParseError(path, `expected ${expected}, got ${got}`);
}

/** Names the type of a value of the wrong type: the value itself may be long or private. */
function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

export function join(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}

export const string: Check<string> = (value, path) =>
  typeof value === 'string' ? value : fail(path, 'a string', kindOf(value));

export const boolean: Check<boolean> = (value, path) =>
  typeof value === 'boolean' ? value : fail(path, 'a boolean', kindOf(value));

/** A finite number: NaN and Infinity cannot come from JSON but can from a caller's object. */
export const number: Check<number> = (value, path) => {
  if (typeof value !== 'number') return fail(path, 'a number', kindOf(value));
  return Number.isFinite(value) ? value : fail(path, 'a finite number', String(value));
};

export const integer: Check<number> = (value, path) => {
  const n = number(value, path);
  return Number.isInteger(n) ? n : fail(path, 'an integer', String(n));
};

export function integerIn(min: number, max: number): Check<number> {
  return (value, path) => {
    const n = integer(value, path);
    return n >= min && n <= max ? n : fail(path, `an integer from ${min} to ${max}`, String(n));
  };
}

/** 0, 1, 2, ... up to Number.MAX_SAFE_INTEGER. */
export const nonNegativeInteger: Check<number> = (value, path) => {
  const n = integer(value, path);
  return n >= 0 && Number.isSafeInteger(n) ? n : fail(path, 'a whole number >= 0', String(n));
};

export function oneOf<const T extends readonly string[]>(values: T): Check<T[number]> {
  return (value, path) => {
    const s = string(value, path);
    return values.includes(s) ? s : fail(path, `one of ${values.join(', ')}`, JSON.stringify(s));
  };
}

export function nullable<T>(check: Check<T>): Check<T | null> {
  return (value, path) => (value === null ? null : check(value, path));
}

const ISO_UTC = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(\.\d+)?Z$/;

/** ISO 8601 in UTC (`Z`), fraction optional; the round trip through Date rejects e.g. February 30. */
export const timestamp: Check<string> = (value, path) => {
  const s = string(value, path);
  const seconds = ISO_UTC.exec(s)?.[1];
  const valid = seconds !== undefined && new Date(`${seconds}Z`).toISOString().startsWith(seconds);
  return valid ? s : fail(path, 'an ISO 8601 UTC timestamp', JSON.stringify(s));
};

export const fields: Check<Fields> = (value, path) =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Fields)
    : fail(path, 'an object', kindOf(value));

/** An object whose every value passes `check`, such as a map from asset code to amount. */
export function recordOf<T>(check: Check<T>): Check<Record<string, T>> {
  return (value, path) => {
    const entries = Object.entries(fields(value, path));
    return Object.fromEntries(entries.map(([key, item]) => [key, check(item, join(path, key))]));
  };
}

/**
 * An object with the fields of `shape`, all required but the `optional` ones (checked when present).
 * Other fields are kept, so that fields added to the wire format later pass through.
 */
export function object<S extends Shape>(shape: S, optional: readonly (keyof S)[] = []): Check<Checked<S>> {
  return (value, path) => {
    const input = fields(value, path);
    const checked: Record<string, unknown> = {};
    for (const [key, check] of Object.entries(shape)) {
      const item = input[key];
      if (item === undefined) {
        if (optional.includes(key)) continue;
        throw new EventParseError(join(path, key), 'missing');
      }
      checked[key] = check(item, join(path, key));
    }
    return { ...input, ...checked } as Checked<S>;
  };
}
