// Binance spot's public market streams, as "Web Socket Streams for Binance (2023-12-04)" documents them
// (binance-spot-api-docs, web-socket-streams.md): one connection to the combined endpoint (/stream), a
// SUBSCRIBE request for each pair's `<symbol>@trade` and `<symbol>@depth20@100ms`, and every event wrapped
// as {"stream":"<streamName>","data":<rawPayload>}.
import { positiveDecimal } from '../exchange-decimal.js';
import { type FeedMessage, jsonObject, readLevels } from '../feed-message.js';
import type { SymbolMap } from '../symbol-map.js';

/** The partial book stream we read: the best 20 levels each side, every 100 ms. */
const DEPTH_STREAM = 'depth20@100ms';

/** The streams of our pairs: lower-case exchange symbols, as Binance names streams. */
export function binanceStreams(symbols: SymbolMap): string[] {
  return symbols.symbols.flatMap((symbol) => {
    const name = symbols.exchange(symbol).toLowerCase();
    return [`${name}@trade`, `${name}@${DEPTH_STREAM}`];
  });
}

/** The request sent on every connection (so a reconnection subscribes again). */
export function binanceSubscribe(symbols: SymbolMap, id = 1): string {
  return JSON.stringify({ method: 'SUBSCRIBE', params: binanceStreams(symbols), id });
}

/** One message of the combined stream. `receivedAt` dates a book, whose payload has no time. */
export function parseBinanceMessage(text: string, symbols: SymbolMap, receivedAt: Date): FeedMessage {
  const message = jsonObject(text);
  if (!message) return { kind: 'malformed', reason: 'not a JSON object' };
  // {"result":null,"id":1} answers SUBSCRIBE; {"code":2,"msg":"Invalid request: ..."} refuses a request.
  if ('id' in message && 'result' in message) return { kind: 'ignored' };
  if (typeof message.code === 'number' && typeof message.msg === 'string') {
    return { kind: 'refused', reason: `${message.code}: ${message.msg}` };
  }
  const { stream, data } = message;
  if (typeof stream !== 'string' || typeof data !== 'object' || data === null) {
    return { kind: 'malformed', reason: 'neither a stream event nor an answer' };
  }
  const [exchangeName = '', kind] = stream.split('@', 2);
  const symbol = symbols.ourSymbol(exchangeName);
  if (symbol === undefined) return { kind: 'ignored' };
  const payload = data as Record<string, unknown>;
  if (kind === 'trade') return trade(symbol, payload);
  if (stream === `${exchangeName}@${DEPTH_STREAM}`) return depth(symbol, payload, receivedAt);
  return { kind: 'ignored' };
}

function trade(symbol: string, data: Record<string, unknown>): FeedMessage {
  if (data.e !== 'trade' || typeof data.T !== 'number' || !Number.isSafeInteger(data.T)) {
    return { kind: 'malformed', reason: 'a trade event needs "e":"trade" and a trade time "T"' };
  }
  const price = positiveDecimal(data.p);
  if (!price) return { kind: 'updates', updates: [], dropped: 1 };
  return { kind: 'updates', updates: [{ symbol, lastPrice: price, at: new Date(data.T) }], dropped: 0 };
}

function depth(symbol: string, data: Record<string, unknown>, receivedAt: Date): FeedMessage {
  const bids = readLevels(data.bids);
  const asks = readLevels(data.asks);
  if (typeof data.lastUpdateId !== 'number' || !bids || !asks) {
    return { kind: 'malformed', reason: 'a partial book needs lastUpdateId, bids and asks' };
  }
  return {
    kind: 'updates',
    updates: [{ symbol, bids: bids.levels, asks: asks.levels, at: receivedAt }],
    dropped: bids.dropped + asks.dropped,
  };
}
