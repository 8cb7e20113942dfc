/**
 * The source rules on a lowered tree. Each returns hits at file offsets; source.ts turns them into
 * findings with lines, columns and suggested lines. A rule about the service's fields reports an
 * error only where context.ts says the code talks to the service, and info where it cannot tell.
 */
import { LINK_FIELDS, ORDER_FIELDS, ORDER_STATES, TOKEN_FIELDS } from '../../contract/fields.js';
import type { Severity } from '../rules.js';
import { checkAddresses } from './addresses.js';
import { checkAmounts } from './amounts.js';
import { type Expr, literalPart, type MapLit, type Node, type Str, walk } from './ast.js';
import { type BodyKind, keyKind, ServiceContext } from './context.js';
import { ancestors, type Facts, rootName } from './facts.js';
import { type Hit, hit } from './hits.js';
import { checkModel, schemas } from './models.js';
import { checkReads } from './reads.js';

const v1User = TOKEN_FIELDS.v1.user;
const v2User = TOKEN_FIELDS.v2.user;
const { userName, notificationUrl } = ORDER_FIELDS;
const { checkout } = LINK_FIELDS;
const { pending, refunded } = ORDER_STATES;

/** All source rules on one file. */
export function checkTree(facts: Facts): Hit[] {
  const context = new ServiceContext(facts);
  const hits: Hit[] = [];
  hits.push(...checkAddresses(facts, context));
  for (const map of facts.maps) hits.push(...checkBody(map, context));
  hits.push(...checkKeyAssignments(facts, context));
  for (const str of facts.strings) hits.push(...checkEmbeddedJson(str, context, facts));
  for (const type of [...facts.types, ...schemas(facts)]) hits.push(...checkModel(type, facts));
  hits.push(...checkReads(facts, context));
  hits.push(...checkAmounts(facts, context));
  hits.push(...checkStates(facts, context));
  return dedupe(hits);
}

const SEVERITY_RANK: Record<Severity, number> = { error: 3, warning: 2, info: 1 };

/** One hit per rule and place: the most severe. */
function dedupe(hits: Hit[]): Hit[] {
  const best = new Map<string, Hit>();
  for (const found of hits) {
    const key = `${found.rule}@${found.at}`;
    const known = best.get(key);
    if (!known || SEVERITY_RANK[found.severity] > SEVERITY_RANK[known.severity]) best.set(key, found);
  }
  return [...best.values()].sort((a, b) => a.at - b.at || a.rule.localeCompare(b.rule));
}

function keyHits(
  entries: Array<{ key: string; keyStart: number; keyEnd: number; value?: Expr }>,
  kind: BodyKind | undefined,
): Hit[] {
  const hits: Hit[] = [];
  for (const entry of entries) {
    const rename = { start: entry.keyStart, end: entry.keyEnd };
    if (entry.key === v1User)
      hits.push(
        hit('PO102', entry.keyStart, kind === 'token' ? 'error' : 'info', { ...rename, text: v2User }),
      );
    else if (entry.key === userName)
      hits.push(hit('PO103', entry.keyStart, kind === 'order' ? 'error' : 'info'));
    else if (entry.key === notificationUrl)
      hits.push(hit('PO108', entry.keyStart, kind === 'order' ? 'warning' : 'info'));
  }
  return hits;
}

function checkBody(map: MapLit, context: ServiceContext): Hit[] {
  const interesting = map.entries.some(
    (e) => e.key === v1User || e.key === userName || e.key === notificationUrl,
  );
  if (!interesting) return [];
  return keyHits(map.entries, context.bodyKind(map));
}

/** `data["notification_url"] = url`: a key set on a body after it was made. */
function checkKeyAssignments(facts: Facts, context: ServiceContext): Hit[] {
  const hits: Hit[] = [];
  for (const assign of facts.assigns) {
    const target = assign.target;
    if (target.k !== 'member' || !target.quoted) continue;
    if (target.name !== v1User && target.name !== userName && target.name !== notificationUrl) continue;
    const root = rootName(target.object);
    const made = root
      ? facts.values.get(root)?.find((value): value is MapLit => value.k === 'map')
      : undefined;
    const kind =
      (made ? context.bodyKind(made) : undefined) ?? context.sentWith(assign) ?? sentAs(facts, context, root);
    hits.push(...keyHits([{ key: target.name, keyStart: target.start, keyEnd: target.end }], kind));
  }
  return hits;
}

/** The kind of service call a variable is passed to. */
function sentAs(facts: Facts, context: ServiceContext, name: string | undefined): BodyKind | undefined {
  if (!name) return undefined;
  for (const use of facts.names) {
    if (use.name.replace(/^\$/, '') !== name) continue;
    const kind = context.sentWith(use);
    if (kind) return kind;
  }
  return undefined;
}

