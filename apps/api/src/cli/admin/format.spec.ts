import { page, record, show } from './format.js';

describe('show', () => {
  it.each([
    [null, '-'],
    [undefined, '-'],
    [[], '-'],
    [['a', 'b'], 'a b'],
    ['text', 'text'],
    [42, '42'],
    [{ a: 1 }, '{"a":1}'],
  ])('shows %j as %s', (value, text) => expect(show(value)).toBe(text));
});

describe('record', () => {
  it('aligns the values after the longest key', () => {
    expect(record({ orgId: 7, plan: 'ENTERPRISE', supportEmails: [] })).toBe(
      'orgId          7\nplan           ENTERPRISE\nsupportEmails  -',
    );
  });
});

describe('page', () => {
  it('prints a header and aligned rows, the last column unpadded, and the next cursor', () => {
    const data = {
      items: [
        { symbol: 'BTC_EUR', price: 50000, extra: 'not shown' },
        { symbol: 'ETH_EUR', price: 3000.5 },
      ],
      nextCursor: 'abc',
    };
    expect(page(data, ['symbol', 'price'])).toBe(
      'symbol   price\nBTC_EUR  50000\nETH_EUR  3000.5\n(more: --cursor abc)',
    );
  });
  it('says (none) for an empty page, and no hint without a cursor', () => {
    expect(page({ items: [], nextCursor: null }, ['id'])).toBe('(none)');
    expect(page({ items: [{ id: 'x' }], nextCursor: null }, ['id'])).toBe('id\nx');
  });
});
