// The query part of the signed message (docs/api-guide.md#api-key-signing): the query string as a JSON object
// in transmitted order, values decoded, a repeated key turned into an array of its values.

/**
 * Canonical JSON of a raw query string (with or without its leading `?`). Decoding follows
 * URLSearchParams: percent-escapes and `+` as space; a key without `=` has the value "". No query is `{}`.
 */
export function canonicalizeQuery(query: string | undefined): string {
  if (query === undefined || query === '' || query === '?') return '{}';
  // A Map keeps insertion order for every key; an object would move integer-like keys to the front.
  const values = new Map<string, string[]>();
  for (const [key, value] of new URLSearchParams(query)) {
    const list = values.get(key);
    if (list) list.push(value);
    else values.set(key, [value]);
  }
  const members: string[] = [];
  for (const [key, list] of values) {
    const value = list.length === 1 ? JSON.stringify(list[0]) : JSON.stringify(list);
    members.push(`${JSON.stringify(key)}:${value}`);
  }
  return `{${members.join(',')}}`;
}

/** Splits a request target such as `/api/v1/org/?a=1` (Node's `req.url`) into path and raw query. */
export function splitRequestTarget(target: string): { path: string; query: string } {
  const mark = target.indexOf('?');
  return mark === -1
    ? { path: target, query: '' }
    : { path: target.slice(0, mark), query: target.slice(mark + 1) };
}
