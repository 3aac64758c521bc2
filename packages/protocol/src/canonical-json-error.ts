// Why a body cannot be canonicalised, and where in it (canonical-json.ts).

/**
 * Why a body cannot be canonicalised. Servers answer all four with 400. `ambiguous_number`: a number whose
 * canonical form denotes another value than its literal (9007199254740993 would be signed as
 * 9007199254740992), so that a signature over the canonical text would not cover what a reader of the
 * digits acts on.
 */
export type CanonicalJsonFailure = 'invalid_json' | 'duplicate_key' | 'too_deep' | 'ambiguous_number';

/** A key or an array index on the way from the top of a document to a value. */
export type JsonPathSegment = string | number;

export class CanonicalJsonError extends Error {
  override readonly name = 'CanonicalJsonError';

  constructor(
    readonly reason: CanonicalJsonFailure,
    readonly detail: string,
    /** Offset in the body text (UTF-16 code units) where the problem was found. */
    readonly position: number,
    /** Where the refused value is (`ambiguous_number` only; empty for the others). */
    readonly path: readonly JsonPathSegment[] = [],
  ) {
    super(
      `${reason === 'invalid_json' ? 'Invalid JSON' : 'Refused JSON'}: ${detail} at position ${position}`,
    );
  }
}

/** `path` as a JSONPath: `$`, `$.quantity`, `$.items[0].price`, `$["a b"]`. */
export function formatJsonPath(path: readonly JsonPathSegment[]): string {
  let text = '$';
  for (const segment of path) {
    if (typeof segment === 'number') text += `[${segment}]`;
    else if (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(segment)) text += `.${segment}`;
    else text += `[${JSON.stringify(segment)}]`;
  }
  return text;
}
