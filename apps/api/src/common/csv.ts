// CSV files as people open them in a spreadsheet (docs/decisions.md, "Web pages: CSV exports streamed"):
// RFC 4180 (a header row, fields with a comma, quote or line break quoted with the quotes doubled, lines
// ended by CRLF), times in UTC ISO 8601, decimals with exactly their stored digits, and text that a
// spreadsheet would take for a formula (starting with =, +, -, @, tab or carriage return) prefixed with a
// single quote, as OWASP's "CSV Injection" page advises. The file is written as it is read: rows come in
// batches from an async source and leave as text chunks, so no export is held in memory whole.

/** A stored decimal's text, written as it is (a number the application wrote, not a person's text). */
export class CsvDecimal {
  constructor(readonly text: string) {}
}

export type CsvCell = string | number | boolean | Date | CsvDecimal | null | undefined;

const NEEDS_QUOTES = /[",\r\n]/;
const FORMULA_START = /^[=+\-@\t\r]/;
const DECIMAL = /^-?\d+(\.\d+)?$/;

/** One field: empty for null, a time as UTC ISO 8601, text defused and quoted as needed. */
export function csvField(value: CsvCell): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString();
  if (value instanceof CsvDecimal) {
    // Only a plain decimal passes as it is; anything else is text like any other.
    return DECIMAL.test(value.text) ? value.text : csvField(value.text);
  }
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One record, CRLF-ended. */
export function csvLine(cells: readonly CsvCell[]): string {
  return `${cells.map(csvField).join(',')}\r\n`;
}

/**
 * The file's text in chunks: the header row, then one chunk per batch of rows. Pulled by the reader (a
 * stream to the answer), so the next batch is read only when the one before has been taken.
 */
export async function* csvChunks(
  header: readonly string[],
  batches: AsyncIterable<readonly (readonly CsvCell[])[]>,
): AsyncGenerator<string> {
  yield csvLine(header);
  for await (const rows of batches) {
    if (rows.length > 0) yield rows.map(csvLine).join('');
  }
}
