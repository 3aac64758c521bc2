import { csvRecords as parse } from '../../test/support/csv.js';
import { csvChunks, CsvDecimal, csvField, csvLine } from './csv.js';

describe('CSV', () => {
  it('quotes a field with a comma, quote or line break, doubling the quotes (RFC 4180)', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('cr\ronly')).toBe('"cr\ronly"');
    expect(csvLine(['a', 'b,c', null])).toBe('a,"b,c",\r\n');
  });

  it('defuses text a spreadsheet would run as a formula (OWASP)', () => {
    expect(csvField('=HYPERLINK("http://evil.example","x")')).toBe(
      `"'=HYPERLINK(""http://evil.example"",""x"")"`,
    );
    expect(csvField('+1+1')).toBe("'+1+1");
    expect(csvField('-2+3')).toBe("'-2+3");
    expect(csvField('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvField('\t=1')).toBe("'\t=1");
    expect(csvField('\r=1')).toBe(`"'\r=1"`);
    expect(csvField('a=1')).toBe('a=1');
  });

  it('writes stored decimals with exactly their digits, a negative one too, and text posing as one defused', () => {
    expect(csvField(new CsvDecimal('0.10000000000000000001'))).toBe('0.10000000000000000001');
    expect(csvField(new CsvDecimal('123456789012345678901234567890.12345678'))).toBe(
      '123456789012345678901234567890.12345678',
    );
    expect(csvField(new CsvDecimal('-5.50'))).toBe('-5.50');
    expect(csvField(new CsvDecimal('-1+cmd'))).toBe("'-1+cmd");
  });

  it('writes times as UTC ISO 8601, numbers and booleans plainly, null and undefined as empty', () => {
    expect(csvField(new Date(Date.UTC(2026, 10, 23, 9, 5, 7, 42)))).toBe('2026-11-23T09:05:07.042Z');
    expect(csvField(42)).toBe('42');
    expect(csvField(Number.NaN)).toBe('');
    expect(csvField(true)).toBe('true');
    expect(csvField(null)).toBe('');
    expect(csvField(undefined)).toBe('');
  });

  it('streams a header row then each batch, and reads back to what was written', async () => {
    async function* batches() {
      await Promise.resolve();
      yield [['1', 'a,"b"\nc', new CsvDecimal('0.5')]];
      yield [];
      yield [
        ['2', '=1+2', null],
        ['3', 'ü €', new CsvDecimal('10')],
      ];
    }
    const chunks: string[] = [];
    for await (const chunk of csvChunks(['id', 'text', 'amount'], batches())) chunks.push(chunk);
    expect(chunks).toHaveLength(3);
    expect(parse(chunks.join(''))).toEqual([
      ['id', 'text', 'amount'],
      ['1', 'a,"b"\nc', '0.5'],
      ['2', "'=1+2", ''],
      ['3', 'ü €', '10'],
    ]);
  });

  it('reads the next batch only when the chunk before has been taken', async () => {
    const read: number[] = [];
    async function* batches() {
      for (let i = 0; i < 3; i++) {
        await Promise.resolve();
        read.push(i);
        yield [[String(i)]];
      }
    }
    const chunks = csvChunks(['n'], batches());
    await chunks.next();
    expect(read).toEqual([]);
    await chunks.next();
    expect(read).toEqual([0]);
  });
});
