// Exchanges send prices and sizes as decimal strings ("25.35190000"): read here digit for digit into Dec,
// never through a double. A value numeric(38,8) cannot hold exactly is refused, not rounded
// (docs/configuration.md#market-data): more than 8 significant decimals, or more than 30 integer digits.
import { Dec, fitsAmount } from '../common/decimal.js';

const DECIMAL_TEXT = /^[0-9]{1,64}(\.[0-9]{1,64})?$/;

/** The exact positive decimal `text` spells, or undefined (not such a string, zero, or does not fit). */
export function positiveDecimal(text: unknown): Dec | undefined {
  const value = decimalText(text);
  return value !== undefined && value.gt(0) ? value : undefined;
}

/** The exact decimal (zero allowed) `text` spells, or undefined. */
export function decimalText(text: unknown): Dec | undefined {
  if (typeof text !== 'string' || !DECIMAL_TEXT.test(text)) return undefined;
  // Trailing zeros ("0.01000000") are digits of the text, not of the value: fitsAmount counts the value's.
  const value = new Dec(text);
  return fitsAmount(value) ? value : undefined;
}
