/**
 * PO104: an amount formatted with two decimals ("{:.2f}", f"{x:.2f}", "%.2f", toFixed(2),
 * number_format($x, 2), setScale(2).toPlainString(), ToString("F2"), sprintf('%d.%02d'),
 * round(2).to_s("F")) or written as a decimal, where it goes into the amount sent to the service.
 * Whole cents (amount * 100 as an integer) are v2-ready and never match.
 */
import type { Severity } from '../rules.js';
import type { Call, Expr, Node } from './ast.js';
import type { ServiceContext } from './context.js';
import { type Facts, targetName } from './facts.js';
import type { Hit } from './hits.js';

const DECIMAL = {
  message: 'a decimal amount (v1 format)',
  fix: 'send whole cents as an integer string ("149.90" → "14990"), computed with integer arithmetic',
};
const FORMAT_TEXT = /%\.2f|%d\.%02d|%0?\.2lf|\{[^{}]*:\.2f\}|\{[^{}]*:[FN]2\}|\{\d+:0\.00\}/;
const FORMAT_ARGUMENT = /^(?:[FNC]2|0\.00|#,?#*0\.00|#\.00)$/;
/** Calls a formatted amount passes through on its way into a body. */
const CONVERSIONS =
  /^(?:String|str|strval|string|format|sprintf|Sprintf|Format|formatted|printf|toString|ToString|to_s|toPlainString|valueOf|number_format|Decimal|BigDecimal|quantize|toFixed|round|Round|setScale)$/;
/** Methods that turn a decimal into whole cents: a value they are called on is converted. */
const TO_CENTS = /^(?:movePointRight|scaleByPowerOfTen)$/;
const ORDER_TYPES = /order|checkout|payment/i;
const KEY_SETTERS = /^(?:put|set|add|addProperty|append|field|with|put_if_absent)$/;
const AMOUNT = /^amount$/i;

const HUNDREDTH = /^0?\.01$/;
/** The text of a decimal written as a string, or as one passed to Decimal("0.01"). */
const decimalText = (expr: Expr | undefined): string | undefined =>
  expr?.k === 'call' ? textOf(expr.args[0]) : textOf(expr);
/** `x * 100` (or `100 * x`): a value made cents. */
const timesHundred = (expr: Expr | undefined): boolean =>
  expr?.k === 'bin'
    ? expr.op === 'other' &&
      [expr.left, expr.right].some((side) => side.k === 'num' && /^100(?:\.0*)?$/.test(side.text))
    : expr?.k === 'other' && expr.items.length === 1 && timesHundred(expr.items[0] as Expr);
const isTwo = (expr: Expr | undefined) => expr?.k === 'num' && expr.text === '2';
const textOf = (expr: Expr | undefined) =>
  expr?.k === 'str' ? expr.parts.map((p) => ('text' in p ? p.text : '')).join('') : undefined;

/** Where two-decimal formatting happens: the node that makes the text, and where to point. */
function decimalFormatting(facts: Facts): Array<{ node: Expr; at: number }> {
  const found: Array<{ node: Expr; at: number }> = [];
  for (const call of facts.calls) {
    const { name, args } = call;
    const receiver = call.callee?.k === 'member';
    const decimal =
      (name === 'toFixed' && isTwo(args[0])) ||
      (name === 'number_format' && isTwo(args[1])) ||
      (name === 'setScale' && isTwo(args[0])) ||
      // Cents made units again: BigDecimal.valueOf(cents, 2), cents.movePointLeft(2).
      (name === 'valueOf' && isTwo(args[1])) ||
      (name === 'movePointLeft' && isTwo(args[0])) ||
      // Decimal(total).quantize(Decimal("0.01")), BigDecimal("0.01"): two decimals.
      (name === 'quantize' && HUNDREDTH.test(decimalText(args[0]) ?? '')) ||
      // strconv.FormatFloat(x, 'f', 2, 64) (with -1, a float holding cents prints as whole cents).
      (name === 'FormatFloat' && args.some(isTwo)) ||
      // shopspring/decimal: total.StringFixed(2).
      (/^StringFixed(?:Bank)?$/.test(name) && isTwo(args[0])) ||
      // round(x, 2), but not round(x * 100, 2): that is cents, whatever precision it asks for.
      (/^(?:round|Round)$/.test(name) &&
        ((isTwo(args[1]) && !timesHundred(args[0])) || (receiver && args.length === 1 && isTwo(args[0])))) ||
      (/^(?:toString|ToString|format|Format)$/.test(name) &&
        args.some((arg) => FORMAT_ARGUMENT.test(textOf(arg) ?? '')));
    if (decimal) found.push({ node: call, at: call.nameStart });
  }
  for (const str of facts.strings) if (FORMAT_TEXT.test(str.raw)) found.push({ node: str, at: str.start });
  return found;
}

const RANK: Record<Severity, number> = { error: 3, warning: 2, info: 1 };
const stronger = (a: Severity | undefined, b: Severity | undefined) =>
  !a ? b : !b ? a : RANK[a] >= RANK[b] ? a : b;

export function checkAmounts(facts: Facts, context: ServiceContext): Hit[] {
  const hits: Hit[] = [];
  const formatting = decimalFormatting(facts);
  for (const { node, at } of formatting) {
    const severity = destination(facts, context, node, 0);
    if (severity) hits.push({ rule: 'PO104', at, severity, ...messageFor(severity) });
  }
  // Decimal literals as the amount: { amount: "149.90" }.
  for (const map of facts.maps) {
    for (const entry of map.entries) {
      const { value } = entry;
      if (!value || !AMOUNT.test(entry.key) || !/^\d+\.\d{1,2}$/.test(textOf(value) ?? '')) continue;
      const severity = context.bodyKind(map) === 'order' ? 'error' : 'info';
      hits.push({ rule: 'PO104', at: value.start, severity, ...messageFor(severity) });
    }
  }
  // A decimal written once and sent by its name: AMOUNT="12.50" … "{\"amount\":\"$AMOUNT\", …}".
  for (const assign of facts.assigns) {
    const name = targetName(assign.target)?.replace(/^\$/, '');
    const value = assign.value;
    if (!name || !value || !/^\d+\.\d{1,2}$/.test(textOf(value) ?? '')) continue;
    const severity = sentByName(facts, context, name);
    if (severity) hits.push({ rule: 'PO104', at: value.start, severity, ...messageFor(severity) });
  }
  return hits;
}

/** A JSON amount key written in a string, just before an interpolation: `"amount":"` + `$AMOUNT`. */
const AMOUNT_BEFORE = /\\?"amount\\?"\s*:\s*\\?"?$/;

/** How bad a variable is as the amount: the amount of an order body by its name (a map's, or JSON in a string). */
function sentByName(facts: Facts, context: ServiceContext, name: string): Severity | undefined {
  const named = (expr: Expr | undefined) => expr?.k === 'id' && expr.name.replace(/^\$/, '') === name;
  let severity: Severity | undefined;
  for (const map of facts.maps)
    for (const entry of map.entries)
      if (AMOUNT.test(entry.key) && named(entry.value))
        severity = stronger(severity, context.bodyKind(map) === 'order' ? 'error' : 'info');
  for (const str of facts.strings)
    str.parts.forEach((part, index) => {
      const next = str.parts[index + 1];
      if (
        !('text' in part) ||
        !AMOUNT_BEFORE.test(part.text) ||
        !next ||
        !('expr' in next) ||
        !named(next.expr)
      )
        return;
      const order = /callback_(?:success|fail)/.test(str.raw) || context.sentWith(str) === 'order';
      severity = stronger(severity, order ? 'error' : 'info');
    });
  return severity;
}

function messageFor(severity: Severity) {
  return severity === 'info'
    ? {
        message: `${DECIMAL.message} (if this amount is sent to the payment order service)`,
        fix: DECIMAL.fix,
      }
    : DECIMAL;
}

/**
 * How bad a formatted value is, by where it goes: the amount of an order body (error), an amount
 * whose body the file does not tie to the service (info), or nowhere that is an amount (undefined).
 */
function destination(
  facts: Facts,
  context: ServiceContext,
  start: Node,
  depth: number,
): Severity | undefined {
  if (depth > 2) return undefined;
  let node: Node = start;
  for (let steps = 0; steps < 12; steps++) {
    const parent = facts.parent.get(node);
    if (!parent) return undefined;
    switch (parent.k) {
      case 'map': {
        const entry = parent.entries.find((e) => e.value === node);
        if (!entry || !AMOUNT.test(entry.key)) return undefined;
        return context.bodyKind(parent) === 'order' ? 'error' : 'info';
      }
      case 'call': {
        const named = parent.named.find((e) => e.value === node);
        if (named) {
          if (!AMOUNT.test(named.key)) return undefined;
          return context.sentWith(parent) === 'order' || context.callKind(parent) === 'order'
            ? 'error'
            : 'info';
        }
        // body.put("amount", value), json.addProperty("amount", value): a key set on a body.
        if (KEY_SETTERS.test(parent.name) && parent.args[1] === node)
          return AMOUNT.test(textOf(parent.args[0]) ?? '')
            ? context.evidence
              ? 'error'
              : 'info'
            : undefined;
        // A method called on the value (`total.toFixed(2).replace(".", ",")`): climbing from the value,
        // the node below the call is its callee, the member that the value is the object of.
        const isReceiver = parent.callee === node;
        // …unless the method makes cents of it (`new BigDecimal(text).movePointRight(2)`): converted.
        if (isReceiver && TO_CENTS.test(parent.name)) return undefined;
        if (isReceiver || CONVERSIONS.test(parent.name)) break;
        if ((parent.construct && ORDER_TYPES.test(parent.name)) || /^(?:set|with)?amount$/i.test(parent.name))
          return context.evidence ? 'error' : 'info';
        return undefined;
      }
      case 'assign': {
        if (parent.value !== node) return undefined;
        const name = targetName(parent.target);
        if (!name || !/amount/i.test(name)) return undefined;
        // In a file that talks to the service, it is the amount (an order body it goes into is such a
        // sign, so no use of it can tell more).
        return context.evidence ? 'error' : 'info';
      }
      case 'func':
        // Its calls decide; a function named for the amount, in a file that talks to the service, is it.
        return (
          fromCalls(facts, context, parent.name, depth) ??
          (/amount|decimal/i.test(parent.name) ? (context.evidence ? 'error' : 'info') : undefined)
        );
      case 'other':
        // A JavaScript label `amount:` in front of the value.
        if (parent.items[0]?.k === 'id' && AMOUNT.test(parent.items[0].name) && parent.items[1] === node)
          return 'info';
        break;
      case 'str': {
        // Interpolated into JSON written as a string: `"amount": "${total.setScale(2).toPlainString()}"`;
        // into any other string (`${total.toFixed(2)}`), the string is where it goes.
        const index = parent.parts.findIndex((part) => 'expr' in part && part.expr === node);
        const before = parent.parts[index - 1];
        if (!before || !('text' in before) || !AMOUNT_BEFORE.test(before.text)) break;
        return /callback_(?:success|fail)/.test(parent.raw) || context.sentWith(parent) === 'order'
          ? 'error'
          : 'info';
      }
      case 'type':
        return undefined;
    }
    node = parent;
  }
  return undefined;
}

/** A function that returns a formatted amount: its calls decide. */
function fromCalls(facts: Facts, context: ServiceContext, name: string, depth: number): Severity | undefined {
  if (!name) return undefined;
  let severity: Severity | undefined;
  for (const call of facts.calls as Call[]) {
    if (call.name !== name) continue;
    severity = stronger(severity, destination(facts, context, call, depth + 1));
  }
  return severity;
}
