// Exact decimal arithmetic for money and quantities (docs/decisions.md, "Orders: amounts"): decimal.js in
// code, numeric(38,8) in PostgreSQL, and JSON numbers on the wire written with exactly the stored digits.
import Decimal from 'decimal.js';
import { Transform } from 'class-transformer';
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

/**
 * A JSON number of a request body whose digits a double does not carry (`123456789012345678901234567890`,
 * `0.100000000000000001`), kept as its source text by the body parser, so that no amount is rounded on
 * input. Numbers a double carries exactly stay plain numbers.
 */
export class NumberText {
  constructor(readonly text: string) {}
}

/**
 * JSON.parse reviver (Node 21 and later pass the literal as `context.source`): a number whose literal
 * denotes another decimal than the double it parses to becomes a NumberText.
 */
export function keepNumberText(value: unknown, source: string | undefined): unknown {
  if (typeof value !== 'number' || source === undefined || source === String(value)) return value;
  if (!Number.isFinite(value)) return new NumberText(source);
  return new Dec(source).eq(String(value)) ? value : new NumberText(source);
}

/**
 * The exact decimal a JSON number of a body stands for (a plain number by its shortest spelling, which
 * the parser left only when it is the literal's value; a decimal as it is), or undefined for anything else.
 */
export function decimalOf(value: unknown): Dec | undefined {
  if (Dec.isDecimal(value)) return value;
  if (value instanceof NumberText) return new Dec(value.text);
  if (typeof value === 'number' && Number.isFinite(value)) return new Dec(String(value));
  return undefined;
}

/** Whether `value` fits numeric(38,8) as it is: at most 8 decimals and 30 digits before the point. */
export function fitsAmount(value: Dec): boolean {
  return value.decimalPlaces() <= AMOUNT_SCALE && integerDigits(value) <= MAX_INTEGER_DIGITS;
}

function integerDigits(value: Dec): number {
  return value.abs().lt(1) ? 0 : value.abs().truncated().toFixed().length;
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

/**
 * What a body's amount must be, when it is not: `must be a number greater than 0 with at most 8 decimals`,
 * or undefined when `value` is exact and fits numeric(38,8). Never rounded: more than 8 decimals or 30
 * integer digits is refused, not cut.
 */
export function amountProblem(value: unknown, allowZero = false): string | undefined {
  const rule = `must be ${allowZero ? AMOUNT_OR_ZERO_RULE : AMOUNT_RULE}`;
  const amount = decimalOf(value);
  if (amount === undefined || (allowZero ? amount.lt(0) : amount.lte(0))) return rule;
  if (amount.decimalPlaces() > AMOUNT_SCALE) return rule;
  if (integerDigits(amount) > MAX_INTEGER_DIGITS) {
    return `must have at most ${MAX_INTEGER_DIGITS} digits before the point`;
  }
  return undefined;
}

export const AMOUNT_RULE = `a number greater than 0 with at most ${AMOUNT_SCALE} decimals`;
export const AMOUNT_OR_ZERO_RULE = `a number of at least 0 with at most ${AMOUNT_SCALE} decimals`;

/** class-transformer step of an amount field: the JSON number becomes the exact decimal it spells. */
export const toAmount = ({ key, obj }: { key: string; obj: Record<string, unknown> }): unknown =>
  decimalOf(obj[key]) ?? obj[key];

/**
 * An amount field: the exact decimal sent, checked to fit numeric(38,8); the message names the field and
 * the rule.
 */
export function IsAmount(options: { allowZero?: boolean } = {}, validationOptions?: ValidationOptions) {
  const allowZero = options.allowZero ?? false;
  return (target: object, propertyName: string) => {
    Transform(toAmount)(target, propertyName);
    registerDecorator({
      name: 'isAmount',
      target: target.constructor,
      propertyName,
      ...(validationOptions ? { options: validationOptions } : {}),
      validator: {
        validate: (value: unknown) => amountProblem(value, allowZero) === undefined,
        defaultMessage: (args) => `${propertyName} ${amountProblem(args?.value, allowZero) ?? 'is invalid'}`,
      },
    });
  };
}
