// What a person reads: an answer as aligned `key  value` lines or as a table with its next-page hint.

export type Data = Readonly<Record<string, unknown>>;

export const SECRET_NOTE = '\nThe secret above is shown once: store it now.';
export const SECRETS_NOTE = '\nThe secrets above are shown once: store them now.';

/** One value as text: `-` for nothing, lists space-separated, objects as JSON. */
export function show(value: unknown): string {
  if (value === null || value === undefined) return '-';
  if (Array.isArray(value)) return value.length === 0 ? '-' : value.map(show).join(' ');
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** `key  value` lines, keys aligned. */
export function record(data: Data): string {
  const width = Math.max(...Object.keys(data).map((key) => key.length));
  return Object.entries(data)
    .map(([key, value]) => `${key.padEnd(width)}  ${show(value)}`)
    .join('\n');
}

/** A table of `items` with a header, and how to get the next page. */
export function page(data: Data, columns: readonly string[]): string {
  const items = (data.items ?? []) as Data[];
  if (items.length === 0) return '(none)';
  const rows = [columns, ...items.map((item) => columns.map((column) => show(item[column])))];
  const widths = columns.map((_, index) => Math.max(...rows.map((row) => (row[index] ?? '').length)));
  const lines = rows.map((row) =>
    row.map((cell, index) => (index === row.length - 1 ? cell : cell.padEnd(widths[index] ?? 0))).join('  '),
  );
  if (typeof data.nextCursor === 'string') lines.push(`(more: --cursor ${data.nextCursor})`);
  return lines.join('\n');
}
