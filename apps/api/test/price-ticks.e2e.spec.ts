// The price history: every operator change of a price is a tick (with its audit entry, as before), and
// operators read a pair's ticks by time range, oldest first, a page at a time; pages chart them through
// PricesService.chart, the last price per bucket, computed in SQL.
import type { Page } from '../src/common/pagination.js';
import { PricesService } from '../src/prices/prices.service.js';
import { ApiFixture, type TestResponse } from './support/app-fixture.js';

interface TickData {
  symbol: string;
  price: number;
  at: string;
  source: string;
}

describe('price ticks', () => {
  let api: ApiFixture;
  beforeAll(async () => {
    api = await ApiFixture.start();
  });
  afterAll(async () => {
    await api.close();
  });

  const expect400 = (response: TestResponse, fragment: string) => {
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: 400, data: null });
    expect(response.body.error).toContain(fragment);
  };
  const insertTick = (symbol: string, price: string, at: string, source = 'binance') =>
    api.rows('INSERT INTO price_ticks (symbol, price, at, source) VALUES ($1, $2, $3, $4)', [
      symbol,
      price,
      at,
      source,
    ]);

  it("records an operator's price change as a tick, beside its audit entry", async () => {
    const before = Date.now();
    const first = await api.admin('PUT', '/api/v1/admin/prices/SOL_EUR/', { body: { price: 120.5 } });
    const second = await api.admin('PUT', '/api/v1/admin/prices/SOL_EUR/', {
      rawBody: '{"price":121.12345678}',
    });
    expect([first.status, second.status]).toEqual([200, 200]);
    const ticks = await api.rows<{ price: string; at: Date; source: string }>(
      "SELECT price, at, source FROM price_ticks WHERE symbol = 'SOL_EUR' ORDER BY id",
    );
    expect(ticks.map(({ price, source }) => ({ price, source }))).toEqual([
      { price: '120.50000000', source: 'operator' },
      { price: '121.12345678', source: 'operator' },
    ]);
    expect(ticks[0]!.at.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(
      await api.rows("SELECT details FROM audit_log WHERE action = 'price.set' ORDER BY id", []),
    ).toEqual([
      { details: { symbol: 'SOL_EUR', from: null, to: '120.50000000' } },
      { details: { symbol: 'SOL_EUR', from: '120.50000000', to: '121.12345678' } },
    ]);
  });

  it('records nothing when the operator price is refused', async () => {
    const response = await api.admin('PUT', '/api/v1/admin/prices/SOL_EUR/', {
      rawBody: '{"price":1.123456789}',
    });
    expect400(response, 'price');
    expect(await api.rows("SELECT count(*)::int AS n FROM price_ticks WHERE symbol = 'SOL_EUR'")).toEqual([
      { n: 2 },
    ]);
  });

  it("lists a pair's ticks in a time range, oldest first, a page at a time, exact", async () => {
    await insertTick('ADA_EUR', '0.30000000', '2030-01-01T10:00:02.000Z');
    await insertTick('ADA_EUR', '0.12345678', '2030-01-01T10:00:00.000Z', 'operator');
    await insertTick('ADA_EUR', '0.31000000', '2030-01-01T10:00:02.000Z');
    await insertTick('ADA_EUR', '0.32000000', '2030-01-01T11:30:00.000Z');
    await insertTick('ADA_USD', '9.00000000', '2030-01-01T10:00:01.000Z');
    const range = 'from=2030-01-01T10:00:00Z&to=2030-01-01T11:30:00Z';
    const first = await api.admin<Page<TickData>>(
      'GET',
      `/api/v1/admin/prices/ADA_EUR/ticks?${range}&limit=2`,
    );
    expect(first.status).toBe(200);
    expect(first.body.data!.items).toEqual([
      { symbol: 'ADA_EUR', price: 0.12345678, at: '2030-01-01T10:00:00.000Z', source: 'operator' },
      { symbol: 'ADA_EUR', price: 0.3, at: '2030-01-01T10:00:02.000Z', source: 'binance' },
    ]);
    const next = await api.admin<Page<TickData>>(
      'GET',
      `/api/v1/admin/prices/ADA_EUR/ticks?${range}&limit=2&cursor=${first.body.data!.nextCursor}`,
    );
    // Same millisecond: by id; the tick at `to` is outside the range.
    expect(next.body.data).toEqual({
      items: [{ symbol: 'ADA_EUR', price: 0.31, at: '2030-01-01T10:00:02.000Z', source: 'binance' }],
      nextCursor: null,
    });
    const defaultRange = await api.admin<Page<TickData>>('GET', '/api/v1/admin/prices/ADA_EUR/ticks');
    expect(defaultRange.body.data).toEqual({ items: [], nextCursor: null });
  });

  it('refuses a bad range, cursor or symbol with a 400 naming it', async () => {
    const path = '/api/v1/admin/prices/ADA_EUR/ticks';
    expect400(await api.admin('GET', `${path}?from=2030-02-30T00:00:00Z`), 'from must be an ISO 8601');
    expect400(await api.admin('GET', `${path}?to=yesterday`), 'to must be an ISO 8601');
    expect400(
      await api.admin('GET', `${path}?from=2030-01-02T00:00:00Z&to=2030-01-01T00:00:00Z`),
      'from must be before to',
    );
    expect400(await api.admin('GET', `${path}?cursor=Zm9v`), 'cursor');
    expect400(await api.admin('GET', '/api/v1/admin/prices/ada/ticks'), 'symbol must be');
  });

  it('lets support read ticks and no one without an operator token', async () => {
    const support = await api.createOperator('SUPPORT');
    const path = '/api/v1/admin/prices/ADA_EUR/ticks';
    expect((await api.admin('GET', path, { operator: support })).status).toBe(200);
    expect((await api.request('GET', path)).status).toBe(401);
  });

  it('charts the last price of each hour that has ticks, in SQL', async () => {
    await insertTick('DOT_EUR', '5.00000000', '2030-01-01T09:59:59.999Z');
    await insertTick('DOT_EUR', '5.10000000', '2030-01-01T10:00:00.000Z');
    await insertTick('DOT_EUR', '5.30000000', '2030-01-01T10:59:00.000Z');
    await insertTick('DOT_EUR', '5.20000000', '2030-01-01T10:30:00.000Z');
    await insertTick('DOT_EUR', '6.00000000', '2030-01-01T13:15:00.000Z');
    await insertTick('DOT_EUR', '7.00000000', '2030-01-01T14:00:00.000Z');
    const chart = await api.app
      .get(PricesService)
      .chart('DOT_EUR', new Date('2030-01-01T09:00:00Z'), new Date('2030-01-01T14:00:00Z'));
    expect(chart).toEqual([
      { at: '2030-01-01T09:00:00.000Z', price: '5.00000000', ticks: 1 },
      { at: '2030-01-01T10:00:00.000Z', price: '5.30000000', ticks: 3 },
      { at: '2030-01-01T13:00:00.000Z', price: '6.00000000', ticks: 1 },
    ]);
    const quarters = await api.app
      .get(PricesService)
      .chart('DOT_EUR', new Date('2030-01-01T10:00:00Z'), new Date('2030-01-01T11:00:00Z'), 900);
    expect(quarters.map((bucket) => [bucket.at.slice(11, 16), bucket.price])).toEqual([
      ['10:00', '5.10000000'],
      ['10:30', '5.20000000'],
      ['10:45', '5.30000000'],
    ]);
  });
});
