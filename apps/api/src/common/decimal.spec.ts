// Exact decimals on their own: which body numbers keep their text, what fits numeric(38,8) and what is
// refused with which rule, the stored text and the wire's number, with the digits of each worked by hand.
import Decimal from 'decimal.js';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';

import {
  amountProblem,
  amountText,
  decimalOf,
  Dec,
  exactNumber,
  fitsAmount,
  IsAmount,
  keepNumberText,
  NumberText,
} from './decimal.js';

const POSITIVE = 'must be a number greater than 0 with at most 8 decimals';
const NOT_NEGATIVE = 'must be a number of at least 0 with at most 8 decimals';

describe('keepNumberText', () => {
  it('leaves a number whose literal is its own spelling, or spells the same decimal', () => {
    expect(keepNumberText(55.5, '55.5')).toBe(55.5);
    expect(keepNumberText(55.5, '55.50')).toBe(55.5);
    expect(keepNumberText(1000, '1e3')).toBe(1000);
    expect(keepNumberText(55.5, undefined)).toBe(55.5);
    expect(keepNumberText('55.5', '"55.5"')).toBe('55.5');
  });

  it('keeps the source of a number a double does not carry, and of one out of its range', () => {
    expect(keepNumberText(0.1, '0.100000000000000001')).toEqual(new NumberText('0.100000000000000001'));
    expect(keepNumberText(1.2345678901234568e29, '123456789012345678901234567890')).toEqual(
      new NumberText('123456789012345678901234567890'),
    );
    expect(keepNumberText(Infinity, '1e400')).toEqual(new NumberText('1e400'));
  });
});

describe('decimalOf', () => {
  it('reads a number by its shortest spelling, a kept text as written, a decimal as it is', () => {
    expect(decimalOf(0.1)?.toFixed()).toBe('0.1');
    expect(decimalOf(new NumberText('0.100000000000000001'))?.toFixed()).toBe('0.100000000000000001');
    const decimal = new Dec('2.5');
    expect(decimalOf(decimal)).toBe(decimal);
  });

  it('gives nothing for what is not a finite number', () => {
    for (const value of ['1.5', NaN, Infinity, null, undefined, {}, [1], true]) {
      expect(decimalOf(value)).toBeUndefined();
    }
  });
});

describe('what fits numeric(38,8)', () => {
  it('takes 8 decimals and 30 integer digits, not one more of either', () => {
    expect(fitsAmount(new Dec('0.00000001'))).toBe(true);
    expect(fitsAmount(new Dec('0.000000001'))).toBe(false);
    expect(fitsAmount(new Dec('9'.repeat(30) + '.99999999'))).toBe(true);
    expect(fitsAmount(new Dec('1' + '0'.repeat(30)))).toBe(false);
    expect(fitsAmount(new Dec('-' + '9'.repeat(30)))).toBe(true);
  });

  it('names the rule broken: the sign, the decimals, or the digits before the point', () => {
    expect(amountProblem(0.00000001)).toBeUndefined();
    expect(amountProblem(0)).toBe(POSITIVE);
    expect(amountProblem(-1)).toBe(POSITIVE);
    expect(amountProblem(0, true)).toBeUndefined();
    expect(amountProblem(-0.00000001, true)).toBe(NOT_NEGATIVE);
    expect(amountProblem(0.000000001)).toBe(POSITIVE);
    expect(amountProblem('1')).toBe(POSITIVE);
    expect(amountProblem(new NumberText('1' + '0'.repeat(30)))).toBe(
      'must have at most 30 digits before the point',
    );
  });

  it('refuses more than 8 decimals rather than rounding them away', () => {
    expect(amountProblem(new NumberText('1.000000000000000001'))).toBe(POSITIVE);
  });
});

describe('the stored text and the wire number', () => {
  it('rounds to 8 decimals half up unless told, and pads to 8', () => {
    expect(amountText(new Dec('1.000000005'))).toBe('1.00000001');
    expect(amountText(new Dec('1.000000005'), Decimal.ROUND_DOWN)).toBe('1.00000000');
    expect(amountText(new Dec('-1.000000005'))).toBe('-1.00000001');
    expect(amountText(new Dec('55000.5'))).toBe('55000.50000000');
  });

  it('writes a stored decimal as a JSON number with exactly its digits', () => {
    const wire = (text: string) => JSON.stringify({ amount: exactNumber(text) });
    expect(wire('55000.50000000')).toBe('{"amount":55000.5}');
    expect(wire('100.00000000')).toBe('{"amount":100}');
    expect(wire('-0.00000000')).toBe('{"amount":0}');
    expect(wire('1000')).toBe('{"amount":1000}');
    expect(wire('123456789012345678901234567890.12345678')).toBe(
      '{"amount":123456789012345678901234567890.12345678}',
    );
  });
});

describe('an @IsAmount field', () => {
  class Body {
    @IsAmount()
    quantity!: unknown;

    @IsAmount({ allowZero: true })
    fee!: unknown;
  }
  const check = (plain: Record<string, unknown>) => {
    const body = plainToInstance(Body, plain);
    return { body, messages: validateSync(body).flatMap((error) => Object.values(error.constraints ?? {})) };
  };

  it('becomes the exact decimal sent', () => {
    const sent = '123456789012345678901234567890.12345678';
    const { body, messages } = check({ quantity: new NumberText(sent), fee: 0 });
    expect(messages).toEqual([]);
    expect(Dec.isDecimal(body.quantity)).toBe(true);
    expect((body.quantity as Dec).toFixed()).toBe(sent);
  });

  it('is refused with a message naming the field and the rule', () => {
    expect(check({ quantity: 0, fee: -1 }).messages).toEqual([`quantity ${POSITIVE}`, `fee ${NOT_NEGATIVE}`]);
    expect(check({ quantity: 'ten', fee: 0 }).messages).toEqual([`quantity ${POSITIVE}`]);
  });
});
