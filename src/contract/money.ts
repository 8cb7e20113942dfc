/**
 * Money, exactly. Amounts travel as strings and bigint cents only: the user's "19.99", the v1 wire's
 * "19.99" and the v2 wire's "1999" are converted by string and integer arithmetic, never through a
 * floating-point number, so any size survives ("92233720368547758.07" included).
 */

/** Why an amount was refused: `rule` is a short phrase a person understands ("at most 2 decimals"). */
export class AmountError extends Error {
  constructor(
    readonly input: string,
    readonly rule: string,
  ) {
    super(`amount ${JSON.stringify(input)} ${rule}`);
    this.name = 'AmountError';
  }
}

const MAJOR = /^([0-9]+)(?:\.([0-9]{1,2}))?$/;
const CENTS = /^[0-9]+$/;

/** The first rule a malformed major-unit amount breaks, in the order a person would fix them. */
function majorRule(text: string): string {
  if (text === '') return 'is empty';
  if (/\s/.test(text)) return 'must not contain spaces';
  if (text.startsWith('-')) return 'must not be negative';
  if (text.startsWith('+')) return 'must be written without a sign';
  if (/^(?:[+-]?infinity|nan)$/i.test(text)) return 'must be a number written in digits';
  if (/^0x/i.test(text)) return 'must be a decimal number (no hexadecimal)';
  if (/[eE]/.test(text) && /^[0-9.eE+-]+$/.test(text)) return 'must be written out in digits (no exponent)';
  if (text.includes(',')) return 'must use a point for decimals and no thousands separators';
  if (/[^\x00-\x7F]/.test(text) && /^[\p{Nd}.]+$/u.test(text)) return 'must use the ASCII digits 0-9';
  if (!/^[0-9.]+$/.test(text)) return 'must contain only digits and a single point';
  if ((text.match(/\./g) ?? []).length > 1) return 'must have a single point';
  if (text.startsWith('.')) return 'must have digits before the point';
  if (text.endsWith('.')) return 'must have digits after the point';
  return 'must have at most 2 decimals';
}

/** Parses a decimal in major units ("12.5", "12.50", "12") into integer cents. */
export function parseAmount(text: string): bigint {
  const match = MAJOR.exec(text);
  if (!match) throw new AmountError(text, majorRule(text));
  const [, whole = '0', fraction = ''] = match;
  return BigInt(whole) * 100n + BigInt(fraction.padEnd(2, '0'));
}

/** Parses integer cents as the v2 wire carries them ("1250"). */
export function parseCents(text: string): bigint {
  if (!CENTS.test(text)) {
    const rule = text === '' ? 'is empty' : 'must be whole cents: digits only, no point or sign';
    throw new AmountError(text, rule);
  }
  return BigInt(text);
}

/** Formats cents as a major-unit decimal with exactly 2 decimals ("1250" → "12.50"). */
export function formatAmount(cents: bigint): string {
  if (cents < 0n) throw new RangeError('amounts are never negative');
  const whole = cents / 100n;
  const fraction = (cents % 100n).toString().padStart(2, '0');
  return `${whole}.${fraction}`;
}

/** Formats cents for the v2 wire ("1250"). */
export function formatCents(cents: bigint): string {
  return cents.toString();
}
