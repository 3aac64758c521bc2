import fc from 'fast-check';

import { exactNumber } from '../common/decimal.js';
import {
  exactDecimal,
  formatAmount,
  formatCount,
  formatRate,
  formatUtc,
  groupDigits,
  jsonPreview,
} from './format.js';

describe('web formatting', () => {
  describe('amounts', () => {
    it('groups thousands and names the unit', () => {
      expect(formatAmount(1234.5, 'EUR')).toEqual({ text: '1,234.5 EUR', exact: '1234.5' });
      expect(formatAmount(50000)).toEqual({ text: '50,000', exact: '50000' });
      expect(formatAmount(-1234567.891).text).toBe('-1,234,567.891');
      expect(formatAmount(999).text).toBe('999');
      expect(formatAmount(0).text).toBe('0');
    });

    it('keeps every stored digit, beyond what a double carries', () => {
      const stored = exactNumber('123456789012345678901234567890.12345678');
      expect(formatAmount(stored, 'EUR')).toEqual({
        text: '123,456,789,012,345,678,901,234,567,890.12345678 EUR',
        exact: '123456789012345678901234567890.12345678',
      });
      expect(formatAmount(exactNumber('0.10000001')).text).toBe('0.10000001');
      expect(formatAmount('55000.50000000', 'EUR')).toEqual({ text: '55,000.5 EUR', exact: '55000.5' });
    });

    it('writes tiny and huge doubles in plain digits, never with an exponent', () => {
      expect(formatAmount(1e-7, 'BTC').text).toBe('0.0000001 BTC');
      expect(formatAmount(1e21).text).toBe('1,000,000,000,000,000,000,000');
    });

    it('shows what is no number as it came', () => {
      expect(formatAmount('n/a')).toEqual({ text: 'n/a', exact: 'n/a' });
      expect(exactDecimal(Number.NaN)).toBeUndefined();
      expect(exactDecimal('1,5')).toBeUndefined();
    });

    it('never changes a digit: the grouped text without its commas is the exact value', () => {
      fc.assert(
        fc.property(
          fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }),
          fc.integer({ min: 0, max: 8 }),
          (units, scale) => {
            const digits = (units < 0n ? -units : units).toString().padStart(scale + 1, '0');
            const plain = scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
            const stored = `${units < 0n ? '-' : ''}${plain}`;
            const { text, exact } = formatAmount(exactNumber(stored));
            expect(text.replaceAll(',', '')).toBe(exact);
            expect(exactDecimal(exact)).toBe(exactDecimal(stored));
            expect(text).toMatch(/^-?\d{1,3}(,\d{3})*(\.\d+)?$/);
          },
        ),
      );
    });
  });

  describe('grouping', () => {
    it('groups the integer part only', () => {
      expect(groupDigits('1234567.1234567')).toBe('1,234,567.1234567');
      expect(groupDigits('123')).toBe('123');
      expect(groupDigits('1000')).toBe('1,000');
      expect(groupDigits('not digits')).toBe('not digits');
    });

    it('counts', () => {
      expect(formatCount(12345)).toBe('12,345');
      expect(formatCount(7)).toBe('7');
    });
  });

  describe('rates', () => {
    it('shows a rate as a percentage, exactly', () => {
      expect(formatRate(0.0015)).toEqual({ text: '0.15 %', exact: '0.0015' });
      expect(formatRate(0.21).text).toBe('21 %');
      expect(formatRate(exactNumber('0.12345678')).text).toBe('12.345678 %');
      expect(formatRate(0).text).toBe('0 %');
      // A float product would say 0.30000000000000004 %.
      expect(formatRate(0.003).text).toBe('0.3 %');
    });
  });

  describe('times', () => {
    it('writes an ISO time in UTC to the second', () => {
      expect(formatUtc('2030-01-31T12:00:05.123Z')).toBe('2030-01-31 12:00:05 UTC');
      expect(formatUtc('2030-01-31T12:00:05Z')).toBe('2030-01-31 12:00:05 UTC');
      expect(formatUtc('yesterday')).toBe('yesterday');
    });
  });

  describe('JSON previews', () => {
    it('cuts a long value with an ellipsis', () => {
      expect(jsonPreview({ a: 1 })).toBe('{"a":1}');
      const long = jsonPreview({ text: 'x'.repeat(200) }, 40);
      expect(long).toHaveLength(40);
      expect(long.endsWith('…')).toBe(true);
    });
  });
});
