/**
 * Checks Postman collections (format v2.0 and v2.1): the requests to the service's v1 endpoints
 * (PO101, PO106), their raw JSON and urlencoded bodies with the body rules, saved example answers,
 * the collection's variables, and the event scripts (pre-request and test) that read the v1 payment
 * link or v1-only fields (PO105, PO110). `{{variables}}` in a URL are filled in from the collection's
 * own; one left open in a body is a value to fill in, neither valid nor invalid. Each finding is at
 * the request's name, a JSON pointer into the collection and the line and column in the file.
 */
import { LINK_FIELDS, ORDER_FIELDS, ORDER_STATES } from '../contract/fields.js';
import { addressFindings, v1AddressesIn } from './addresses.js';
import { type BodyCheck, checkItem, isObject, parseMaybe } from './bodies.js';
import { jsonConfigTree, jsonNodeAt } from './config-files.js';
import { positionsIn } from './positions.js';
import { type Finding, finding, type Location } from './rules.js';

type Json = Record<string, unknown>;
type Segment = string | number;

const { links, orderNumber, refNumber } = ORDER_FIELDS;
const { checkout, sampleCheckout } = LINK_FIELDS;

/** Whether a parsed JSON file is a Postman collection. */
export function isPostmanCollection(value: unknown): value is Json {
  if (!isObject(value) || !isObject(value.info) || !Array.isArray(value.item)) return false;
  const { schema } = value.info;
  return (
    (typeof schema === 'string' && /getpostman\.com\/json\/collection\/v2/.test(schema)) ||
    '_postman_id' in value.info
  );
}

