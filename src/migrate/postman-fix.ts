/**
 * migrate-check --fix for a Postman collection: its v2 equivalent, written as NAME.v2.EXT like a
 * HAR capture. The collection's variables and request URLs get the v2 paths; raw JSON and urlencoded
 * bodies the v2 fields (username, no userName, the amount in whole cents, a `{{variable}}` amount
 * quoted as v2's text); event scripts, edited on their JavaScript syntax tree, send the amount in cents
 * (`x.toFixed(2)` → `String(Math.round(x * 100))`) and read checkout_link; a lookup by a `{{variable}}` takes the uuid where a
 * script sets that variable from the answer. A lookup by a v1 id written out stays, as in a HAR.
 */
import { LINK_FIELDS, ORDER_FIELDS, TOKEN_FIELDS } from '../contract/fields.js';
import { formatCents, parseAmount } from '../contract/money.js';
import { PREFIX } from '../contract/versions.js';
import { isObject, kindOf, v1Path } from './bodies.js';
import { applyEdits, compatible, lineAround, type TextEdit } from './codemod/edits.js';
import { originOf } from './codemod/origins.js';
import { CHECKOUT_LINK } from './codemod/renames.js';
import { ParsedFile, parsesCleanly } from './codemod/tree.js';
import { type FixedText, fixToken, v2PathsNote } from './fix.js';
import { BARE_VARIABLE, fillVariables, PLACEHOLDER } from './postman.js';
import * as A from './syntax/ast.js';

type Json = Record<string, unknown>;

/** The v1 prefix as a segment of an address: `https://pay.example.com/1`, `{{base}}/1/checkout`. */
const V1_SEGMENT = /\/1(?=\/|$)/;
const DECIMAL = /^\d+(?:\.\d{1,2})?$/;
/** Numbers of a v1 order that v2 orders lack: kept for a lookup, the uuid replaces them. */
const V1_IDENTIFIERS = new Set<string>([ORDER_FIELDS.orderNumber, ORDER_FIELDS.refNumber]);

/** One event script of the collection, its lines joined, and where to put them back. */
interface Script {
  owner: Json;
  text: string;
  lines: boolean;
  edits: TextEdit[];
}

interface Converting {
  /** The collection's variables as v1 had them, to tell the requests' endpoints. */
  variables: Map<string, string>;
  scripts: Script[];
  notes: string[];
  unconverted: number;
  /** The requests whose URL now has the v2 path. */
  rewritten: number;
  file: string;
}

/** Every event script under an item or folder, parsed lines and all. */
function collectScripts(owner: Json, into: Script[]): void {
  for (const event of Array.isArray(owner.event) ? owner.event : []) {
    const script = isObject(event) && isObject(event.script) ? event.script : undefined;
    const exec = script?.exec;
    if (
      script &&
      (typeof exec === 'string' || (Array.isArray(exec) && exec.every((l) => typeof l === 'string')))
    )
      into.push({
        owner: script,
        text: typeof exec === 'string' ? exec : exec.join('\n'),
        lines: Array.isArray(exec),
        edits: [],
      });
  }
  for (const child of Array.isArray(owner.item) ? owner.item : [])
    if (isObject(child)) collectScripts(child, into);
}

/** The variables: a v1 prefix in a value becomes the v2 one. */
function convertVariables(collection: Json, converting: Converting): void {
  for (const variable of Array.isArray(collection.variable) ? collection.variable : []) {
    if (!isObject(variable) || typeof variable.key !== 'string' || typeof variable.value !== 'string')
      continue;
    converting.variables.set(variable.key, variable.value);
    if (/^https?:\/\//.test(variable.value) && V1_SEGMENT.test(variable.value)) {
      variable.value = variable.value.replace(V1_SEGMENT, PREFIX.v2);
      converting.notes.push(
        `${converting.file}: variable ${variable.key} now ends in ${PREFIX.v2}; its address keeps its v1 domain, replace it with your v2 one`,
      );
    }
  }
}

/**
 * The scripts' calls that set `name` (`pm.collectionVariables.set('order_id', json.orderNumber)`):
 * the v1 identifier they read becomes the uuid. False where no script sets it from an answer's read.
 */
