/**
 * migrate-check --fix: the v2 equivalents of v1 bodies, request records and HAR entries. Amounts are
 * converted exactly; an item that cannot be converted (invalid already) is left out.
 */
import { ORDER_FIELDS, TOKEN_FIELDS } from '../contract/fields.js';
import { formatCents, parseAmount, parseCents } from '../contract/money.js';
import { filled, isV1Order, kindOf, parseMaybe, REQUIRED_ORDER_TEXT, v1Path } from './bodies.js';

type Json = Record<string, unknown>;

/** The v2 token request: the user field renamed, key order kept. */
function fixToken(body: Json): Json {
  const { v1, v2 } = TOKEN_FIELDS;
  return Object.fromEntries(
    Object.entries(body).map(([key, value]) => [key === v1.user ? v2.user : key, value]),
  );
}

/** The v2 order body: no user field, the amount in exact cents; undefined when the body is not valid. */
function fixOrder(body: Json): Json | undefined {
  const amount = body[ORDER_FIELDS.amount];
  if (typeof amount !== 'string') return undefined;
  let cents: bigint;
  try {
    cents = isV1Order(body) ? parseAmount(amount) : parseCents(amount);
  } catch {
    return undefined;
  }
  if (!REQUIRED_ORDER_TEXT.every((name) => filled(body[name]))) return undefined;
  const { [ORDER_FIELDS.userName]: _, ...rest } = body;
  return { ...rest, [ORDER_FIELDS.amount]: formatCents(cents) };
}

/** Converts one item to v2; undefined when it cannot be (invalid, or not something the service takes). */
export function fixItem(value: unknown): unknown {
  switch (kindOf(value)) {
    case 'token':
      return fixToken(value as Json);
    case 'order':
      return fixOrder(value as Json);
    case 'record': {
      const record = value as Json;
      const path = v1Path(String(record.url));
      const url = path ? String(record.url).replace(path.path, path.v2) : record.url;
      const body = parseMaybe(record.body);
      const fixed = body === undefined ? undefined : fixItem(body);
      if (body !== undefined && fixed === undefined) return undefined;
      return {
        ...record,
        url,
        ...(fixed === undefined
          ? {}
          : { body: typeof record.body === 'string' ? JSON.stringify(fixed) : fixed }),
      };
    }
    default:
      return undefined;
  }
}

/** HAR entries as v2 request records. */
export function fixHar(har: Json): unknown[] {
  const entries = ((har.log as Json | undefined)?.entries ?? []) as Json[];
  return entries
    .map((entry) => {
      const request = (entry.request ?? {}) as Json;
      const text = (request.postData as Json | undefined)?.text;
      const body = parseMaybe(text);
      return fixItem({ method: request.method, url: request.url, ...(body === undefined ? {} : { body }) });
    })
    .filter((record) => record !== undefined);
}
