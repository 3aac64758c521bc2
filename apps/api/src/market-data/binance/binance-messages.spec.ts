import {
  binanceDepth,
  binanceTrade,
  combined,
  INVALID_REQUEST,
  SUBSCRIBED,
} from '../../../test/support/binance-samples.js';
import { SymbolMap } from '../symbol-map.js';
import { binanceSubscribe, parseBinanceMessage } from './binance-messages.js';

const symbols = new SymbolMap('binance', ['BNB_BTC', 'BTC_EUR']);
const NOW = new Date('2030-01-31T12:00:00.000Z');
const parse = (text: string) => parseBinanceMessage(text, symbols, NOW);
/** Decimals as text, so that a comparison says which digits differ. */
const plain = (message: ReturnType<typeof parse>) => JSON.parse(JSON.stringify(message)) as unknown;

describe('Binance stream messages', () => {
  it('subscribes to the trades and the 20-level book of every pair, by lower-case exchange name', () => {
    expect(JSON.parse(binanceSubscribe(symbols))).toEqual({
      method: 'SUBSCRIBE',
      params: ['bnbbtc@trade', 'bnbbtc@depth20@100ms', 'btceur@trade', 'btceur@depth20@100ms'],
      id: 1,
    });
  });

  it("reads the documented trade: our pair's last price, exact, at the trade time", () => {
    expect(plain(parse(combined('bnbbtc@trade', binanceTrade())))).toEqual({
      kind: 'updates',
      updates: [{ symbol: 'BNB_BTC', lastPrice: '0.001', at: '2022-12-31T19:43:02.136Z' }],
      dropped: 0,
    });
    const precise = parse(combined('btceur@trade', binanceTrade({ s: 'BTCEUR', p: '91234.56780000' })));
    expect(precise.kind === 'updates' && precise.updates[0]?.lastPrice?.toFixed()).toBe('91234.5678');
  });

  it('reads the documented partial book: levels in order, exact, dated when received', () => {
    expect(plain(parse(combined('bnbbtc@depth20@100ms', binanceDepth())))).toEqual({
      kind: 'updates',
      updates: [
        {
          symbol: 'BNB_BTC',
          bids: [{ price: '0.0024', size: '10' }],
          asks: [{ price: '0.0026', size: '100' }],
          at: NOW.toISOString(),
        },
      ],
      dropped: 0,
    });
  });

  it('leaves out a level or a price with more than 8 decimals, and says how many', () => {
    const depth = binanceDepth(
      [
        ['0.0024', '10'],
        ['0.002300001', '5'],
      ],
      [['0.0026', '0.000000001']],
    );
    expect(plain(parse(combined('bnbbtc@depth20@100ms', depth)))).toMatchObject({
      updates: [{ bids: [{ price: '0.0024', size: '10' }], asks: [] }],
      dropped: 2,
    });
    expect(parse(combined('bnbbtc@trade', binanceTrade({ p: '0.0010000001' })))).toEqual({
      kind: 'updates',
      updates: [],
      dropped: 1,
    });
  });

  it('ignores answers and the streams of pairs not configured', () => {
    expect(parse(SUBSCRIBED(1))).toEqual({ kind: 'ignored' });
    expect(parse(combined('ethbtc@trade', binanceTrade({ s: 'ETHBTC' })))).toEqual({ kind: 'ignored' });
    expect(parse(combined('bnbbtc@aggTrade', { e: 'aggTrade' }))).toEqual({ kind: 'ignored' });
  });

  it('reports a refused request and every message not in the documented format', () => {
    expect(parse(INVALID_REQUEST)).toEqual({
      kind: 'refused',
      reason: '2: Invalid request: request ID must be an unsigned integer',
    });
    for (const text of [
      '{"stream":"bnbbtc@trade","data":',
      '[]',
      '"text"',
      JSON.stringify({ data: binanceTrade() }),
      combined('bnbbtc@trade', binanceTrade({ T: '1672515782136' })),
      combined('bnbbtc@trade', { ...binanceTrade(), e: 'aggTrade' }),
      combined('bnbbtc@depth20@100ms', { bids: [], asks: [] }),
      combined('bnbbtc@depth20@100ms', { lastUpdateId: 1, bids: [['1']], asks: [] }),
      combined('bnbbtc@depth20@100ms', { lastUpdateId: 1, bids: 'none', asks: [] }),
    ]) {
      expect(parse(text)).toMatchObject({ kind: 'malformed' });
    }
  });
});
