// The operators' price levels over HTTP (docs/api-guide.md#the-book-and-fills): set, read and replaced as a
// whole, refused with a 400 naming the rule (a price twice, a crossed book, a bad size) or a 404 without a
// price, each change audited, and only TRADING_OPS may set them.
import { ApiFixture } from './support/app-fixture.js';
import { Trading } from './support/trading.js';

describe('price levels', () => {
  let api: ApiFixture;
  let trading: Trading;

  beforeAll(async () => {
    api = await ApiFixture.start();
    trading = await Trading.start(api);
    await trading.price('ETH_EUR', 2500);
  });

  afterAll(async () => {
    await api.close();
  });

  const put = (symbol: string, body: unknown, operator?: { token: string }) =>
    api.admin('PUT', `/api/v1/admin/prices/${symbol}/levels/`, { body, ...(operator ? { operator } : {}) });

  it('sets the book, reads it back best first, replaces it whole and audits each change', async () => {
    const response = await put('ETH_EUR', {
      asks: [
        { price: 2510, size: 2 },
        { price: 2500.5, size: 1.25 },
      ],
      bids: [
        { price: 2480, size: 3 },
        { price: 2490, size: 1 },
      ],
    });
    expect(response.status).toBe(200);
    const book = {
      symbol: 'ETH_EUR',
      asks: [
        { price: 2500.5, size: 1.25 },
        { price: 2510, size: 2 },
      ],
      bids: [
        { price: 2490, size: 1 },
        { price: 2480, size: 3 },
      ],
    };
    expect(response.body).toMatchObject({ data: book });
    expect((await api.admin('GET', '/api/v1/admin/prices/ETH_EUR/levels/')).body).toMatchObject({
      data: book,
    });
    await put('ETH_EUR', { asks: [], bids: [] });
    expect((await api.admin('GET', '/api/v1/admin/prices/ETH_EUR/levels/')).body).toMatchObject({
      data: { symbol: 'ETH_EUR', asks: [], bids: [] },
    });
    expect(await api.rows('SELECT count(*)::int AS n FROM price_levels')).toEqual([{ n: 0 }]);
    const audit = await api.rows<{ action: string; details: { to: unknown; from: unknown } }>(
      "SELECT action, details FROM audit_log WHERE action = 'price.levels.set' ORDER BY id",
    );
    expect(audit).toHaveLength(2);
    expect(audit[0]!.details).toMatchObject({
      from: { asks: [], bids: [] },
      to: { asks: book.asks, bids: book.bids },
    });
    expect(audit[1]!.details).toMatchObject({ to: { asks: [], bids: [] } });
  });

  it.each([
    [
      'a price twice',
      {
        asks: [
          { price: 1, size: 1 },
          { price: 1.0, size: 2 },
        ],
        bids: [],
      },
      'asks has the price 1 more than once',
    ],
    [
      'a crossed book',
      { asks: [{ price: 2490, size: 1 }], bids: [{ price: 2490, size: 1 }] },
      'the lowest ask price must be higher than the highest bid price',
    ],
    ['a size of 0', { asks: [{ price: 2500, size: 0 }], bids: [] }, 'size must be a number greater than 0'],
    [
      'a rounded price',
      { asks: [{ price: 2500.000000001, size: 1 }], bids: [] },
      'price must be a number greater than 0 with at most 8 decimals',
    ],
    ['no bids', { asks: [] }, 'bids'],
  ])('refuses %s with a 400 naming the rule, and writes nothing', async (_, body, message) => {
    const response = await put('ETH_EUR', body);
    expect(response.status).toBe(400);
    expect(response.body.error).toContain(message);
    expect(await api.rows('SELECT count(*)::int AS n FROM price_levels')).toEqual([{ n: 0 }]);
  });

  it('a pair without a price is a 404; SUPPORT may read the book but not set it', async () => {
    const none = await put('XRP_EUR', { asks: [{ price: 1, size: 1 }], bids: [] });
    expect(none.status).toBe(404);
    expect(none.body.error).toContain("no price for XRP_EUR: set the pair's price before its levels");
    const support = await api.createOperator('SUPPORT');
    expect((await put('ETH_EUR', { asks: [], bids: [] }, support)).status).toBe(403);
    const read = await api.admin('GET', '/api/v1/admin/prices/ETH_EUR/levels/', { operator: support });
    expect(read.status).toBe(200);
  });
});
