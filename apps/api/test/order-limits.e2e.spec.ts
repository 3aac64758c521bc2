// Limits hold for resting orders (docs/api-guide.md#orders, "Limits and reservations"): a resting BUY reserves
// its quote amount with fees and VAT at its limit price, a resting SELL its base quantity; reservations count
// in QUOTE_LIMIT, TOTAL_LIMIT, the exposures and the holdings, are released on cancel, and the checks run
// again at each fill (a failure cancels the rest, cancelReason naming the check). A halted pair fills
// nothing until ASSET_ENABLE.
import type { Order } from '@svc/protocol';

import { ApiFixture } from './support/app-fixture.js';
import { Trading } from './support/trading.js';

describe('limits and reservations of resting orders', () => {
  let api: ApiFixture;
  let trading: Trading;

  beforeAll(async () => {
    api = await ApiFixture.start();
    trading = await Trading.start(api);
  });

  afterAll(async () => {
    await api.close();
  });

  beforeEach(async () => {
    await trading.price('BTC_EUR', 50000);
  });

  afterEach(async () => {
    await trading.policy({ quoteLimit: {}, totalLimit: {}, totalExposure: {}, assetExposure: {} });
  });

  it('QUOTE_LIMIT holds a resting BUY with its fees and VAT at its limit price', async () => {
    await trading.policy({ quoteLimit: { EUR: '5000' } });
    const orgUserId = await trading.user();
    // 0.1 x 49900 = 4990, commission 7.485, VAT 1.57185: 4999.05685
    const under = await trading.placed({ orgUserId, quantity: 0.1, limitPrice: 49900 });
    expect(under.status).toBe('PENDING');
    // 0.1 x 49950 = 4995, commission 7.4925, VAT 1.573425: 5004.065925
    const over = await trading.placed({ orgUserId, quantity: 0.1, limitPrice: 49950 });
    expect(over).toMatchObject({ status: 'REJECTED', rejectionReason: 'QUOTE_LIMIT', cancelReason: null });
  });

  it('two resting SELLs cannot oversell: a SELL reserves its quantity until it is cancelled', async () => {
    const orgUserId = await trading.holder('BTC', '1');
    const first = await trading.placed({ orgUserId, side: 'SELL', quantity: 0.6, limitPrice: 60000 });
    expect(first.status).toBe('PENDING');
    const second = await trading.placed({ orgUserId, side: 'SELL', quantity: 0.5, limitPrice: 60000 });
    expect(second).toMatchObject({ status: 'REJECTED', rejectionReason: 'INSUFFICIENT_HOLDINGS' });
    const market = await trading.placed({ orgUserId, side: 'SELL', type: 'MARKET', quantity: 0.5 });
    expect(market).toMatchObject({ status: 'REJECTED', rejectionReason: 'INSUFFICIENT_HOLDINGS' });
    const within = await trading.placed({ orgUserId, side: 'SELL', quantity: 0.4, limitPrice: 60000 });
    expect(within.status).toBe('PENDING');

    await trading.org.signed('DELETE', `/api/v1/orders/${first.id}/`);
    const released = await trading.placed({ orgUserId, side: 'SELL', quantity: 0.6, limitPrice: 60000 });
    expect(released.status).toBe('PENDING');
    await trading.price('BTC_EUR', 60000);
    expect((await trading.get(within.id)).status).toBe('COMPLETED');
    expect((await trading.get(released.id)).status).toBe('COMPLETED');
    expect(await trading.holding(orgUserId, 'BTC')).toBe('0.00000000');
  });

  it('TOTAL_LIMIT counts the open reservations, MARKET orders included, and a cancel releases them', async () => {
    await trading.policy({ totalLimit: { EUR: '10000' } });
    const orgUserId = await trading.user();
    // each: 0.1 x 49000 = 4900, commission 7.35, VAT 1.5435: 4908.8935
    const a = await trading.placed({ orgUserId, quantity: 0.1, limitPrice: 49000 });
    const b = await trading.placed({ orgUserId, quantity: 0.1, limitPrice: 49000 });
    expect([a.status, b.status]).toEqual(['PENDING', 'PENDING']);
    const third = await trading.placed({ orgUserId, quantity: 0.1, limitPrice: 49000 });
    expect(third).toMatchObject({ status: 'REJECTED', rejectionReason: 'TOTAL_LIMIT' });
    const market = await trading.placed({ orgUserId, type: 'MARKET', quantity: 0.01 });
    expect(market).toMatchObject({ status: 'REJECTED', rejectionReason: 'TOTAL_LIMIT' });
    await trading.org.signed('DELETE', `/api/v1/orders/${b.id}/`);
    const after = await trading.placed({ orgUserId, type: 'MARKET', quantity: 0.01 });
    expect(after.status).toBe('COMPLETED');
  });

  it('ASSET_EXPOSURE counts what open BUYs would add to the position', async () => {
    await trading.policy({ assetExposure: { BTC: '1' } });
    const orgUserId = await trading.user();
    expect((await trading.placed({ orgUserId, quantity: 0.7, limitPrice: 40000 })).status).toBe('PENDING');
    const over = await trading.placed({ orgUserId, type: 'MARKET', quantity: 0.31 });
    expect(over).toMatchObject({ status: 'REJECTED', rejectionReason: 'ASSET_EXPOSURE' });
    expect((await trading.placed({ orgUserId, type: 'MARKET', quantity: 0.3 })).status).toBe('COMPLETED');
  });

  it('the checks run again at each fill: a limit lowered since cancels the rest, cancelReason naming it', async () => {
    const orgUserId = await trading.user();
    const order = await trading.placed({ orgUserId, quantity: 1, limitPrice: 49000 });
    await trading.policy({ assetExposure: { BTC: '0.5' } });
    await trading.price('BTC_EUR', 48000);
    const cancelled = await trading.get(order.id);
    expect(cancelled).toMatchObject({ status: 'CANCELLED', cancelReason: 'ASSET_EXPOSURE', filled: 0 });
    expect(await trading.fills(order.id)).toEqual([]);
    expect(await trading.holding(orgUserId, 'BTC')).toBeUndefined();
    expect(
      (await trading.events(order.id)).map((event: Order) => [event.status, event.cancelReason]),
    ).toEqual([
      ['PENDING', null],
      ['CANCELLED', 'ASSET_EXPOSURE'],
    ]);
  });

  it('a halted pair fills nothing: its resting orders stay open and fill after ASSET_ENABLE', async () => {
    const orgUserId = await trading.user();
    const order = await trading.placed({ orgUserId, quantity: 0.1, limitPrice: 49000 });
    const notice = (event: string) =>
      api.admin('POST', '/api/v1/admin/notices/', {
        body: { event, entity: 'BTC_EUR', message: `${event} BTC` },
      });
    expect((await notice('ASSET_DISABLE')).status).toBe(200);
    await trading.price('BTC_EUR', 48000);
    expect((await trading.get(order.id)).status).toBe('PENDING');
    const refused = await trading.placed({ orgUserId, quantity: 0.1, limitPrice: 49000 });
    expect(refused).toMatchObject({ status: 'REJECTED', rejectionReason: 'ASSET_DISABLED' });
    expect((await notice('ASSET_ENABLE')).status).toBe(200);
    expect(await trading.get(order.id)).toMatchObject({ status: 'COMPLETED', price: 48000 });
    expect(await trading.holding(orgUserId, 'BTC')).toBe('0.10000000');
  });
});
