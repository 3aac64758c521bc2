// Matching on its own, without PostgreSQL: examples worked by hand, then properties over generated books and
// orders (fast-check): no fill exceeds the order or its level, fills stay within the limit, best price
// first, and taking fills from a book removes exactly what they took.
import fc from 'fast-check';

import { Dec } from '../common/decimal.js';
import {
  type BookLevel,
  bookOf,
  consume,
  filledQuantity,
  matchQuantity,
  matchQuote,
  stopReached,
  withinLimit,
} from './matching.js';

const d = (value: string | number) => new Dec(value);
const level = (price: string | number, size: string | number | null): BookLevel => ({
  price: d(price),
  size: size === null ? null : d(size),
});
const plain = (fills: { price: Dec; quantity: Dec }[]) =>
  fills.map((fill) => [fill.price.toFixed(), fill.quantity.toFixed()]);

describe('bookOf', () => {
  it('is the operator price without a size limit on both sides when the pair has no levels', () => {
    const book = bookOf([], d(50000));
    expect(book.asks).toEqual([{ price: d(50000), size: null }]);
    expect(book.bids).toEqual([{ price: d(50000), size: null }]);
    expect(bookOf([], null)).toEqual({ asks: [], bids: [] });
  });

  it('orders asks lowest first and bids highest first, leaving out empty levels', () => {
    const book = bookOf(
      [
        { side: 'ASK', price: d(2510), size: d(1) },
        { side: 'BID', price: d(2480), size: d(1) },
        { side: 'ASK', price: d(2500), size: d(2) },
        { side: 'ASK', price: d(2505), size: d(0) },
        { side: 'BID', price: d(2490), size: d(3) },
      ],
      d(2500),
    );
    expect(book.asks.map((l) => l.price.toNumber())).toEqual([2500, 2510]);
    expect(book.bids.map((l) => l.price.toNumber())).toEqual([2490, 2480]);
  });
});

describe('matchQuantity', () => {
  const asks = () => [level(2500, 1), level(2510, 2), level(2520, 5)];

  it('takes the best level first, at most its size, and stops at the limit', () => {
    expect(plain(matchQuantity(asks(), 'BUY', d(2510), d(2.5)))).toEqual([
      ['2500', '1'],
      ['2510', '1.5'],
    ]);
    expect(plain(matchQuantity(asks(), 'BUY', d(2505), d(2.5)))).toEqual([['2500', '1']]);
    expect(plain(matchQuantity(asks(), 'BUY', null, d(10)))).toEqual([
      ['2500', '1'],
      ['2510', '2'],
      ['2520', '5'],
    ]);
    expect(matchQuantity(asks(), 'BUY', d(2499.99999999), d(1))).toEqual([]);
  });

  it('a SELL takes bids down to its limit; the unbounded level fills any quantity', () => {
    const bids = [level(2490, 1), level(2480, 1)];
    expect(plain(matchQuantity(bids, 'SELL', d(2485), d(3)))).toEqual([['2490', '1']]);
    expect(plain(matchQuantity([level(50000, null)], 'SELL', null, d('123456.12345678')))).toEqual([
      ['50000', '123456.12345678'],
    ]);
  });
});

describe('matchQuote', () => {
  it('never overspends: each level takes what the rest of the amount buys, 8 decimals rounded down', () => {
    const { fills, complete } = matchQuote([level(2500, 1), level(2510, 2)], d(3755));
    expect(plain(fills)).toEqual([
      ['2500', '1'],
      ['2510', '0.5'],
    ]);
    expect(complete).toBe(true);
    expect(matchQuote([level(2500, 1)], d(3000)).complete).toBe(false);
    expect(plain(matchQuote([level(3, null)], d(10)).fills)).toEqual([['3', '3.33333333']]);
  });
});

describe('consume', () => {
  it('takes each fill from its level and drops the levels it empties', () => {
    const levels = [level(2500, 1), level(2510, 2)];
    consume(levels, [
      { price: d(2500), quantity: d(1) },
      { price: d(2510), quantity: d(0.5) },
    ]);
    expect(levels.map((l) => [l.price.toNumber(), l.size?.toNumber()])).toEqual([[2510, 1.5]]);
    expect(() => consume(levels, [{ price: d(2510), quantity: d(2) }])).toThrow('larger than its level');
  });
});

