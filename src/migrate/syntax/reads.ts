/**
 * Reads of the service's answer: `order.links.checkoutLink`, `$answer['links']['checkout']`,
 * `body.dig("links", "checkout")`, `data.refNumber`. An error or warning where the object read is
 * what a service call answered (or the read names the links object); info where that cannot be told.
 */
import { LINK_FIELDS, ORDER_FIELDS } from '../../contract/fields.js';
import { type Expr, literalPart, type Node } from './ast.js';
import type { ServiceContext } from './context.js';
import { type Facts, rootName } from './facts.js';
import { type Hit, hit } from './hits.js';

const { links, orderNumber, refNumber, currency } = ORDER_FIELDS;
const { checkout, sampleCheckout } = LINK_FIELDS;

/** Languages where code reads JSON by its keys (a member read names the service's field). */
const DYNAMIC = new Set(['javascript', 'typescript', 'tsx', 'python', 'ruby', 'php', 'bash']);
/** Calls that read a JSON key: `get("links")`, `GetProperty("checkoutLink")`, `dig(…)`. */
const KEY_READS =
  /^(?:get|GetProperty|getString|getJSONObject|optString|optJSONObject|path|dig|fetch|get_value|getAsString|getAsJsonObject|Value|SelectToken)$/;

/** Reads of the service's answer: `order.links.checkoutLink`, `$answer['links']['checkout']`, `data.refNumber`. */
export function checkReads(facts: Facts, context: ServiceContext): Hit[] {
  const hits: Hit[] = [];
  const reads: Array<{
    name: string;
    start: number;
    end: number;
    object: Expr | undefined;
    parent?: string;
  }> = [];
  // Typed languages read fields through their models (checked there), but a quoted key is JSON anywhere.
  for (const member of facts.members)
    if (member.quoted || DYNAMIC.has(facts.language)) reads.push({ ...member, object: member.object });
  for (const call of facts.calls) {
    if (!KEY_READS.test(call.name)) continue;
    // `get("links")`, and `dig("links", "checkout")`: the last key, read from the one before it.
    const keys = (call.name === 'dig' ? call.args : call.args.slice(0, 1)).map((arg) => literal(arg));
    const last = keys.at(-1);
    if (!last || keys.some((key) => !key)) continue;
    const object = call.callee?.k === 'member' ? call.callee.object : undefined;
    const parent = keys.length > 1 ? keys.at(-2) : undefined;
    reads.push({ ...last, object, ...(parent ? { parent: parent.name } : {}) });
  }
  const parentName = (object: Expr | undefined) =>
    (object?.k === 'member'
      ? object.name
      : object?.k === 'call' && KEY_READS.test(object.name)
        ? literal(object.args.at(-1))?.name
        : undefined
    )?.toLowerCase();
  hits.push(...destructured(facts));
  const evidence = context.evidence;
  hits.push(...keysGiven(facts, context));
  for (const read of reads) {
    const root = rootName(read.object);
    const answered = root !== undefined && context.responses.has(root);
    const parent = read.parent?.toLowerCase() ?? parentName(read.object);
    const rename = (text: string) => ({ start: read.start, end: read.end, text });
    // A likely answer: named like one, in a file that talks to the service.
    const likely = answered || (evidence && root !== undefined && ANSWER_NAMES.test(root));
    if (read.name === checkout.v1) {
      hits.push(
        hit('PO105', read.start, parent === links || answered ? 'error' : 'info', rename(checkout.v2)),
      );
    } else if (read.name === sampleCheckout && parent === links) {
      hits.push(hit('PO105', read.start, 'error', rename(checkout.v2)));
    } else if (read.name === orderNumber || read.name === refNumber) {
      hits.push(hit('PO110', read.start, likely ? 'warning' : 'info'));
    } else if (read.name === currency && answered) {
      hits.push(hit('PO110', read.start, 'warning'));
    }
  }
  return hits;
}

/**
 * The v1 link taken out of the links object by destructuring: `const { checkoutLink } = order.links`
 * (renamed in place, the variable kept: `{ checkout_link: checkoutLink }`), `{ checkoutLink: url }`.
 */
