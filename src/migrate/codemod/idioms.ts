/**
 * What the codemod writes in each language: its line comment, and the amount in integer cents from a
 * decimal amount, by exact arithmetic with the language's standard library only (nothing that may be
 * missing, such as PHP's bcmath). Each idiom takes the amount as text ("149.90", "149.9", "149"), so
 * it is exact for a decimal, a string or a binary float holding an amount with at most two decimals
 * (such a float prints as its shortest decimal, which is the amount). The README lists them.
 */
import type { LanguageId } from '../syntax/languages.js';

export type CodeLanguage = Exclude<LanguageId, 'hcl' | 'terraform'>;

/** The line comment of each language. */
export const LINE_COMMENT: Record<CodeLanguage, string> = {
  javascript: '//',
  typescript: '//',
  tsx: '//',
  php: '//',
  python: '#',
  ruby: '#',
  java: '//',
  kotlin: '//',
  c_sharp: '//',
  go: '//',
  bash: '#',
};

/** An expression that turns the decimal amount `value` into its integer cents as a string. */
export interface CentsIdiom {
  wrap: (value: string) => string;
  /** A line the file needs for it (an import), with what tells that one of its imports has it already. */
  needs?: { line: string; present: RegExp };
  /** The idiom, as the README shows it. */
  shown: string;
}

const JAVA = (value: string) =>
  `new java.math.BigDecimal(String.valueOf(${value})).movePointRight(2).toBigIntegerExact().toString()`;
const KOTLIN = (value: string) =>
  `java.math.BigDecimal(${value}.toString()).movePointRight(2).toBigIntegerExact().toString()`;

const JS = (value: string) =>
  `((a) => { const [w, f = ''] = String(a).split('.'); return String(BigInt(w) * 100n + BigInt(f.padEnd(2, '0'))); })(${value})`;

/** Go, for an expression known to be a string (decimal.StringFixed): math/big's exact rationals (gofmt may realign it). */
export const GO_CENTS = (value: string) =>
  `func(a string) string { r, _ := new(big.Rat).SetString(a); return r.Mul(r, big.NewRat(100, 1)).FloatString(0) }(${value})`;

export const CENTS: Record<CodeLanguage, CentsIdiom | undefined> = {
  javascript: { wrap: JS, shown: JS('amount') },
  typescript: { wrap: JS, shown: JS('amount') },
  tsx: { wrap: JS, shown: JS('amount') },
  python: {
    wrap: (value) => `str(int(Decimal(str(${value})) * 100))`,
    needs: { line: 'from decimal import Decimal', present: /^from decimal import (?:.*\b)?Decimal\b/ },
    shown: 'str(int(Decimal(str(amount)) * 100))  # from decimal import Decimal',
  },
  php: {
    wrap: (value) =>
      `(static function ($a): string { $p = explode('.', (string) $a, 2); return (string) ((int) $p[0] * 100 + (int) str_pad(substr($p[1] ?? '', 0, 2), 2, '0')); })(${value})`,
    shown:
      "(static function ($a): string { $p = explode('.', (string) $a, 2); return (string) ((int) $p[0] * 100 + (int) str_pad(substr($p[1] ?? '', 0, 2), 2, '0')); })($amount)",
  },
  ruby: {
    wrap: (value) => `Integer(Rational(${value}.to_s) * 100).to_s`,
    shown: 'Integer(Rational(amount.to_s) * 100).to_s',
  },
  java: { wrap: JAVA, shown: JAVA('amount') },
  kotlin: { wrap: KOTLIN, shown: KOTLIN('amount') },
  c_sharp: {
    wrap: (value) =>
      `((long)(System.Convert.ToDecimal(${value}, System.Globalization.CultureInfo.InvariantCulture) * 100m)).ToString(System.Globalization.CultureInfo.InvariantCulture)`,
    shown:
      '((long)(System.Convert.ToDecimal(amount, System.Globalization.CultureInfo.InvariantCulture) * 100m)).ToString(System.Globalization.CultureInfo.InvariantCulture)',
  },
  // Go needs the value's type: go-amounts.ts converts by the call that makes the amount.
  go: undefined,
  bash: {
    wrap: (value) => `$(printf '%s' ${value} | awk -F. '{ printf "%d", $1 * 100 + substr($2 "00", 1, 2) }')`,
    shown: `$(printf '%s' "$AMOUNT" | awk -F. '{ printf "%d", $1 * 100 + substr($2 "00", 1, 2) }')`,
  },
};
