import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AmountError, formatAmount, formatCents, parseAmount, parseCents } from '../../src/contract/money.js';

describe('parseAmount', () => {
  it.each([
    ['12.50', 1250n],
    ['12.5', 1250n],
    ['12', 1200n],
    ['0.01', 1n],
    ['007.10', 710n],
    ['92233720368547758.07', 9223372036854775807n],
    ['123456789012345678901234567890.99', 12345678901234567890123456789099n],
  ])('reads %s as %s cents', (text, cents) => {
    expect(parseAmount(text)).toBe(cents);
  });

  it.each([
    ['1e3', 'no exponent'],
    ['-1', 'must not be negative'],
    ['1,000.00', 'no thousands separators'],
    ['12.345', 'at most 2 decimals'],
    ['', 'is empty'],
    [' 12', 'must not contain spaces'],
    ['12 ', 'must not contain spaces'],
    ['0x10', 'no hexadecimal'],
    ['Infinity', 'written in digits'],
    ['NaN', 'written in digits'],
    ['١٢.٥٠', 'ASCII digits'],
    ['１２', 'ASCII digits'],
    ['12.', 'digits after the point'],
    ['.5', 'digits before the point'],
    ['1.2.3', 'single point'],
    ['+5', 'without a sign'],
    ['12abc', 'only digits'],
  ])('rejects %j: %s', (text, rule) => {
    let caught: unknown;
    try {
      parseAmount(text);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(AmountError);
    expect((caught as AmountError).rule).toContain(rule);
  });
});

describe('cents', () => {
  it('formats both ways exactly', () => {
    expect(formatAmount(1250n)).toBe('12.50');
    expect(formatAmount(5n)).toBe('0.05');
    expect(formatCents(1250n)).toBe('1250');
    expect(parseCents('1250')).toBe(1250n);
    expect(formatAmount(9223372036854775807n)).toBe('92233720368547758.07');
  });

  it('formatAmount refuses a negative amount instead of writing "0.-5"', () => {
    expect(() => formatAmount(-5n)).toThrow(RangeError);
    expect(() => formatAmount(-1250n)).toThrow('amounts are never negative');
  });

  it.each(['12.50', '-1', '', '1e3', ' 1'])('parseCents rejects %j', (text) => {
    expect(() => parseCents(text)).toThrow(AmountError);
  });
});

describe('properties', () => {
  const cents = fc.bigInt({ min: 0n, max: 10n ** 40n });

  it('cents → v1 decimal → cents is the identity', () => {
    fc.assert(fc.property(cents, (value) => parseAmount(formatAmount(value)) === value));
  });

  it('cents → v2 string → cents is the identity', () => {
    fc.assert(fc.property(cents, (value) => parseCents(formatCents(value)) === value));
  });

  it('v1 "12.50" and v2 "1250" always describe the same money', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 30n }),
        fc.integer({ min: 0, max: 99 }),
        (whole, fraction) => {
          const decimal = `${whole}.${String(fraction).padStart(2, '0')}`;
          return formatCents(parseAmount(decimal)) === `${whole * 100n + BigInt(fraction)}`;
        },
      ),
    );
  });

  it('accepts exactly the strings of digits with at most one point and 1–2 decimals', () => {
    const valid = /^[0-9]+(\.[0-9]{1,2})?$/;
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom('0', '1', '9', '.', ',', '-', 'e', ' ', '٣', 'x') }),
        (text) => {
          let accepted = true;
          try {
            parseAmount(text);
          } catch (error) {
            if (!(error instanceof AmountError)) throw error;
            accepted = false;
          }
          return accepted === valid.test(text);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('every rejection carries a rule a person can read', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        try {
          parseAmount(text);
          return true;
        } catch (error) {
          return (
            error instanceof AmountError &&
            error.rule.length > 5 &&
            error.message.includes(JSON.stringify(text))
          );
        }
      }),
    );
  });
});