function destructured(facts: Facts): Hit[] {
  const hits: Hit[] = [];
  for (const assign of facts.assigns) {
    const value = assign.value;
    const fromLinks =
      (value?.k === 'member' && value.name === links) ||
      (value?.k === 'call' && KEY_READS.test(value.name) && literal(value.args.at(-1))?.name === links);
    if (assign.target.k !== 'other') continue;
    const items = fromLinks ? assign.target.items : nestedLinks(assign.target.items);
    for (const item of items) {
      if (item.k !== 'other') continue;
      const [key] = item.items;
      if (key?.k === 'id' && key.name === checkout.v1)
        hits.push(hit('PO105', key.start, 'error', { start: key.start, end: key.end, text: checkout.v2 }));
      else if (
        item.items.length === 0 &&
        item.end - item.start === checkout.v1.length &&
        assign.names.includes(checkout.v1)
      )
        hits.push(
          hit('PO105', item.start, 'error', {
            start: item.start,
            end: item.end,
            text: `${checkout.v2}: ${checkout.v1}`,
          }),
        );
    }
  }
  return hits;
}

/** The entries of a `links: { … }` pattern nested in a destructuring: `const { uuid, links: { checkoutLink } } = order`. */
function nestedLinks(items: Node[]): Node[] {
  return items.flatMap((item) => {
    if (item.k !== 'other') return [];
    const [key, value] = item.items;
    if (key?.k === 'id' && key.name === links && value?.k === 'other') return value.items;
    return nestedLinks(item.items);
  });
}

/** The key of a read, or the key between quotes in a pattern: `"checkoutLink"`, `\\"refNumber\\"`. */
const GIVEN_KEY = new RegExp(
  `^(${checkout.v1}|${orderNumber}|${refNumber})$|\\\\?"(${checkout.v1}|${orderNumber}|${refNumber})\\\\?"`,
);

/**
 * A key handed to a function of the code that reads it from the answer's text: `field(order,
 * "checkoutLink")`, `jsonField(body, "refNumber")`, `re.search(r'"checkoutLink":"([^"]+)"', text)`.
 * `currency`, a word many other things have, counts only beside the answer: `field(order, "currency")`.
 * Shell scripts are checked in their strings (checks.ts).
 */
function keysGiven(facts: Facts, context: ServiceContext): Hit[] {
  if (facts.language === 'bash') return [];
  const { evidence } = context;
  const hits: Hit[] = [];
  for (const str of facts.strings) {
    const parent = facts.parent.get(str);
    if (parent?.k !== 'call' || !parent.args.includes(str)) continue;
    const part = literalPart(str);
    if (!part) continue;
    if (part.text === currency && evidence && parent.args.some((arg) => isAnswer(arg, context))) {
      hits.push(hit('PO110', part.start, 'warning'));
      continue;
    }
    const match = GIVEN_KEY.exec(part.text);
    const name = match?.[1] ?? match?.[2];
    if (!match || !name) continue;
    const start = part.start + match.index + match[0].indexOf(name);
    if (name === checkout.v1)
      hits.push(
        hit('PO105', start, evidence ? 'error' : 'info', {
          start,
          end: start + name.length,
          text: checkout.v2,
        }),
      );
    else hits.push(hit('PO110', start, evidence ? 'warning' : 'info'));
  }
  return hits;
}

/** The service's answer, or a name given to one: `order`, `created.body`. */
function isAnswer(expr: Expr, context: ServiceContext): boolean {
  if (expr.k !== 'id' && expr.k !== 'member') return false;
  const root = rootName(expr);
  return root !== undefined && (context.responses.has(root) || ANSWER_NAMES.test(root));
}

/** A string literal without interpolation: its text and where that text is. */
function literal(expr: Expr | undefined): { name: string; start: number; end: number } | undefined {
  const part = expr?.k === 'str' ? literalPart(expr) : undefined;
  return part && { name: part.text, start: part.start, end: part.start + part.text.length };
}

/** Names code gives to what the service answers. */
const ANSWER_NAMES = /order|payment|data|body|res|answer|result|json|payload/i;
