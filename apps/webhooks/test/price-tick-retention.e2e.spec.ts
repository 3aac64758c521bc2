// The price history's retention: the worker schedules a pruning run with the event log's, and a run deletes
// the price ticks older than PRICE_TICK_RETENTION_DAYS, of every pair, leaving the others.
import { QUEUES } from '@svc/db';

import { UPKEEP_CRON } from '../src/scheduled-upkeep.js';
import { loadConfig } from '../src/config.js';
import { TEST_ENV, WorkerFixture } from './support/worker-fixture.js';

const DAY = 86_400_000;

describe('price tick retention', () => {
  let fixture: WorkerFixture;

  beforeAll(async () => {
    fixture = await WorkerFixture.start({ PRICE_TICK_RETENTION_DAYS: '3' });
  });
  afterAll(async () => {
    await fixture.close();
  });

  it('schedules a pruning run every ten minutes', async () => {
    const schedules = await fixture.rows<{ name: string; cron: string }>(
      'SELECT name, cron FROM pgboss.schedule WHERE name = $1',
      [QUEUES.priceTickRetention],
    );
    expect(schedules).toEqual([{ name: QUEUES.priceTickRetention, cron: UPKEEP_CRON }]);
  });

  it('deletes the ticks older than the retention, of every pair, and keeps the rest', async () => {
    const insert = async (symbol: string, daysAgo: number, price: string) => {
      const [row] = await fixture.rows<{ id: string }>(
        `INSERT INTO price_ticks (symbol, price, at, source) VALUES ($1, $2, $3, 'binance') RETURNING id`,
        [symbol, price, new Date(Date.now() - daysAgo * DAY)],
      );
      return row?.id ?? '';
    };
    const old = [await insert('BTC_EUR', 10, '1'), await insert('ETH_EUR', 3.5, '2')];
    const kept = [
      await insert('BTC_EUR', 2.5, '3'),
      await insert('ETH_EUR', 2, '4'),
      await insert('BTC_EUR', 0, '5'),
    ];

    await fixture.boss.send(QUEUES.priceTickRetention, {});
    await fixture.until(async () => {
      const [row] = await fixture.rows<{ n: number }>(
        'SELECT count(*)::int AS n FROM price_ticks WHERE id = ANY($1)',
        [old],
      );
      return row?.n === 0;
    });
    const left = await fixture.rows<{ id: string; symbol: string; price: string }>(
      'SELECT id, symbol, price FROM price_ticks ORDER BY id',
    );
    expect(left).toEqual([
      { id: kept[0], symbol: 'BTC_EUR', price: '3.00000000' },
      { id: kept[1], symbol: 'ETH_EUR', price: '4.00000000' },
      { id: kept[2], symbol: 'BTC_EUR', price: '5.00000000' },
    ]);
  });

  it('keeps ticks 30 days by default and refuses a retention under a day', () => {
    expect(loadConfig({ ...TEST_ENV }).priceTickRetentionMs).toBe(30 * DAY);
    expect(() => loadConfig({ ...TEST_ENV, PRICE_TICK_RETENTION_DAYS: '0' })).toThrow(
      /PRICE_TICK_RETENTION_DAYS: must not be less than 1/,
    );
  });
});
