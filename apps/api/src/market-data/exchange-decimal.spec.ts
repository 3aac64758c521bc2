import fc from 'fast-check';

import { Dec } from '../common/decimal.js';
import { decimalText, positiveDecimal } from './exchange-decimal.js';

describe('exchange decimals', () => {
  it('reads the text digit for digit, trailing zeros and all', () => {
    expect(positiveDecimal('25.35190000')?.toFixed()).toBe('25.3519');
    expect(positiveDecimal('0.00000001')?.toFixed()).toBe('0.00000001');
    expect(positiveDecimal('123456789012345678901234567890.12345678')?.toFixed()).toBe(
      '123456789012345678901234567890.12345678',
    );
    // 0.1 + 0.2 as doubles would not be 0.3: no double is ever involved.
    expect(
      positiveDecimal('0.1')
        ?.plus(positiveDecimal('0.2') ?? 0)
        .toFixed(),
    ).toBe('0.3');
  });

  it('refuses what numeric(38,8) would have to round or could not hold, and what is not a decimal', () => {
    expect(positiveDecimal('0.000000001')).toBeUndefined();
    expect(positiveDecimal('1.123456789')).toBeUndefined();
    expect(positiveDecimal('1234567890123456789012345678901')).toBeUndefined();
    for (const text of ['', '-1', '+1', '1e3', '1.', '.5', ' 1', '0x10', 'NaN', 'Infinity', '1,5']) {
      expect(positiveDecimal(text)).toBeUndefined();
    }
    for (const value of [1, null, undefined, {}, ['1']]) expect(positiveDecimal(value)).toBeUndefined();
  });

  it('refuses zero as a price or size, and reads it where zero means something', () => {
    expect(positiveDecimal('0')).toBeUndefined();
    expect(positiveDecimal('0.00000000')).toBeUndefined();
    expect(decimalText('0.00000000')?.isZero()).toBe(true);
  });

  it('gives back exactly the decimal of any text of up to 8 decimals (property)', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 10n ** 38n - 1n }), fc.nat({ max: 4 }), (units, zeros) => {
        const digits = units.toString().padStart(9, '0');
        const text = `${digits.slice(0, -8)}.${digits.slice(-8)}${'0'.repeat(zeros)}`;
        expect(positiveDecimal(text)?.eq(new Dec(units.toString()).div(1e8))).toBe(true);
      }),
    );
  });
});
