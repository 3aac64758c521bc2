// Asset codes and trading pairs (docs/api-guide.md#orders-events: a symbol is BASE_QUOTE, an asset code, an
// underscore and a currency code).

export const ASSET_CODE = /^[A-Z0-9]{2,12}$/;
export const ASSET_CODE_RULE = '2 to 12 capital letters or digits';

export const SYMBOL = /^([A-Z0-9]{2,12})_([A-Z0-9]{2,12})$/;
export const SYMBOL_RULE = 'BASE_QUOTE: two asset codes of 2 to 12 capital letters or digits joined by _';

export interface Pair {
  readonly base: string;
  readonly quote: string;
}

/** The pair of a symbol already checked against SYMBOL. */
export function pairOf(symbol: string): Pair {
  const match = SYMBOL.exec(symbol);
  if (!match?.[1] || !match[2]) throw new Error(`not a symbol: ${symbol}`);
  return { base: match[1], quote: match[2] };
}
