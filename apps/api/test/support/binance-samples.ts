// Binance spot's stream messages as "Web Socket Streams for Binance (2023-12-04)" documents them
// (binance-spot-api-docs, web-socket-streams.md): the documented payloads with their field order and
// values, as JSON without the documentation's comments, wrapped as the combined stream wraps them. The
// parser's unit tests and the local exchange of the e2e tests both send these.

/** The documented trade payload (BNBBTC), with `fields` replaced. */
export function binanceTrade(fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    e: 'trade',
    E: 1672515782136,
    s: 'BNBBTC',
    t: 12345,
    p: '0.001',
    q: '100',
    b: 88,
    a: 50,
    T: 1672515782136,
    m: true,
    M: true,
    ...fields,
  };
}

/** The documented partial book depth payload. */
export function binanceDepth(
  bids: string[][] = [['0.0024', '10']],
  asks: string[][] = [['0.0026', '100']],
): Record<string, unknown> {
  return { lastUpdateId: 160, bids, asks };
}

/** A payload as the combined stream sends it. */
export function combined(stream: string, data: unknown): string {
  return JSON.stringify({ stream, data });
}

/** The answer to a SUBSCRIBE request. */
export const SUBSCRIBED = (id: number) => JSON.stringify({ result: null, id });

/** A refused request, as the documentation's error table shows it. */
export const INVALID_REQUEST = JSON.stringify({
  code: 2,
  msg: 'Invalid request: request ID must be an unsigned integer',
});
