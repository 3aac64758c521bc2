// The market-data feed's variables (docs/configuration.md#market-data): which exchange's public stream feeds
// the prices of which pairs. Off unless MARKET_DATA_FEED names a feed.
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, IsUrl, Max, Min } from 'class-validator';
import { ServiceEnvironment, splitList } from '@svc/runtime';

import { SYMBOL, SYMBOL_RULE } from '../common/assets.js';

export const MARKET_DATA_FEEDS = ['binance'] as const;
export type MarketDataFeedName = (typeof MARKET_DATA_FEEDS)[number];

/** Each feed's public market data endpoint (the exchange's documented production address). */
export const DEFAULT_FEED_URLS: Readonly<Record<MarketDataFeedName, string>> = {
  binance: 'wss://stream.binance.com:9443/stream',
};

/** A pair as each feed's exchange names it: BTC_EUR is BTCEUR on Binance. */
const EXCHANGE_SYMBOL: Readonly<Record<MarketDataFeedName, (symbol: string) => string>> = {
  binance: (symbol) => symbol.replace('_', ''),
};

export function exchangeSymbol(feed: MarketDataFeedName, symbol: string): string {
  return EXCHANGE_SYMBOL[feed](symbol);
}

export class MarketDataEnvironment extends ServiceEnvironment {
  /** The exchange whose public stream sets the prices; unset or `off`: operators set every price. */
  @IsOptional()
  @IsIn(['off', ...MARKET_DATA_FEEDS])
  MARKET_DATA_FEED?: string;

  /** The feed's WebSocket address; default the exchange's own. */
  @IsOptional()
  @IsUrl({ protocols: ['ws', 'wss'], require_tld: false, require_protocol: true })
  MARKET_DATA_URL?: string;

  /** The pairs the feed prices, comma-separated (BTC_EUR,ETH_EUR). */
  @IsOptional()
  @IsString()
  MARKET_DATA_SYMBOLS?: string;

  /** At most one price tick per pair per this many milliseconds from a feed. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(10)
  @Max(3_600_000)
  MARKET_DATA_TICK_INTERVAL_MS?: number;

  /** A connection silent this long is dropped and made again; standby instances look this often. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(100)
  @Max(600_000)
  MARKET_DATA_STALE_MS?: number;

  /** The first wait before reconnecting; it doubles at each failure up to a minute. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(10)
  @Max(60_000)
  MARKET_DATA_RECONNECT_MS?: number;
}

export interface MarketDataSettings {
  /** Null: no feed runs. */
  readonly feed: MarketDataFeedName | null;
  readonly url: string;
  /** Our symbols (BASE_QUOTE), in the order given. */
  readonly symbols: readonly string[];
  readonly tickIntervalMs: number;
  readonly staleMs: number;
  readonly reconnectMs: number;
}

/** One line per bad market-data variable, beyond each variable's own rule. */
export function marketDataProblems(env: MarketDataEnvironment): string[] {
  const feed = feedOf(env);
  const symbols = symbolsOf(env);
  const problems: string[] = [];
  const bad = symbols.filter((symbol) => !SYMBOL.test(symbol));
  if (bad.length > 0) {
    problems.push(`MARKET_DATA_SYMBOLS: each must be ${SYMBOL_RULE} (got ${JSON.stringify(bad.join(','))})`);
  } else if (feed && symbols.length === 0) {
    problems.push(`MARKET_DATA_SYMBOLS: required with MARKET_DATA_FEED=${feed} (e.g. BTC_EUR,ETH_EUR)`);
  } else if (feed) {
    const seen = new Map<string, string>();
    for (const symbol of symbols) {
      const named = exchangeSymbol(feed, symbol);
      const other = seen.get(named);
      if (other !== undefined) {
        problems.push(`MARKET_DATA_SYMBOLS: ${other} and ${symbol} are both ${named} on ${feed}`);
      }
      seen.set(named, symbol);
    }
  }
  return problems;
}

export function marketDataSettings(env: MarketDataEnvironment): MarketDataSettings {
  const feed = feedOf(env);
  return Object.freeze({
    feed,
    url: env.MARKET_DATA_URL ?? (feed ? DEFAULT_FEED_URLS[feed] : ''),
    symbols: Object.freeze(symbolsOf(env)),
    tickIntervalMs: env.MARKET_DATA_TICK_INTERVAL_MS ?? 1000,
    staleMs: env.MARKET_DATA_STALE_MS ?? 30_000,
    reconnectMs: env.MARKET_DATA_RECONNECT_MS ?? 1000,
  });
}

/** The listed pairs, each once, in the order given. */
function symbolsOf(env: MarketDataEnvironment): string[] {
  return [...new Set(splitList(env.MARKET_DATA_SYMBOLS ?? ''))];
}

function feedOf(env: MarketDataEnvironment): MarketDataFeedName | null {
  const feed = env.MARKET_DATA_FEED;
  return feed === undefined || feed === 'off' ? null : (feed as MarketDataFeedName);
}
