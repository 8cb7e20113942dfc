/**
 * migrate-check --fix: the v2 equivalents of v1 bodies, request records and HAR entries. Amounts are
 * converted exactly; an item that cannot be converted (invalid already) is left out.
 */
import { formatCents, parseAmount, parseCents } from '../contract/money.js';
import { filled, isV1Order, kindOf, parseMaybe, v1Path } from './bodies.js';

type Json = Record<string, unknown>;

/** The v2 token request: user_name renamed to username, key order kept. */
function fixToken(body: Json): Json {
  return Object.fromEntries(
    Object.entries(body).map(([key, value]) => [key === 'user_name' ? 'username' : key, value]),
  );
}

/** The v2 order body: no userName, the amount in exact cents; undefined when the body is not valid. */
function fixOrder(body: Json): Json | undefined {
  if (typeof body.amount !== 'string') return undefined;
  let cents: bigint;
  try {
    cents = isV1Order(body) ? parseAmount(body.amount) : parseCents(body.amount);
  } catch {
    return undefined;
  }
  if (!['description', 'callback_success', 'callback_fail'].every((name) => filled(body[name])))
    return undefined;
  const { userName: _, ...rest } = body;
  return { ...rest, amount: formatCents(cents) };
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
