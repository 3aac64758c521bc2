// Reads RFC 4180 text back into records of fields, for tests of what the CSV writer and the exports write:
// quoted fields may hold commas, doubled quotes and line breaks; records end with CRLF.
export function csvRecords(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  let i = 0;
  while (i < text.length) {
    const char = text.charAt(i);
    const next = text.charAt(i + 1);
    if (quoted && char === '"' && next === '"') {
      field += '"';
      i += 2;
      continue;
    }
    if (char === '"') {
      quoted = !quoted;
    } else if (!quoted && char === ',') {
      record.push(field);
      field = '';
    } else if (!quoted && char === '\r' && next === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i += 1;
    } else {
      field += char;
    }
    i += 1;
  }
  return records;
}
