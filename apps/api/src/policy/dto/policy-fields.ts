// The rules of an organisation's policy fields (docs/decisions.md, "Organisations: the policy"): asset codes,
// limit maps and rates.
import { applyDecorators } from '@nestjs/common';
import { AMOUNT_SCALE } from '@svc/db';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, ArrayUnique, IsArray, Matches, registerDecorator } from 'class-validator';

import { ASSET_CODE, ASSET_CODE_RULE } from '../../common/assets.js';
import { quoted } from '../../common/errors.js';
import { amountProblem, decimalOf, toAmount } from '../../common/decimal.js';

/** Entries of one limit map, and assets in enabledAssets. */
export const MAX_POLICY_ENTRIES = 100;

export const EnabledAssets = () =>
  applyDecorators(
    IsArray({ message: 'enabledAssets must be an array of asset codes' }),
    ArrayMaxSize(MAX_POLICY_ENTRIES, {
      message: `enabledAssets must hold at most ${MAX_POLICY_ENTRIES} asset codes`,
    }),
    ArrayUnique((code: unknown) => code, { message: 'enabledAssets must not repeat an asset code' }),
    Matches(ASSET_CODE, { each: true, message: `enabledAssets must hold asset codes of ${ASSET_CODE_RULE}` }),
  );

/** Why `value` is not a limit map, or undefined when it is one. */
function limitMapProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return 'must be an object mapping asset codes to amounts';
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null)
    return 'must be an object mapping asset codes to amounts';
  const entries = Object.entries(value);
  if (entries.length > MAX_POLICY_ENTRIES) return `must hold at most ${MAX_POLICY_ENTRIES} entries`;
  const badKey = entries.find(([code]) => !ASSET_CODE.test(code));
  if (badKey) return `keys must be asset codes of ${ASSET_CODE_RULE} (got ${quoted(badKey[0])})`;
  for (const [code, amount] of entries) {
    const problem = amountProblem(amount, true);
    if (problem) return `values ${problem} (${code} is not)`;
  }
  return undefined;
}

/** The map sent with each JSON number as the exact decimal it spells; anything else as it was. */
function toAmountMap({ key, obj }: { key: string; obj: Record<string, unknown> }): unknown {
  const value = obj[key];
  if (typeof value !== 'object' || value === null || Object.getPrototypeOf(value) !== Object.prototype)
    return value;
  return Object.fromEntries(
    Object.entries(value).map(([code, amount]) => [code, decimalOf(amount) ?? amount]),
  );
}

/** A limit: asset code -> amount; 0 is a limit that allows nothing, an absent code no limit. */
export function LimitMap() {
  return (target: object, propertyName: string) => {
    Transform(toAmountMap)(target, propertyName);
    registerDecorator({
      name: 'isLimitMap',
      target: target.constructor,
      propertyName,
      validator: {
        validate: (value: unknown) => limitMapProblem(value) === undefined,
        defaultMessage: (args) => `${propertyName} ${limitMapProblem(args?.value) ?? 'is invalid'}`,
      },
    });
  };
}

export const RATE_RULE = `a number from 0 up to (not including) 1 with at most ${AMOUNT_SCALE} decimals`;

/** A share of an amount, 0 <= rate < 1. */
export function Rate() {
  return (target: object, propertyName: string) => {
    Transform(toAmount)(target, propertyName);
    registerDecorator({
      name: 'isRate',
      target: target.constructor,
      propertyName,
      options: { message: `${propertyName} must be ${RATE_RULE}` },
      validator: {
        validate: (value: unknown) =>
          amountProblem(value, true) === undefined && decimalOf(value)?.lt(1) === true,
      },
    });
  };
}
