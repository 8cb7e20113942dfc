/**
 * migrate-check --fix: the v2 equivalents of v1 bodies, request records and HAR captures. Amounts are
 * converted exactly. What cannot be converted (invalid already, a lookup by v1 id) stays as it was,
 * in its place, with a note saying why: an NDJSON line keeps its line number, a HAR entry its index.
 */
import { ORDER_FIELDS, TOKEN_FIELDS } from '../contract/fields.js';
import { formatCents, parseAmount, parseCents } from '../contract/money.js';
import { PREFIX } from '../contract/versions.js';
import { filled, isObject, isV1Order, kindOf, parseMaybe, REQUIRED_ORDER_TEXT, v1Path } from './bodies.js';

type Json = Record<string, unknown>;

/** One item's conversion: the v2 value with what to double-check, or why there is none. */
export type Conversion = { value: unknown; notes: string[] } | { failed: string };

/** A file's conversion, ready to print or write. */
export interface FixedText {
  text: string;
  /** One line each: what was left as it was and why, and what to confirm. */
  notes: string[];
  /** How many items were left as they were. */
  unconverted: number;
}

const SEE_FINDINGS = 'it cannot be converted (see its findings)';

/** What a person still has to do once `rewritten` requests of `file` have the v2 path. */
export const v2PathsNote = (file: string, rewritten: number) =>
  `${file}: ${rewritten} request${rewritten === 1 ? '' : 's'} now use${rewritten === 1 ? 's' : ''} ${PREFIX.v2}; the addresses keep their v1 domains, replace them with your v2 ones`;

/** The v2 token request: the user field renamed, key order kept. */
export function fixToken(body: Json): { value: Json; notes: string[] } {
  const { v1, v2 } = TOKEN_FIELDS;
  return {
    value: Object.fromEntries(
      Object.entries(body).map(([key, value]) => [key === v1.user ? v2.user : key, value]),
    ),
    notes: [],
  };
}

/** The v2 order body: no user field, the amount in exact cents. */
function fixOrder(body: Json): Conversion {
  const amount = body[ORDER_FIELDS.amount];
  if (typeof amount !== 'string') return { failed: SEE_FINDINGS };
  const v1 = isV1Order(body);
  let cents: bigint;
  try {
    cents = v1 ? parseAmount(amount) : parseCents(amount);
  } catch {
    return { failed: SEE_FINDINGS };
  }
  if (!REQUIRED_ORDER_TEXT.every((name) => filled(body[name]))) return { failed: SEE_FINDINGS };
  const { [ORDER_FIELDS.userName]: _, ...rest } = body;
  const v2Amount = formatCents(cents);
  // "4500" in a v1 body means 4500.00, but it may be a value someone already converted to cents.
  const notes =
    v1 && !amount.includes('.')
      ? [`amount "${amount}" → "${v2Amount}": confirm "${amount}" is whole units (v1), not already cents`]
      : [];
  return { value: { ...rest, [ORDER_FIELDS.amount]: v2Amount }, notes };
}

function fixRecord(record: Json): Conversion {
  const url = String(record.url);
  const path = v1Path(url);
  if (path?.endpoint.kind === 'lookup')
    return {
      failed: `v2 looks an order up by its uuid (${record.method} ${path.v2}); "${path.endpoint.id}" is a v1 id, so there is no v2 request to write: use the order's uuid`,
    };
  const body = parseMaybe(record.body);
  const conversion = body === undefined ? undefined : convertItem(body);
  if (conversion && 'failed' in conversion) return conversion;
  const fixed = conversion;
  return {
    value: {
      ...record,
      url: path ? url.replace(path.path, path.v2) : url,
      ...(fixed === undefined
        ? {}
        : { body: typeof record.body === 'string' ? JSON.stringify(fixed.value) : fixed.value }),
    },
    notes: fixed?.notes ?? [],
  };
}

/** Converts one item to v2. */
export function convertItem(value: unknown): Conversion {
  switch (kindOf(value)) {
    case 'token':
      return fixToken(value as Json);
    case 'order':
      return fixOrder(value as Json);
    case 'record':
      return fixRecord(value as Json);
    default:
      return { failed: 'it is not a token request, order body or request record' };
  }
}