async function keepUuidIn(converting: Converting, name: string): Promise<boolean> {
  let kept = false;
  for (const script of converting.scripts) {
    const parsed = await ParsedFile.parse(script.text, 'javascript');
    if (!parsed) continue;
    try {
      for (const node of parsed.nodes) {
        // pm.collectionVariables.set('order_id', json.id), pm.environment.set(…), pm.variables.set(…).
        if (node.k !== 'call' || node.name !== 'set' || node.args.length !== 2) continue;
        const [key, value] = node.args;
        if (key?.k !== 'str' || A.literalPart(key)?.text !== name || !value) continue;
        // Where the value comes from, as for a lookup in code: order.id.split('/').pop() reads the id.
        const origin = originOf(parsed, value);
        const reads =
          origin.kind === 'id'
            ? origin.reads
            : value.k === 'member' && V1_IDENTIFIERS.has(value.name)
              ? [{ start: value.start, end: value.end }]
              : [];
        if (origin.kind === 'uuid' || reads.length > 0) kept = true;
        for (const read of reads)
          script.edits.push({ ...read, text: ORDER_FIELDS.uuid, label: `${name} keeps the order uuid` });
      }
    } finally {
      parsed.delete();
    }
  }
  return kept;
}

/** The v2 URL of a request to the service's v1 endpoints, or why there is none. */
async function convertUrl(
  converting: Converting,
  raw: string,
): Promise<{ url: string } | { failed: string } | undefined> {
  const path = v1Path(fillVariables(converting.variables, raw));
  if (!path) return undefined;
  let url = raw.replace(V1_SEGMENT, PREFIX.v2);
  if (path.endpoint.kind !== 'lookup') return { url };
  const id = /\/order\/([^/?#]*)/.exec(url)?.[1] ?? '';
  const variable = PLACEHOLDER.exec(id)?.[1]?.trim();
  if (!variable || !(await keepUuidIn(converting, variable)))
    return {
      failed: `v2 looks an order up by its uuid; "${id}" is not set from an answer's uuid by a script of the collection, so the lookup is left: use the order's uuid`,
    };
  url = url.replace('/order/', '/orders/');
  return { url };
}

/** A Postman URL object's path segments, as the v2 URL has them. */
function pathSegments(url: string): string[] {
  const afterHost = url.replace(/^(?:https?:\/\/)?(?:\{\{[^{}]+\}\}|[^/]+)/, '');
  return afterHost.split(/[?#]/)[0]?.split('/').filter(Boolean) ?? [];
}

/** A token or order body as v2 takes it. */
function convertBody(value: unknown): { value: Json; notes: string[] } | undefined {
  const kind = kindOf(value);
  if (!isObject(value) || (kind !== 'token' && kind !== 'order')) return undefined;
  if (kind === 'token') return fixToken(value);
  const { [ORDER_FIELDS.userName]: _, ...rest } = value;
  const amount = rest[ORDER_FIELDS.amount];
  const notes: string[] = [];
  if (typeof amount === 'string' && DECIMAL.test(amount))
    rest[ORDER_FIELDS.amount] = formatCents(parseAmount(amount));
  else if (typeof amount === 'number' && DECIMAL.test(String(amount)))
    rest[ORDER_FIELDS.amount] = formatCents(parseAmount(String(amount)));
  else if (typeof amount === 'string' && PLACEHOLDER.test(amount))
    notes.push(`the amount ${amount} is sent as text; check that what fills it is whole cents`);
  return { value: rest, notes };
}

/** A raw JSON body: converted, written back as it was laid out, a bare `{{variable}}` kept bare unless it is the amount. */
function convertRaw(raw: string): { raw: string; notes: string[] } | undefined {
  const bare = new Set([...raw.matchAll(BARE_VARIABLE)].map((match) => match[2] ?? ''));
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.replace(BARE_VARIABLE, '$1"$2"'));
  } catch {
    return undefined;
  }
  const converted = convertBody(parsed);
  if (!converted) return undefined;
  const amount = converted.value[ORDER_FIELDS.amount];
  let text = raw.includes('\n') ? JSON.stringify(converted.value, null, 2) : JSON.stringify(converted.value);
  for (const variable of bare) if (variable !== amount) text = text.replaceAll(`"${variable}"`, variable);
  return { raw: text, notes: converted.notes };
}

/** A urlencoded body's pairs: user_name renamed, userName left out. */
function convertPairs(pairs: unknown[]): unknown[] {
  return pairs
    .filter((pair) => !(isObject(pair) && pair.key === ORDER_FIELDS.userName))
    .map((pair) =>
      isObject(pair) && pair.key === TOKEN_FIELDS.v1.user ? { ...pair, key: TOKEN_FIELDS.v2.user } : pair,
    );
}

/** One request item: its URL and body, in place. */
async function convertRequest(converting: Converting, item: Json, name: string): Promise<void> {
  const request = item.request;
  const fields: Json | undefined = isObject(request) ? request : undefined;
  const url = typeof request === 'string' ? request : fields?.url;
  const raw =
    typeof url === 'string' ? url : isObject(url) && typeof url.raw === 'string' ? url.raw : undefined;
  if (raw === undefined) return;
  const converted = await convertUrl(converting, raw);
  if (!converted) return;
  if ('failed' in converted) {
    converting.unconverted++;
    converting.notes.push(`${converting.file} "${name}": kept as it was: ${converted.failed}`);
    return;
  }
  converting.rewritten++;
  if (typeof request === 'string') item.request = converted.url;
  else if (fields && typeof url === 'string') fields.url = converted.url;
  else if (fields && isObject(url)) {
    url.raw = converted.url;
    if (Array.isArray(url.path)) url.path = pathSegments(converted.url);
  }
  const body = isObject(fields?.body) ? fields.body : undefined;
  if (body?.mode === 'raw' && typeof body.raw === 'string') {
    const fixed = convertRaw(body.raw);
    if (fixed) body.raw = fixed.raw;
    for (const note of fixed?.notes ?? []) converting.notes.push(`${converting.file} "${name}": ${note}`);
  }
  if (body?.mode === 'urlencoded' && Array.isArray(body.urlencoded))
    body.urlencoded = convertPairs(body.urlencoded);
}

async function walkItems(converting: Converting, owner: Json, names: string[]): Promise<void> {
  if ('request' in owner && names.length > 0) await convertRequest(converting, owner, names.join(' / '));
  for (const [index, child] of (Array.isArray(owner.item) ? owner.item : []).entries())
    if (isObject(child))
      await walkItems(converting, child, [
        ...names,
        typeof child.name === 'string' ? child.name : `item ${index}`,
      ]);
}

/**
 * A script's own edits on its JavaScript tree: an amount made with toFixed(2) on its line is sent
 * in cents; the payment link is read from checkout_link.
 */
async function editScript(script: Script): Promise<void> {
  const parsed = await ParsedFile.parse(script.text, 'javascript');
  if (!parsed) return;
  try {
    for (const node of parsed.nodes) {
      if (
        node.k !== 'call' ||
        node.name !== 'toFixed' ||
        node.args[0]?.k !== 'num' ||
        node.args[0].text !== '2'
      )
        continue;
      const line = lineAround(script.text, node.start);
      if (!new RegExp(ORDER_FIELDS.amount, 'i').test(script.text.slice(line.start, line.end))) continue;
      const receiver = node.callee?.k === 'member' ? node.callee.object : undefined;
      if (!receiver) continue;
      // toFixed is a number's: its cents, rounded, are exact for an amount with at most two decimals.
      const cents = `String(Math.round(${script.text.slice(receiver.start, receiver.end)} * 100))`;
      script.edits.push({ start: node.start, end: node.end, text: cents, label: 'amount in cents' });
    }
    for (const match of script.text.matchAll(new RegExp(CHECKOUT_LINK.source, 'g'))) {
      const found = parsed.tokenMatch(match.index, CHECKOUT_LINK);
      if (found?.start === match.index)
        script.edits.push({
          ...found,
          text: LINK_FIELDS.checkout.v2,
          label: `${found.match[0]} → ${LINK_FIELDS.checkout.v2}`,
        });
    }
  } finally {
    parsed.delete();
  }
}

/** The scripts with their edits applied, each only where it still parses. */
async function writeScripts(converting: Converting): Promise<void> {
  for (const script of converting.scripts) {
    if (script.edits.length === 0) continue;
    const text = applyEdits(script.text, compatible(script.edits));
    if (!(await parsesCleanly(text, 'javascript'))) {
      converting.notes.push(
        `${converting.file}: a script would not parse once edited, so it is kept as it was`,
      );
      continue;
    }
    script.owner.exec = script.lines ? text.split('\n') : text;
  }
}

/** The v2 equivalent of a Postman collection. */
export async function fixPostman(file: string, collection: Json): Promise<FixedText> {
  const copy = structuredClone(collection);
  const converting: Converting = {
    variables: new Map(),
    scripts: [],
    notes: [],
    unconverted: 0,
    rewritten: 0,
    file,
  };
  collectScripts(copy, converting.scripts);
  convertVariables(copy, converting);
  await walkItems(converting, copy, []);
  for (const script of converting.scripts) await editScript(script);
  await writeScripts(converting);
  if (converting.rewritten > 0) converting.notes.push(v2PathsNote(file, converting.rewritten));
  return {
    text: `${JSON.stringify(copy, null, 2)}\n`,
    notes: converting.notes,
    unconverted: converting.unconverted,
  };
}
