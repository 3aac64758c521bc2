// Exact decimal arithmetic for money and quantities (DESIGN section 4): decimal.js in code, numeric(38,8)
// in PostgreSQL, and JSON numbers on the wire written with exactly the stored digits.
import Decimal from 'decimal.js';
import { registerDecorator, type ValidationOptions } from 'class-validator';

import { AMOUNT_SCALE } from '@svc/db';

/** Decimal with room for any product of two numeric(38,8) values; rounding is always explicit. */
export const Dec = Decimal.clone({
  precision: 80,
  rounding: Decimal.ROUND_HALF_UP,
  toExpNeg: -40,
  toExpPos: 60,
});
export type Dec = Decimal;

/** numeric(38,8) leaves 30 digits before the point. */
const MAX_INTEGER_DIGITS = 38 - AMOUNT_SCALE;

/** The amount a JSON number stands for: its shortest spelling (what the request signature covers, spec 5.1). */
export function decimalOf(value: number): Dec {
  return new Dec(String(value));
}

/** The text PostgreSQL stores for `value`, rounded to 8 decimals with `rounding` (half up unless told). */
export function amountText(value: Dec, rounding: Decimal.Rounding = Decimal.ROUND_HALF_UP): string {
  return value.toFixed(AMOUNT_SCALE, rounding);
}

const { rawJSON } = JSON as unknown as { rawJSON: (text: string) => object };

/**
 * A stored decimal ("55000.50000000") as a JSON number written with exactly its digits (55000.5), so a
 * value beyond a double's 15 to 17 digits reaches the wire unchanged. JSON.stringify writes the object
 * JSON.rawJSON returns (Node 21 and later) as that text.
 */
export function exactNumber(text: string): number {
  const trimmed = text.includes('.') ? text.replace(/\.?0+$/, '') : text;
  return rawJSON(trimmed === '-0' ? '0' : trimmed) as unknown as number;
}

/** Whether `value` is a finite number with at most 8 decimals that fits numeric(38,8), and > 0 unless `allowZero`. */
export function isAmount(value: unknown, allowZero = false): value is number {
  if (typeof value !== 'number' || !Number.isFinite(value)) return false;
  const amount = decimalOf(value);
  return (
    (allowZero ? amount.gte(0) : amount.gt(0)) &&
    amount.decimalPlaces() <= AMOUNT_SCALE &&
    amount.precision(true) - amount.decimalPlaces() <= MAX_INTEGER_DIGITS
  );
}

export const AMOUNT_RULE = `a number greater than 0 with at most ${AMOUNT_SCALE} decimals`;
export const AMOUNT_OR_ZERO_RULE = `a number of at least 0 with at most ${AMOUNT_SCALE} decimals`;

/** class-validator rule for an amount field; the message names the field and the rule. */
export function IsAmount(options: { allowZero?: boolean } = {}, validationOptions?: ValidationOptions) {
  const allowZero = options.allowZero ?? false;
  return (target: object, propertyName: string) => {
    registerDecorator({
      name: 'isAmount',
      target: target.constructor,
      propertyName,
      options: {
        message: `${propertyName} must be ${allowZero ? AMOUNT_OR_ZERO_RULE : AMOUNT_RULE}`,
        ...validationOptions,
      },
      validator: { validate: (value: unknown) => isAmount(value, allowZero) },
    });
  };
}
