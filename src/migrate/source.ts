/**
 * Checks source code in any language by plain text patterns, line by line. It never changes a file:
 * each finding carries the suggested replacement of its line where one can be written.
 */
import { type Finding, finding, type RuleId } from './rules.js';

interface Pattern {
  rule: RuleId;
  test: RegExp;
  /** Only on lines that also match this (e.g. "amount" for decimal formatting). */
  near?: RegExp;
  message: string;
  fix: string;
  replace?: (line: string) => string;
}

const PATTERNS: Pattern[] = [
  {
    rule: 'PO101',
    test: /\/1\/(?:auth\/token|checkout|order\/)|(?:auth|checkout)[\w.-]*["']?\s*(?:[:=]|=>)\s*["'][^"'\s]*\/1\/?["']/i,
    message: 'a v1 address (the /1 version prefix)',
    fix: 'use the v2 base address and the /v2/api prefix',
    replace: (line) =>
      line
        .replace(/\/1(?=\/(?:auth\/token|checkout|order\/))/g, '/v2/api')
        .replace(/\/1(\/?["'])/g, '/v2/api$1'),
  },
  {
    rule: 'PO102',
    test: /\buser_name\b/,
    message: 'user_name in the token request',
    fix: 'rename user_name → username',
    replace: (line) => line.replace(/\buser_name\b/g, 'username'),
  },
  {
    rule: 'PO103',
    test: /["']userName["']\s*(?::|=>|,|\])|(?:^|[{,\s])userName\s*:(?!:)/,
    message: 'userName in the order body',
    fix: 'remove userName from the order body (v2: the token identifies the user)',
  },
  {
    rule: 'PO104',
    test: /toFixed\(\s*2\s*\)|number_format\(|%\.2f|round\([^)]*,\s*2\s*\)|ToString\(\s*"(?:F2|0\.00|N2)"\s*\)|["']\d+\.\d{2}["']|BigDecimal|Decimal\(/,
    near: /amount/i,
    message: 'a decimal amount (v1 format)',
    fix: 'send whole cents as an integer string ("149.90" → "14990"), computed with integer arithmetic',
  },
  {
    rule: 'PO105',
    test: /\bcheckoutLink\b|links(?:\.checkout\b(?!_)|\[\s*["']checkout["']\s*\])|\[\s*["']links["']\s*\]\s*\[\s*["']checkout["']\s*\]/,
    message: 'the payment link read from links.checkoutLink / links.checkout',
    fix: 'read links.checkout_link',
    replace: (line) =>
      line
        .replace(/\bcheckoutLink\b/g, 'checkout_link')
        .replace(/(["'])checkout\1(\s*\])/g, '$1checkout_link$1$2')
        .replace(/links\.checkout\b(?!_)/g, 'links.checkout_link'),
  },
  {
    rule: 'PO106',
    test: /\/order\/(?:\$\{|:|\{|["'`]\s*[+.]|%s|\$|#\{|["'`]\s*,)/,
    message: 'the v1 lookup path /order/:id',
    fix: 'GET /orders/:uuid (by the uuid)',
    replace: (line) => line.replace(/\/order\//g, '/orders/'),
  },
  {
    rule: 'PO108',
    test: /\bnotification_url\b/,
    message: 'notification_url, whose v2 support the spec does not show',
    fix: 'confirm v2 notifications with the service before relying on them',
  },
  {
    rule: 'PO110',
    test: /\.(?:orderNumber|refNumber)\b|\[\s*["'](?:orderNumber|refNumber)["']\s*\]/,
    message: 'orderNumber / refNumber, which v2 orders do not have',
    fix: 'identify orders by uuid (and external_reference) instead',
  },
];

const PENDING = /["'`]PENDING["'`]|\bPENDING\b/;
const REFUNDED = /REFUNDED/;

/** Checks one file's text; `file` is the path shown in findings. */
export function checkSource(text: string, file: string): Finding[] {
  const findings: Finding[] = [];
  const lines = text.split(/\r?\n/);
  let pendingAt: { line: number; column: number } | undefined;
  lines.forEach((line, index) => {
    if (line.length > 2000) return;
    const matched = PATTERNS.flatMap((pattern) => {
      const match = pattern.test.exec(line);
      return match && (!pattern.near || pattern.near.test(line))
        ? [{ pattern, column: match.index + 1 }]
        : [];
    });
    // One suggested line per source line, with every rule's replacement applied.
    const replaced = matched.reduce((text, { pattern }) => pattern.replace?.(text) ?? text, line);
    for (const { pattern, column } of matched) {
      const found = finding(pattern.rule, { file, line: index + 1, column }, pattern.message, pattern.fix);
      if (pattern.replace && replaced !== line) found.replacement = replaced.trim();
      findings.push(found);
    }
    if (!pendingAt) {
      const match = PENDING.exec(line);
      if (match) pendingAt = { line: index + 1, column: match.index + 1 };
    }
  });
  if (pendingAt && !REFUNDED.test(text)) {
    findings.push(
      finding(
        'PO107',
        { file, ...pendingAt },
        'status handling knows PENDING but not REFUNDED',
        'handle REFUNDED, which v2 orders can reach',
      ),
    );
  }
  return findings;
}
