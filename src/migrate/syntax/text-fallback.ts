/**
 * The check for files in a language without a grammar: plain text patterns, line by line, with
 * comment lines left out. Text cannot tell a comment from code or the service's fields from a local
 * name, so this check reports a warning at most, except in a file that builds the service's own bodies
 * itself (it writes client_secret_id, callback_success or callback_fail): there a v1 shape is an
 * error, as it would be in a language with a grammar, so that such a client alone is not called ready.
 */
import { LINK_FIELDS, ORDER_FIELDS, ORDER_STATES, TOKEN_FIELDS } from '../../contract/fields.js';
import { type Finding, finding, type RuleId, type Severity } from '../rules.js';

interface Pattern {
  rule: RuleId;
  test: RegExp;
  /** Only on lines that also match this (e.g. "amount" for decimal formatting). */
  near?: RegExp;
  severity: Severity;
  message: string;
  fix: string;
  replace?: (line: string) => string;
}

const v1User = TOKEN_FIELDS.v1.user;
const { userName, notificationUrl, links, uuid, externalReference, orderNumber, refNumber } = ORDER_FIELDS;
const { checkout, sampleCheckout } = LINK_FIELDS;
const { pending, refunded } = ORDER_STATES;

const word = (name: string, flags?: string) => new RegExp(String.raw`\b${name}\b`, flags);
const everyV1User = word(v1User, 'g');
const everyV1Link = word(checkout.v1, 'g');
const everyQuotedSampleKey = new RegExp(String.raw`(["'])${sampleCheckout}\1(\s*\])`, 'g');
const everySampleLinkPath = new RegExp(String.raw`${links}\.${sampleCheckout}\b(?!_)`, 'g');
/** A hash read of the link, as Perl writes it: `$order->{links}{checkoutLink}`, `{'links'}->{'checkout'}`. */
const everyHashLink = new RegExp(
  String.raw`(\{\s*["']?${links}["']?\s*\}\s*(?:->\s*)?\{\s*["']?)(?:${checkout.v1}|${sampleCheckout})(["']?\s*\})`,
  'g',
);
const UNSURE = ' (found as text: check that it talks to the payment order service)';
const MARKED = " (found as text, in a file that builds the service's bodies)";
/** Keys of the service's bodies that no other API shares. */
const OWN_KEYS = /\bclient_secret_id\b|\bcallback_(?:success|fail)\b/;
/** The rules whose findings are errors in a file that writes those keys. */
const ERROR_RULES = new Set<RuleId>(['PO101', 'PO102', 'PO103', 'PO104', 'PO105', 'PO106']);

