// The keyset pagination on its own: a cursor carries the last key of its page and only a key of the list's
// kind is taken back, a page of `limit + 1` rows says whether another follows, and the query's limits.
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';

import { AppError } from './errors.js';
import {
  decodeCursor,
  encodeCursor,
  INT_ID,
  mapPage,
  PageQuery,
  ROW_ID,
  SYMBOL_KEY,
  toPage,
} from './pagination.js';

const CURSOR_RULE = 'cursor must be a nextCursor returned by the previous page';
const cursorOf = (text: string) => Buffer.from(text).toString('base64url');

describe('cursors', () => {
  it('give back the key they were made from, for every kind of key', () => {
    expect(decodeCursor(encodeCursor('9223372036854775807', ROW_ID), ROW_ID)).toBe('9223372036854775807');
    expect(decodeCursor(encodeCursor(2147483647, INT_ID), INT_ID)).toBe(2147483647);
    expect(decodeCursor(encodeCursor('BTC_EUR', SYMBOL_KEY), SYMBOL_KEY)).toBe('BTC_EUR');
  });

  it('are opaque: base64url of the key, no padding', () => {
    expect(encodeCursor('42', ROW_ID)).toBe('NDI');
    expect(encodeCursor('BTC_EUR', SYMBOL_KEY)).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it('mean the first page when there is none', () => {
    expect(decodeCursor(undefined, ROW_ID)).toBeUndefined();
  });

  it('are refused with a 400 naming the rule when they hold another kind of key', () => {
    const refused = [
      [cursorOf('1 OR 1=1'), ROW_ID],
      [cursorOf('1'.repeat(20)), ROW_ID],
      [cursorOf('-1'), ROW_ID],
      [cursorOf('12345678901'), INT_ID],
      [cursorOf('btc_eur'), SYMBOL_KEY],
      [cursorOf('42'), SYMBOL_KEY],
      ['', ROW_ID],
    ] as const;
    for (const [cursor, key] of refused) {
      let error: unknown;
      try {
        decodeCursor(cursor, key as typeof ROW_ID);
      } catch (thrown) {
        error = thrown;
      }
      expect(error).toBeInstanceOf(AppError);
      expect(error).toMatchObject({ code: 'bad_request', detail: CURSOR_RULE, status: 400 });
    }
  });
});

describe('a page', () => {
  const rows = [{ id: '1' }, { id: '2' }, { id: '3' }];

  it('holds `limit` rows and points after the last when one more was read', () => {
    const page = toPage(rows, 2, (row) => row.id, ROW_ID);
    expect(page.items).toEqual([{ id: '1' }, { id: '2' }]);
    expect(page.nextCursor).toBe(encodeCursor('2', ROW_ID));
    expect(decodeCursor(page.nextCursor!, ROW_ID)).toBe('2');
  });

  it('is the last when no more than `limit` rows came back, an empty one included', () => {
    expect(toPage(rows, 3, (row) => row.id, ROW_ID)).toEqual({ items: rows, nextCursor: null });
    expect(toPage([], 20, (row: { id: string }) => row.id, ROW_ID)).toEqual({ items: [], nextCursor: null });
  });

  it('keeps its cursor when its items are mapped to their views', () => {
    const page = toPage(rows, 1, (row) => row.id, ROW_ID);
    expect(mapPage(page, (row) => Number(row.id))).toEqual({ items: [1], nextCursor: page.nextCursor });
  });
});

describe('the page query', () => {
  const problems = (query: Record<string, string>) =>
    validateSync(plainToInstance(PageQuery, query)).flatMap((error) =>
      Object.values(error.constraints ?? {}),
    );

  it('takes a limit of 1 to 100 from the query string, and a cursor of ours', () => {
    const query = plainToInstance(PageQuery, { limit: '100', cursor: 'NDI' });
    expect(query.limit).toBe(100);
    expect(problems({ limit: '1', cursor: encodeCursor('BTC_EUR', SYMBOL_KEY) })).toEqual([]);
    expect(problems({})).toEqual([]);
  });

  it('refuses a limit out of range or not whole, and a cursor that no page gave', () => {
    expect(problems({ limit: '0' })).toEqual(['limit must not be less than 1']);
    expect(problems({ limit: '101' })).toEqual(['limit must not be greater than 100']);
    expect(problems({ limit: '1.5' })).toEqual(['limit must be an integer number']);
    expect(problems({ cursor: 'a+b/c=' })).toEqual([CURSOR_RULE]);
    expect(problems({ cursor: 'x'.repeat(65) })).toEqual([CURSOR_RULE]);
  });
});