describe('stops and limits', () => {
  it('a BUY stop is reached at or above it, a SELL stop at or below it', () => {
    expect(stopReached('BUY', d(52000), d(52000))).toBe(true);
    expect(stopReached('BUY', d(52000), d('51999.99999999'))).toBe(false);
    expect(stopReached('SELL', d(48000), d(48000))).toBe(true);
    expect(stopReached('SELL', d(48000), d('48000.00000001'))).toBe(false);
    expect(withinLimit('BUY', d(100), d(100))).toBe(true);
    expect(withinLimit('SELL', d(100), d('99.99999999'))).toBe(false);
  });
});

// ---- properties

const UNIT = d('0.00000001');
const amount = (max: number) => fc.integer({ min: 1, max: max * 1e8 }).map((units) => UNIT.times(units));
const side = fc.constantFrom('BUY' as const, 'SELL' as const);
const levels = fc
  .uniqueArray(fc.tuple(fc.integer({ min: 1, max: 1_000_000 }), amount(50)), {
    selector: ([price]) => price,
    maxLength: 8,
  })
  .map((rows) => rows.map(([price, size]) => level(price / 100, size.toFixed())));

/** The levels best first for `side`, as the book gives them to that side's orders. */
const ordered = (rows: BookLevel[], taker: 'BUY' | 'SELL') =>
  [...rows].sort((a, b) => (taker === 'BUY' ? a.price.cmp(b.price) : b.price.cmp(a.price)));

describe('matching properties', () => {
  it('no fill exceeds its level or the order, fills keep within the limit, best price first', () => {
    fc.assert(
      fc.property(
        levels,
        side,
        amount(200),
        fc.option(fc.integer({ min: 1, max: 1_000_000 })),
        (rows, taker, quantity, cents) => {
          const book = ordered(rows, taker);
          const limit = cents === null ? null : d(cents / 100);
          const fills = matchQuantity(book, taker, limit, quantity);
          expect(filledQuantity(fills).lte(quantity)).toBe(true);
          for (const [index, fill] of fills.entries()) {
            const from = book.find((l) => l.price.eq(fill.price))!;
            expect(fill.quantity.gt(0)).toBe(true);
            expect(fill.quantity.lte(from.size!)).toBe(true);
            expect(withinLimit(taker, limit, fill.price)).toBe(true);
            if (index > 0) expect(withinLimit(taker, fill.price, fills[index - 1]!.price)).toBe(true);
          }
          // What is not filled could not be: every level within the limit was taken whole.
          if (filledQuantity(fills).lt(quantity)) {
            const open = book.filter((l) => withinLimit(taker, limit, l.price));
            expect(fills).toHaveLength(open.length);
            expect(fills.every((fill, i) => fill.quantity.eq(open[i]!.size!))).toBe(true);
          }
        },
      ),
    );
  });

  it('consuming the fills leaves each level its size less what it gave, never below zero', () => {
    fc.assert(
      fc.property(levels, side, amount(200), (rows, taker, quantity) => {
        const book = ordered(rows, taker);
        const before = new Map(book.map((l) => [l.price.toFixed(), l.size!]));
        const fills = matchQuantity(book, taker, null, quantity);
        consume(book, fills);
        const after = new Map(book.map((l) => [l.price.toFixed(), l.size!]));
        for (const [price, size] of before) {
          const taken = fills
            .filter((f) => f.price.toFixed() === price)
            .reduce((s, f) => s.plus(f.quantity), d(0));
          expect((after.get(price) ?? d(0)).eq(size.minus(taken))).toBe(true);
        }
      }),
    );
  });

  it('a quote amount is never overspent', () => {
    fc.assert(
      fc.property(levels, amount(1_000_000), (rows, budget) => {
        const { fills } = matchQuote(ordered(rows, 'BUY'), budget);
        const spent = fills.reduce((sum, f) => sum.plus(f.quantity.times(f.price).toDecimalPlaces(8)), d(0));
        expect(spent.lte(budget)).toBe(true);
      }),
    );
  });
});