const PATTERNS: Pattern[] = [
  {
    rule: 'PO101',
    test: /\/1\/(?:auth\/token|checkout|order\/)|(?:auth|checkout)[\w.-]*["']?\s*(?:[:=]|=>)\s*["']?[^"'\s]*\/1\/?(?:["'\s]|$)|\b(?:api_?)?(?:prefix|version)["'}]?\s*(?:[:=]|=>)[^;\n]*?["']\/1\/?["']/i,
    severity: 'warning',
    message: 'a v1 address (the /1 version prefix)',
    fix: 'use the v2 base address and the /v2/api prefix',
    replace: (line) =>
      line
        .replace(/\/1(?=\/(?:auth\/token|checkout|order\/))/g, '/v2/api')
        .replace(/\/1(\/?["'\s]|\/?$)/g, '/v2/api$1'),
  },
  {
    rule: 'PO102',
    test: new RegExp(String.raw`["']?\b${v1User}\b["']?\s*(?::|=>|=)`),
    severity: 'warning',
    message: `${v1User} in the token request`,
    fix: `rename ${v1User} → ${TOKEN_FIELDS.v2.user}`,
    replace: (line) => line.replace(everyV1User, TOKEN_FIELDS.v2.user),
  },
  {
    rule: 'PO103',
    // A quoted key, or a bare one before Perl's fat comma (`userName => $user`).
    test: new RegExp(String.raw`["']${userName}["']\s*(?::|=>)|\b${userName}\s*=>`),
    severity: 'warning',
    message: `${userName} in the order body`,
    fix: `remove ${userName} from the order body (v2: the token identifies the user)`,
  },
  {
    rule: 'PO104',
    test: /toFixed\(\s*2\s*\)|number_format\(|%\.2f|\{[^}]*:\.2f\}/,
    near: /amount/i,
    severity: 'warning',
    message: 'a decimal amount (v1 format)',
    fix: 'send whole cents as an integer string ("149.90" → "14990"), computed with integer arithmetic',
  },
  {
    rule: 'PO105',
    test: new RegExp(
      String.raw`${links}(?:\.${checkout.v1}\b|\.${sampleCheckout}\b(?!_)|\[\s*["']${sampleCheckout}["']\s*\])|${everyHashLink.source}|\\?["']${checkout.v1}\\?["']`,
    ),
    severity: 'warning',
    message: `the payment link read from ${links}.${checkout.v1} / ${links}.${sampleCheckout}`,
    fix: `read ${links}.${checkout.v2}`,
    replace: (line) =>
      line
        .replace(everyV1Link, checkout.v2)
        .replace(everyQuotedSampleKey, `$1${checkout.v2}$1$2`)
        .replace(everySampleLinkPath, `${links}.${checkout.v2}`)
        .replace(everyHashLink, `$1${checkout.v2}$2`),
  },
  {
    rule: 'PO106',
    // Under the /1 prefix, or between two interpolations: "$self->{base}$self->{prefix}/order/$uuid".
    test: /\/1\/order\/|[}\w]\/order\/(?:\$|#\{|\{)/,
    severity: 'warning',
    message: 'the v1 lookup path /order/:id',
    fix: 'GET /orders/:uuid (by the uuid)',
    replace: (line) => line.replace(/\/order\//g, '/orders/'),
  },
  {
    rule: 'PO108',
    test: word(notificationUrl),
    severity: 'info',
    message: `${notificationUrl}, whose v2 support the spec does not show`,
    fix: 'confirm v2 notifications with the service before relying on them',
  },
  {
    rule: 'PO110',
    test: new RegExp(
      String.raw`\.(?:${orderNumber}|${refNumber})\b|\[\s*["'](?:${orderNumber}|${refNumber})["']\s*\]`,
    ),
    severity: 'info',
    message: `${orderNumber} / ${refNumber}, which v2 orders do not have`,
    fix: `identify orders by ${uuid} (and ${externalReference}) instead`,
  },
];

/** Lines that are comments in most languages: //, #, --, ;, *, <!--, REM, '. */
const COMMENT_LINE = /^\s*(?:\/\/|#(?!!)|--|;|\*|\/\*|<!--|REM\b|')/i;
const PENDING_WORD = new RegExp(`["'\`]${pending}["'\`]|\\b${pending}\\b`);
/** A status compared with PENDING (`eq 'PENDING'`, `== "PENDING"`): status handling, not a word in a text. */
const PENDING_COMPARED = new RegExp(
  String.raw`(?:\beq|\bne|[=!]=)\s*["']${pending}["']|["']${pending}["']\s*(?:\beq\b|\bne\b|[=!]=)`,
);

/** Checks one file's text; `file` is the path shown in findings. */
export function checkText(text: string, file: string): Finding[] {
  const findings: Finding[] = [];
  const lines = text.split(/\r?\n/);
  const marked = OWN_KEYS.test(text);
  let pendingAt: { line: number; column: number } | undefined;
  lines.forEach((line, index) => {
    if (line.length > 2000 || COMMENT_LINE.test(line)) return;
    const matched = PATTERNS.flatMap((pattern) => {
      const match = pattern.test.exec(line);
      return match && (!pattern.near || pattern.near.test(line))
        ? [{ pattern, column: match.index + 1 }]
        : [];
    });
    // One suggested line per source line, with every rule's replacement applied.
    const replaced = matched.reduce((text, { pattern }) => pattern.replace?.(text) ?? text, line);
    for (const { pattern, column } of matched) {
      const sure = marked && ERROR_RULES.has(pattern.rule);
      const found = finding(
        pattern.rule,
        { file, line: index + 1, column },
        pattern.message + (sure ? MARKED : UNSURE),
        pattern.fix,
        sure ? 'error' : pattern.severity,
      );
      if (pattern.replace && replaced !== line) found.replacement = replaced.trim();
      findings.push(found);
    }
    if (!pendingAt) {
      const match = PENDING_WORD.exec(line);
      if (match) pendingAt = { line: index + 1, column: match.index + 1 };
    }
  });
  if (pendingAt && !text.includes(refunded)) {
    const compared = lines.some((line) => !COMMENT_LINE.test(line) && PENDING_COMPARED.test(line));
    findings.push(
      finding(
        'PO107',
        { file, ...pendingAt },
        `status handling knows ${pending} but not ${refunded}${UNSURE}`,
        `handle ${refunded}, which v2 orders can reach`,
        compared ? 'warning' : 'info',
      ),
    );
  }
  return findings;
}
