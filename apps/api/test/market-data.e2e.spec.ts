// The Binance feed end to end: a local server speaking Binance's documented stream format feeds the api,
// which subscribes, stores the pair's last price and its sampled ticks (not audited), hands books to the
// sink, skips malformed messages, reconnects and subscribes again after a disconnect or a silence, and runs
// on one instance only while several are up.
import { binanceDepth, binanceTrade, combined, SUBSCRIBED } from './support/binance-samples.js';
import { ApiFixture } from './support/app-fixture.js';
import { Trading } from './support/trading.js';
import { eventually, LocalExchange } from './support/local-exchange.js';
import { MARKET_DATA_SINK, type MarketDataSink } from '../src/market-data/market-data.js';
import { MarketDataService } from '../src/market-data/market-data.service.js';
import { PricesSink } from '../src/market-data/prices-sink.js';

const SUBSCRIBE = {
  method: 'SUBSCRIBE',
  params: ['btceur@trade', 'btceur@depth20@100ms', 'etheur@trade', 'etheur@depth20@100ms'],
  id: 1,
};
const TICK_INTERVAL_MS = 300;

describe('market data: the Binance feed', () => {
  let exchange: LocalExchange;
  let api: ApiFixture;
  const env = () => ({
    MARKET_DATA_FEED: 'binance',
    MARKET_DATA_URL: exchange.url(),
    MARKET_DATA_SYMBOLS: 'BTC_EUR,ETH_EUR',
    MARKET_DATA_TICK_INTERVAL_MS: String(TICK_INTERVAL_MS),
    MARKET_DATA_STALE_MS: '1500',
    MARKET_DATA_RECONNECT_MS: '20',
  });
  const price = async (symbol: string) =>
    (await api.rows<{ price: string }>('SELECT price FROM prices WHERE symbol = $1', [symbol]))[0]?.price;
  const ticks = (symbol: string) =>
    api.rows<{ price: string; at: Date; source: string }>(
      'SELECT price, at, source FROM price_ticks WHERE symbol = $1 ORDER BY at, id',
      [symbol],
    );
  const levels = (symbol: string) =>
    api.rows<{ side: string; price: string; size: string }>(
      'SELECT side, price, size FROM price_levels WHERE symbol = $1 ORDER BY side, price',
      [symbol],
    );
  const trade = (symbol: string, p: string, T: number) =>
    combined(`${symbol.toLowerCase()}@trade`, binanceTrade({ s: symbol, p, T }));

  beforeAll(async () => {
    exchange = await LocalExchange.start();
    api = await ApiFixture.start(env());
  });
  afterAll(async () => {
    await api.close();
    await exchange.close();
  });

  it('connects to the combined stream and subscribes to the trades and books of the configured pairs', async () => {
    await eventually(() => exchange.open.length === 1 && exchange.open[0]!.received.length > 0);
    const [connection] = exchange.open;
    expect(connection?.path).toBe('/stream');
    expect(connection?.received.map((text) => JSON.parse(text) as unknown)).toEqual([SUBSCRIBE]);
    exchange.send(SUBSCRIBED(1));
  });

  it("stores a trade's price exactly as the pair's price, with its tick, and no audit entry", async () => {
    const T = Date.parse('2030-01-31T12:00:00.123Z');
    exchange.send(trade('BTCEUR', '91234.56780000', T));
    await eventually(async () => (await price('BTC_EUR')) === '91234.56780000');
    expect(await ticks('BTC_EUR')).toEqual([{ price: '91234.56780000', at: new Date(T), source: 'binance' }]);
    expect(await api.rows("SELECT * FROM audit_log WHERE action LIKE 'price.%'")).toEqual([]);
    const read = await api.admin<{ price: number }>('GET', '/api/v1/admin/prices/BTC_EUR/');
    expect(read.text).toContain('"price":91234.5678');
  });

  it('keeps at most one tick per pair per interval, and the last price of a burst', async () => {
    const T = Date.parse('2030-01-31T12:00:01.000Z');
    exchange.send(trade('ETHEUR', '100.1', T));
    await eventually(async () => (await price('ETH_EUR')) === '100.10000000');
    // Within the interval: each changes the price, and the last one is the pair's next tick.
    for (const [i, p] of ['100.2', '100.3', '100.4'].entries()) exchange.send(trade('ETHEUR', p, T + 1 + i));
    await eventually(async () => (await price('ETH_EUR')) === '100.40000000');
    await eventually(async () => (await ticks('ETH_EUR')).length === 2);
    await new Promise((resolve) => setTimeout(resolve, TICK_INTERVAL_MS * 2));
    expect(await ticks('ETH_EUR')).toEqual([
      { price: '100.10000000', at: new Date(T), source: 'binance' },
      { price: '100.40000000', at: new Date(T + 3), source: 'binance' },
    ]);
  });

  it('hands each partial book to the sink as exact levels, best first', async () => {
    const sink = api.app.get<MarketDataSink>(MARKET_DATA_SINK);
    expect(sink).toBeInstanceOf(PricesSink);
    const applyBook = jest.spyOn(sink, 'applyBook');
    try {
      exchange.send(
        combined(
          'btceur@depth20@100ms',
          binanceDepth(
            [
              ['91234.01000000', '0.50000000'],
              ['91234.00000000', '1.25000000'],
            ],
            [['91234.02000000', '0.00010000']],
          ),
        ),
      );
      await eventually(() => applyBook.mock.calls.length > 0);
      const [source, symbol, book, at] = applyBook.mock.calls[0]!;
      expect([source, symbol]).toEqual(['binance', 'BTC_EUR']);
      expect(JSON.parse(JSON.stringify(book))).toEqual({
        bids: [
          { price: '91234.01', size: '0.5' },
          { price: '91234', size: '1.25' },
        ],
        asks: [{ price: '91234.02', size: '0.0001' }],
      });
      expect(at).toBeInstanceOf(Date);
    } finally {
      applyBook.mockRestore();
    }
    // Books change no price.
    expect(await price('BTC_EUR')).toBe('91234.56780000');
  });

  it("makes a book the pair's price levels, and a resting order that now crosses fills from them", async () => {
    const trading = await Trading.start(api);
    const orgUserId = await trading.user();
    // The ask is above the limit: the order rests.
    exchange.send(
      combined('etheur@depth20@100ms', binanceDepth([['99.00000000', '5.00000000']], [['101.5', '2']])),
    );
    await eventually(async () => (await levels('ETH_EUR')).length === 2);
    const order = await trading.placed({ orgUserId, symbol: 'ETH_EUR', quantity: 3, limitPrice: 101 });
    expect(order).toMatchObject({ status: 'PENDING', filled: 0 });
    // The next book offers 2 at 100.9: the order takes them, and the rest waits.
    exchange.send(
      combined(
        'etheur@depth20@100ms',
        binanceDepth(
          [['99.00000000', '5.00000000']],
          [
            ['100.9', '2'],
            ['101.2', '4'],
          ],
        ),
      ),
    );
    await eventually(async () => (await trading.fills(order.id)).length === 1);
    expect(await trading.fills(order.id)).toEqual([
      expect.objectContaining({ price: '100.90000000', quantity: '2.00000000' }),
    ]);
    // The level it took from is spent, until the feed's next book replaces it.
    expect(await levels('ETH_EUR')).toEqual([
      { side: 'ASK', price: '100.90000000', size: '0.00000000' },
      { side: 'ASK', price: '101.20000000', size: '4.00000000' },
      { side: 'BID', price: '99.00000000', size: '5.00000000' },
    ]);
    const [stored] = await api.rows<{ status: string; filled: string }>(
      'SELECT status, filled FROM orders WHERE id = $1',
      [order.id],
    );
    expect(stored).toEqual({ status: 'PARTIALLY_FILLED', filled: '2.00000000' });
  });

  it('leaves out a crossed book, keeping the levels it had', async () => {
    const before = await levels('ETH_EUR');
    exchange.send(combined('etheur@depth20@100ms', binanceDepth([['102', '1']], [['101', '1']])));
    exchange.send(trade('ETHEUR', '100.5', Date.now()));
    await eventually(async () => (await price('ETH_EUR')) === '100.50000000');
    expect(await levels('ETH_EUR')).toEqual(before);
  });

  it('skips a malformed message and a price of more than 8 decimals, and reads on', async () => {
    exchange.send('{"stream":"btceur@trade","data":{"e":"trade"');
    exchange.send(trade('BTCEUR', '1.000000001', Date.now()));
    exchange.send(trade('BTCEUR', '91000.5', Date.parse('2030-01-31T12:00:05.000Z')));
    await eventually(async () => (await price('BTC_EUR')) === '91000.50000000');
    expect((await ticks('BTC_EUR')).map((tick) => tick.price)).not.toContain('1.00000000');
  });

  it('reconnects after a disconnect and subscribes again', async () => {
    const before = exchange.connections.length;
    exchange.dropAll();
    await eventually(() => exchange.connections.length === before + 1 && exchange.open.length === 1);
    await eventually(() => exchange.open[0]!.received.length > 0);
    expect(JSON.parse(exchange.open[0]!.received[0]!)).toEqual(SUBSCRIBE);
    exchange.send(trade('BTCEUR', '92000', Date.parse('2030-01-31T12:00:10.000Z')));
    await eventually(async () => (await price('BTC_EUR')) === '92000.00000000');
  });

  it('drops a connection that stays silent past MARKET_DATA_STALE_MS and makes a new one', async () => {
    const before = exchange.connections.length;
    const silent = exchange.open[0]!;
    silent.pinging = false;
    await eventually(() => exchange.connections.length === before + 1, 5000);
    expect(silent.socket.readyState).not.toBe(silent.socket.OPEN);
    await eventually(() => exchange.open.length === 1 && exchange.open[0]!.received.length > 0);
  });

  describe('with a second instance', () => {
    let second: ApiFixture;
    beforeAll(async () => {
      second = await ApiFixture.start(env(), { besides: api });
    });
    afterAll(async () => {
      await second.close();
    });
    const feedSessions = () =>
      api.rows<{ pid: number }>(
        "SELECT pid FROM pg_stat_activity WHERE application_name = 'svc-market-data' AND datname = current_database()",
      );

    it('keeps one connection to the exchange, through one lock session, when the lock holder loses it', async () => {
      await new Promise((resolve) => setTimeout(resolve, 2000));
      expect(exchange.open).toHaveLength(1);
      const first = exchange.open[0]!;
      // The lock's session ends (a restart of PostgreSQL, a cut): its holder stops, one instance takes over.
      await api.rows(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'svc-market-data'",
      );
      await eventually(() => first.socket.readyState !== first.socket.OPEN);
      await eventually(() => exchange.open.length === 1, 8000);
      await new Promise((resolve) => setTimeout(resolve, 2000));
      expect(exchange.open).toHaveLength(1);
      expect(await feedSessions()).toHaveLength(1);
      exchange.send(trade('BTCEUR', '93000', Date.parse('2030-01-31T12:00:20.000Z')));
      await eventually(async () => (await price('BTC_EUR')) === '93000.00000000');
    });

    it('moves the feed to the other instance when the one running it stops', async () => {
      const instances = [api, second].map((fixture) => fixture.app.get(MarketDataService));
      expect(instances.filter((instance) => instance.runsFeed)).toHaveLength(1);
      const running = instances.find((instance) => instance.runsFeed)!;
      const standby = instances.find((instance) => !instance.runsFeed)!;
      const connection = exchange.open[0]!;
      await running.onApplicationShutdown();
      expect(connection.socket.readyState).not.toBe(connection.socket.OPEN);
      await eventually(() => standby.runsFeed && exchange.open.length === 1, 8000);
      await eventually(() => exchange.open[0]!.received.length > 0);
      expect(JSON.parse(exchange.open[0]!.received[0]!)).toEqual(SUBSCRIBE);
      exchange.send(trade('BTCEUR', '94000', Date.parse('2030-01-31T12:00:30.000Z')));
      await eventually(async () => (await price('BTC_EUR')) === '94000.00000000');
    });
  });
});
