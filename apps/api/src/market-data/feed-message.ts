// What a feed's parser makes of one message of the exchange's stream, and the levels every feed reads.
import { positiveDecimal } from './exchange-decimal.js';
import type { MarketDataUpdate, PriceLevel } from './market-data.js';

export type FeedMessage =
  /** Prices or books; `dropped` counts values refused (not exact in numeric(38,8)) and left out. */
  | { readonly kind: 'updates'; readonly updates: readonly MarketDataUpdate[]; readonly dropped: number }
  /** The exchange's answer to our requests (a subscription confirmed), a heartbeat, another pair's data. */
  | { readonly kind: 'ignored' }
  /** The exchange refused something (a subscription): logged, the stream goes on. */
  | { readonly kind: 'refused'; readonly reason: string }
  /** Not the documented format: logged and skipped. */
  | { readonly kind: 'malformed'; readonly reason: string };

/** Levels kept per side: a book deeper than this is cut, so that one message never holds much memory. */
export const MAX_BOOK_LEVELS = 50;

/**
 * `[["price", "size"], ...]` as the exchanges send a side of a book: the levels in order, without those
 * whose price or size is refused; undefined when `value` is not such a list at all.
 */
export function readLevels(value: unknown): { levels: PriceLevel[]; dropped: number } | undefined {
  if (!Array.isArray(value)) return undefined;
  const levels: PriceLevel[] = [];
  let dropped = 0;
  for (const entry of value.slice(0, MAX_BOOK_LEVELS)) {
    if (!Array.isArray(entry) || entry.length < 2) return undefined;
    const price = positiveDecimal(entry[0]);
    const size = positiveDecimal(entry[1]);
    if (price && size) levels.push({ price, size });
    else dropped++;
  }
  return { levels, dropped };
}

/** Parses JSON text into an object, or undefined for anything else. */
export function jsonObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
