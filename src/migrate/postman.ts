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

const VARIABLE = /\{\{([^{}]+)\}\}/g;
const PLACEHOLDER = /^\{\{[^{}]+\}\}$/;
/** A `{{variable}}` written where a JSON value goes, unquoted: quoted, so the body parses. */
const BARE_VARIABLE = /([:[,]\s*)(\{\{[^{}"\\]+\}\})/g;

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

/** Checks a collection; `text` is the file as written, for lines and columns. */
export function checkPostman(collection: Json, text: string, file: string): Finding[] {
  const root = jsonConfigTree(text);
  const position = positionsIn(text);
  const findings: Finding[] = [];
  const variables = new Map<string, string>();
  /** The first script line that checks for the PENDING state. */
  let pendingAt: Location | undefined;

  /** Where a JSON path is: its line and column, or those of `needle` inside its source text. */
  function locate(path: Segment[], name: string | undefined, needle?: string): Location {
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
  }

  const named = (name: string | undefined, list: Finding[]) => {
    for (const found of list) {
      if (name) found.message = `${name}: ${found.message}`;
      findings.push(found);
    }
  };

  const vars = Array.isArray(collection.variable) ? collection.variable : [];
  vars.forEach((variable, index) => {
    if (!isObject(variable) || typeof variable.key !== 'string') return;
    const value = typeof variable.value === 'string' ? variable.value : undefined;
    if (value === undefined) return;
    variables.set(variable.key, value);
    for (const address of v1AddressesIn(value, variable.key))
      findings.push(
        ...addressFindings(
          address,
          locate(['variable', index, 'value'], undefined, address.text),
          `variable ${variable.key} is a v1 address`,
        ),
      );
  });
  // Only a variable with a value: an empty one is filled in at run time (by a script).
  const fill = (text: string) =>
    text.replace(VARIABLE, (whole, name: string) => variables.get(name.trim()) || whole);

  function checkEvents(owner: Json, path: Segment[], name: string | undefined): void {
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
        if (!pendingAt) {
          const match = PENDING.exec(line);
          if (match) pendingAt = locate(at, name, match[0]);
        }
        for (const read of SCRIPT_READS) {
          const match = read.test.exec(line);
          if (match && (!read.near || read.near.test(line)))
            found.push(
              finding(read.rule, locate(at, name, match[0]), `the script ${read.message}`, read.fix),
            );
        }
        for (const address of v1AddressesIn(line, ''))
          found.push(
            ...addressFindings(address, locate(at, name, address.text), 'the script calls a v1 address'),
          );
        named(name, found);
      });
    });
  }

  function checkRequest(item: Json, path: Segment[], name: string): void {
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
    const method = typeof fields.method === 'string' ? fields.method : 'GET';
    const body = isObject(fields.body) ? fields.body : undefined;
    let value: unknown;
    let bodyAt = (_pointer: string): Location => locate([...requestPath, 'body'], name);
    if (body?.mode === 'raw' && typeof body.raw === 'string') {
      value = parseMaybe(body.raw.replace(BARE_VARIABLE, '$1"$2"'));
      bodyAt = (pointer) => {
        const key = pointer.split('/').pop();
        const at = locate([...requestPath, 'body', 'raw'], name, key ? `${key}\\"` : undefined);
        return { ...at, pointer: `${at.pointer}${pointer}` };
      };
    } else if (body?.mode === 'urlencoded' && Array.isArray(body.urlencoded)) {
      const encoded: unknown[] = body.urlencoded;
      const pairs = encoded.filter((pair): pair is Json => isObject(pair) && pair.disabled !== true);
      value = Object.fromEntries(pairs.map((pair) => [String(pair.key), pair.value ?? '']));
      bodyAt = (pointer) => {
        const key = pointer.split('/')[1];
        const index = encoded.findIndex((pair) => isObject(pair) && pair.key === key);
        return locate([...requestPath, 'body', 'urlencoded', ...(index === -1 ? [] : [index])], name);
      };
    }
    if (urlText !== undefined) {
      const check: BodyCheck = {
        findings: [],
        toldReference: { value: true },
        placeholder: (candidate) => typeof candidate === 'string' && PLACEHOLDER.test(candidate),
      };
      const record = { method, url: fill(urlText), ...(value === undefined ? {} : { body: value }) };
      checkItem(
        record,
        (pointer) => (pointer.startsWith('/body') ? bodyAt(pointer.slice(5)) : locate(urlPath, name, '/1')),
        check,
        false,
      );
      named(name, check.findings);
    }
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
          const where = locate(at, name, key ? `${key}\\"` : undefined);
          return { ...where, pointer: `${where.pointer}${pointer}` };
        },
        check,
        false,
      );
      named(`${name} (saved answer ${index})`, check.findings);
    });
  }

  function walk(owner: Json, path: Segment[], names: string[]): void {
    const name = names.length > 0 ? `"${names.join(' / ')}"` : undefined;
    checkEvents(owner, path, name);
    if ('request' in owner && names.length > 0) checkRequest(owner, path, name!);
    const items = Array.isArray(owner.item) ? owner.item : [];
    items.forEach((child, index) => {
      if (!isObject(child)) return;
      walk(
        child,
        [...path, 'item', index],
        [...names, typeof child.name === 'string' ? child.name : `item ${index}`],
      );
    });
  }

  walk(collection, [], []);
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