/** JSON written inside a string: `'{"user_name":"…"}'`, a curl -d body, a here-document. */
function checkEmbeddedJson(str: Str, context: ServiceContext, facts: Facts): Hit[] {
  const entries: Array<{ key: string; keyStart: number; keyEnd: number }> = [];
  const hits: Hit[] = [];
  for (const part of str.parts) {
    if (!('text' in part)) continue;
    for (const match of part.text.matchAll(/\\?"(\w+)\\?"\s*:/g)) {
      const [whole, key = ''] = match;
      const keyStart = part.start + match.index + whole.indexOf('"') + 1;
      entries.push({ key, keyStart, keyEnd: keyStart + key.length });
    }
    for (const match of part.text.matchAll(/\\?"amount\\?"\s*:\s*\\?"(\d+\.\d{1,2})\\?"/g)) {
      const [whole, amount = ''] = match;
      const at = part.start + match.index + whole.lastIndexOf(amount);
      const kind = context.sentWith(str);
      hits.push({
        rule: 'PO104',
        at,
        severity: kind === 'order' || /callback_/.test(part.text) ? 'error' : 'info',
        message: 'a decimal amount (v1 format)',
        fix: 'send whole cents as an integer string ("149.90" → "14990"), computed with integer arithmetic',
      });
    }
    if (facts.language === 'bash') {
      // jq filters: .links.checkoutLink, .orderNumber, {userName: $user}
      for (const match of part.text.matchAll(/\.links\.(checkoutLink|checkout)\b(?!_)/g)) {
        const start = part.start + match.index + 7;
        const [, read = ''] = match;
        hits.push(hit('PO105', start, 'error', { start, end: start + read.length, text: checkout.v2 }));
      }
      // The key read any other way: json_get checkoutLink, grep -o '"checkoutLink":"[^"]*"', sed.
      for (const match of part.text.matchAll(/(?<![\w.])checkoutLink\b/g)) {
        const start = part.start + match.index;
        hits.push(
          hit('PO105', start, 'error', { start, end: start + checkout.v1.length, text: checkout.v2 }),
        );
      }
      for (const match of part.text.matchAll(/\.(orderNumber|refNumber)\b/g))
        hits.push(hit('PO110', part.start + match.index + 1, context.evidence ? 'warning' : 'info'));
      for (const match of part.text.matchAll(/[{,]\s*(\w+)\s*:/g)) {
        const [whole, key = ''] = match;
        const keyStart = part.start + match.index + whole.indexOf(key);
        entries.push({ key, keyStart, keyEnd: keyStart + key.length });
      }
    }
  }
  if (entries.length === 0) return hits;
  const kind =
    keyKind(entries.map((e) => e.key)) ?? keyKind(statementKeys(str, facts)) ?? context.sentWith(str);
  return [...hits, ...keyHits(entries, kind)];
}

/**
 * The JSON keys written in the strings of the concatenation a string is part of (the statement it
 * builds a value in): `"{\"user_name\":\"" + user + "\",\"client_id\":\"" + id + "\"}"`.
 */
function statementKeys(str: Str, facts: Facts): string[] {
  let top: Node = str;
  for (const ancestor of ancestors(facts, str)) {
    if (ancestor.k !== 'bin' || ancestor.op !== 'concat') break;
    top = ancestor;
  }
  if (top === str) return [];
  const keys: string[] = [];
  for (const node of walk([top]))
    if (node.k === 'str')
      for (const part of node.parts)
        if ('text' in part)
          for (const [, key] of part.text.matchAll(/\\?"(\w+)\\?"\s*:/g)) if (key) keys.push(key);
  return keys;
}

/** PO107: the file handles PENDING and never REFUNDED. */
function checkStates(facts: Facts, context: ServiceContext): Hit[] {
  const textOf = (str: Str) => literalPart(str)?.text;
  const mentions = (state: string) => [
    ...facts.strings.filter((str) => textOf(str) === state).map((str) => str.start),
    ...facts.names.filter((name) => name.name === state).map((name) => name.start),
    ...facts.members.filter((member) => member.name === state).map((member) => member.start),
    ...facts.types.flatMap((type) => type.constants.filter((c) => c.name === state).map((c) => c.start)),
  ];
  if (mentions(refunded).length > 0) return [];
  const first = Math.min(...mentions(pending));
  if (!Number.isFinite(first)) return [];
  // A list of the service's states (PENDING beside PAID or FAILED) is status handling too.
  const states = mentions('PAID').length > 0 || mentions('FAILED').length > 0;
  return [hit('PO107', first, context.evidence || states ? 'warning' : 'info')];
}