/** A `{{variable}}` anywhere in a text, its name captured. */
const VARIABLE = /\{\{([^{}]+)\}\}/g;
/** A value that is one `{{variable}}` and nothing else, its name captured. */
export const PLACEHOLDER = /^\{\{([^{}]+)\}\}$/;
/** A `{{variable}}` written where a JSON value goes, unquoted: quoted, so the body parses. */
export const BARE_VARIABLE = /([:[,]\s*)(\{\{[^{}"\\]+\}\})/g;

const { pending, refunded } = ORDER_STATES;
const PENDING = new RegExp(`["'\`]${pending}["'\`]`);

const SCRIPT_READS: Array<{
  rule: 'PO104' | 'PO105' | 'PO110';
  test: RegExp;
  /** Only on lines that also match this. */
  near?: RegExp;
  message: string;
  fix: string;
}> = [
  {
    rule: 'PO104',
    test: /toFixed\(\s*2\s*\)/,
    near: new RegExp(ORDER_FIELDS.amount, 'i'),
    message: 'formats the amount with two decimals, as v1 takes it',
    fix: 'whole cents as an integer string ("149.90" → "14990"), computed with integer arithmetic',
  },
  {
    rule: 'PO105',
    test: new RegExp(
      String.raw`\b${checkout.v1}\b|\b${links}(?:\.${sampleCheckout}\b|\[\s*["']${sampleCheckout}["']\s*\])`,
    ),
    message: `reads the payment link from ${links}.${checkout.v1} / ${links}.${sampleCheckout}`,
    fix: `read ${links}.${checkout.v2}`,
  },
  {
    rule: 'PO110',
    test: new RegExp(
      String.raw`\.(?:${orderNumber}|${refNumber})\b|\[\s*["'](?:${orderNumber}|${refNumber})["']\s*\]`,
    ),
    message: `reads ${orderNumber} / ${refNumber}, which v2 orders do not have`,
    fix: `identify orders by ${ORDER_FIELDS.uuid} (and ${ORDER_FIELDS.externalReference}) instead`,
  },
];

const pointerOf = (path: Segment[]) =>
  path.map((segment) => `/${String(segment).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');

/** What checking one collection keeps as it walks: where things are in the file, and what it found. */
interface Checking {
  /** Where a JSON path is: its line and column, or those of `needle` inside its source text. */
  locate(path: Segment[], name: string | undefined, needle?: string): Location;
  findings: Finding[];
  /** The collection's variables that have a value. */
  variables: Map<string, string>;
  /** The first script line that checks for the PENDING state. */
  pendingAt?: Location;
}

function locator(text: string, file: string): Checking['locate'] {
  const root = jsonConfigTree(text);
  const position = positionsIn(text);
  return (path, name, needle) => {
    const node = root && jsonNodeAt(root, path);
    let offset: number | undefined;
    if (node) {
      const { start, end } = node.loc;
      const found = needle === undefined ? -1 : text.slice(start.offset, end.offset).indexOf(needle);
      offset = start.offset + (found === -1 ? 0 : found);
    }
    return {
      file,
      ...(name ? { item: name } : {}),
      pointer: pointerOf(path),
      ...(offset === undefined ? {} : position(offset)),
    };
  };
}

/** Adds findings, each message led by the request's name when there is one. */
function addNamed(checking: Checking, name: string | undefined, list: Finding[]): void {
  for (const found of list) {
    if (name) found.message = `${name}: ${found.message}`;
    checking.findings.push(found);
  }
}

/** The collection's variables: kept to fill in URLs, and checked for v1 addresses. */
function checkVariables(collection: Json, checking: Checking): void {
  const vars = Array.isArray(collection.variable) ? collection.variable : [];
  vars.forEach((variable, index) => {
    if (!isObject(variable) || typeof variable.key !== 'string') return;
    const value = typeof variable.value === 'string' ? variable.value : undefined;
    if (value === undefined) return;
    checking.variables.set(variable.key, value);
    for (const address of v1AddressesIn(value, variable.key))
      checking.findings.push(
        ...addressFindings(
          address,
          checking.locate(['variable', index, 'value'], undefined, address.text),
          `variable ${variable.key} is a v1 address`,
        ),
      );
  });
}

/** `{{variables}}` filled in; only a variable with a value: an empty one is filled in at run time (by a script). */
export const fillVariables = (variables: Map<string, string>, text: string) =>
  text.replace(VARIABLE, (whole, name: string) => variables.get(name.trim()) || whole);

/** The event scripts of an item or folder: what they read of v1, the addresses they call, a PENDING check. */
function checkEvents(checking: Checking, owner: Json, path: Segment[], name: string | undefined): void {
  const events = Array.isArray(owner.event) ? owner.event : [];
  events.forEach((event, eventIndex) => {
    const script = isObject(event) && isObject(event.script) ? event.script : undefined;
    const exec = script?.exec;
    const lines = typeof exec === 'string' ? [exec] : Array.isArray(exec) ? exec : [];
    lines.forEach((line, lineIndex) => {
      if (typeof line !== 'string') return;
      const at = [
        ...path,
        'event',
        eventIndex,
        'script',
        'exec',
        ...(typeof exec === 'string' ? [] : [lineIndex]),
      ];
      const found: Finding[] = [];
      if (!checking.pendingAt) {
        const match = PENDING.exec(line);
        if (match) checking.pendingAt = checking.locate(at, name, match[0]);
      }
      for (const read of SCRIPT_READS) {
        const match = read.test.exec(line);
        if (match && (!read.near || read.near.test(line)))
          found.push(
            finding(read.rule, checking.locate(at, name, match[0]), `the script ${read.message}`, read.fix),
          );
      }
      for (const address of v1AddressesIn(line, ''))
        found.push(
          ...addressFindings(
            address,
            checking.locate(at, name, address.text),
            'the script calls a v1 address',
          ),
        );
      addNamed(checking, name, found);
    });
  });
}

/** A request's body as a value (raw JSON or urlencoded pairs), and where a pointer into it is in the file. */
function requestBody(
  checking: Checking,
  fields: Json,
  requestPath: Segment[],
  name: string,
): { value: unknown; bodyAt: (pointer: string) => Location } {
  const body = isObject(fields.body) ? fields.body : undefined;
  if (body?.mode === 'raw' && typeof body.raw === 'string') {
    return {
      value: parseMaybe(body.raw.replace(BARE_VARIABLE, '$1"$2"')),
      bodyAt: (pointer) => {
        const key = pointer.split('/').pop();
        const at = checking.locate([...requestPath, 'body', 'raw'], name, key ? `${key}\\"` : undefined);
        return { ...at, pointer: `${at.pointer}${pointer}` };
      },
    };
  }
  if (body?.mode === 'urlencoded' && Array.isArray(body.urlencoded)) {
    const encoded: unknown[] = body.urlencoded;
    const pairs = encoded.filter((pair): pair is Json => isObject(pair) && pair.disabled !== true);
    return {
      value: Object.fromEntries(pairs.map((pair) => [String(pair.key), pair.value ?? ''])),
      bodyAt: (pointer) => {
        const key = pointer.split('/')[1];
        const index = encoded.findIndex((pair) => isObject(pair) && pair.key === key);
        return checking.locate(
          [...requestPath, 'body', 'urlencoded', ...(index === -1 ? [] : [index])],
          name,
        );
      },
    };
  }
  return { value: undefined, bodyAt: () => checking.locate([...requestPath, 'body'], name) };
}

/** A request item: its method, URL (variables filled in) and body by the body rules. */
function checkRequest(checking: Checking, item: Json, path: Segment[], name: string): void {
  const request = item.request;
  const requestPath = [...path, 'request'];
  const fields: Json = typeof request === 'string' ? { url: request } : isObject(request) ? request : {};
  const url = fields.url;
  const [urlText, urlPath] =
    typeof url === 'string'
      ? [url, typeof request === 'string' ? requestPath : [...requestPath, 'url']]
      : isObject(url) && typeof url.raw === 'string'
        ? [url.raw, [...requestPath, 'url', 'raw']]
        : [undefined, requestPath];
  if (urlText === undefined) return;
  const method = typeof fields.method === 'string' ? fields.method : 'GET';
  const { value, bodyAt } = requestBody(checking, fields, requestPath, name);
  const check: BodyCheck = {
    findings: [],
    toldReference: { value: true },
    placeholder: (candidate) => typeof candidate === 'string' && PLACEHOLDER.test(candidate),
  };
  const record = {
    method,
    url: fillVariables(checking.variables, urlText),
    ...(value === undefined ? {} : { body: value }),
  };
  checkItem(
    record,
    (pointer) =>
      pointer.startsWith('/body') ? bodyAt(pointer.slice(5)) : checking.locate(urlPath, name, '/1'),
    check,
    false,
  );
  addNamed(checking, name, check.findings);
}

/** The answers saved with a request, by the answer rules. */
function checkSavedAnswers(checking: Checking, item: Json, path: Segment[], name: string): void {
  const responses = Array.isArray(item.response) ? item.response : [];
  responses.forEach((response, index) => {
    if (!isObject(response)) return;
    const answer = parseMaybe(response.body);
    if (answer === undefined) return;
    const check: BodyCheck = { findings: [], toldReference: { value: true } };
    const at = [...path, 'response', index, 'body'];
    checkItem(
      answer,
      (pointer) => {
        const key = pointer.split('/').pop();
        const where = checking.locate(at, name, key ? `${key}\\"` : undefined);
        return { ...where, pointer: `${where.pointer}${pointer}` };
      },
      check,
      false,
    );
    addNamed(checking, `${name} (saved answer ${index})`, check.findings);
  });
}

/** An item or folder and everything under it, each named by its path of names. */
function walk(checking: Checking, owner: Json, path: Segment[], names: string[]): void {
  const name = names.length > 0 ? `"${names.join(' / ')}"` : undefined;
  checkEvents(checking, owner, path, name);
  if ('request' in owner && name !== undefined) {
    checkRequest(checking, owner, path, name);
    checkSavedAnswers(checking, owner, path, name);
  }
  const items = Array.isArray(owner.item) ? owner.item : [];
  items.forEach((child, index) => {
    if (!isObject(child)) return;
    walk(
      checking,
      child,
      [...path, 'item', index],
      [...names, typeof child.name === 'string' ? child.name : `item ${index}`],
    );
  });
}

/** Checks a collection; `text` is the file as written, for lines and columns. */
export function checkPostman(collection: Json, text: string, file: string): Finding[] {
  const checking: Checking = { locate: locator(text, file), findings: [], variables: new Map() };
  checkVariables(collection, checking);
  walk(checking, collection, [], []);
  const { pendingAt, findings } = checking;
  if (pendingAt && !text.includes(refunded))
    findings.push(
      finding(
        'PO107',
        pendingAt,
        `${pendingAt.item ? `${pendingAt.item}: ` : ''}the scripts check for ${pending} but never for ${refunded}`,
        `handle ${refunded}, which v2 orders can reach`,
      ),
    );
  return findings;
}