/** The v2 equivalent of one item; undefined when it cannot be converted. */
export function fixItem(value: unknown): unknown {
  const conversion = convertItem(value);
  return 'failed' in conversion ? undefined : conversion.value;
}

/** A line of NDJSON, or an item of an array: its text or value and where it is. */
export interface FixInput {
  /** "line 3", "item 2". */
  label: string;
  value: unknown;
  /** The line as it was, for NDJSON (kept when it cannot be converted). */
  text?: string;
  /** False for a line that is not JSON. */
  parsed: boolean;
}

function convertEach(file: string, inputs: FixInput[]) {
  const notes: string[] = [];
  let unconverted = 0;
  const outputs = inputs.map((input) => {
    if (input.text?.trim() === '') return { kept: true as const, input };
    const conversion: Conversion = input.parsed
      ? convertItem(input.value)
      : { failed: 'it is not valid JSON (see its finding)' };
    if ('failed' in conversion) {
      unconverted++;
      notes.push(`${file} ${input.label}: kept as it was: ${conversion.failed}`);
      return { kept: true as const, input };
    }
    for (const note of conversion.notes) notes.push(`${file} ${input.label}: ${note}`);
    return { kept: false as const, value: conversion.value };
  });
  return { outputs, notes, unconverted };
}

/** NDJSON: one output line for every input line, in the same place. */
export function fixNdjson(file: string, lines: FixInput[]): FixedText {
  const { outputs, notes, unconverted } = convertEach(file, lines);
  const text = outputs
    .map((output) => (output.kept ? (output.input.text ?? '') : JSON.stringify(output.value)))
    .join('\n');
  return { text: text.endsWith('\n') ? text : `${text}\n`, notes, unconverted };
}

/** A JSON array (or a single body, `single`): every item in its place. */
export function fixJson(file: string, items: FixInput[], single: boolean): FixedText {
  const { outputs, notes, unconverted } = convertEach(file, items);
  const values = outputs.map((output) => (output.kept ? output.input.value : output.value));
  return { text: `${JSON.stringify(single ? values[0] : values, null, 2)}\n`, notes, unconverted };
}

function withLength(headers: unknown, text: string): unknown {
  if (!Array.isArray(headers)) return headers;
  return headers.map((header) =>
    isObject(header) && String(header.name).toLowerCase() === 'content-length'
      ? { ...header, value: String(Buffer.byteLength(text)) }
      : header,
  );
}

/**
 * A HAR capture with the service's own v1 requests (token, order creation) rewritten for v2: path,
 * body and its length. Every other entry (the shop's pages, analytics, v2 requests) is left as it
 * was, as are the recorded answers; a v1 lookup too, since v2 wants the order's uuid.
 */
export function fixHar(file: string, har: Json): FixedText {
  const log = isObject(har.log) ? har.log : {};
  const entries = Array.isArray(log.entries) ? (log.entries as unknown[]) : [];
  const notes: string[] = [];
  let unconverted = 0;
  let rewritten = 0;
  const fixedEntries = entries.map((entry, index) => {
    if (!isObject(entry) || !isObject(entry.request)) return entry;
    const request = entry.request;
    const url = typeof request.url === 'string' ? request.url : '';
    const path = v1Path(url);
    if (!path) return entry;
    const postData = isObject(request.postData) ? request.postData : undefined;
    const conversion = fixRecord({ method: request.method, url, body: postData?.text });
    if ('failed' in conversion) {
      unconverted++;
      notes.push(`${file} entry ${index}: kept as it was: ${conversion.failed}`);
      return entry;
    }
    rewritten++;
    for (const note of conversion.notes) notes.push(`${file} entry ${index}: ${note}`);
    const record = conversion.value as Json;
    const text = typeof record.body === 'string' ? record.body : undefined;
    return {
      ...entry,
      request: {
        ...request,
        url: record.url,
        ...(postData && text !== undefined
          ? {
              postData: { ...postData, text },
              headers: withLength(request.headers, text),
              ...(typeof request.bodySize === 'number' ? { bodySize: Buffer.byteLength(text) } : {}),
            }
          : {}),
      },
    };
  });
  if (rewritten > 0) notes.push(v2PathsNote(file, rewritten));
  return {
    text: `${JSON.stringify({ ...har, log: { ...log, entries: fixedEntries } }, null, 2)}\n`,
    notes,
    unconverted,
  };
}
