/**
 * Checks request bodies, request records and HAR captures for what breaks on v2, and converts
 * them to their v2 equivalents (--fix). Kinds are told apart by their fields or URL.
 */
import { GRANT_TYPE, LINK_FIELDS, ORDER_FIELDS, TOKEN_FIELDS } from '../contract/fields.js';
import { AmountError, formatCents, parseAmount, parseCents } from '../contract/money.js';
import { type ApiVersion, PATHS } from '../contract/versions.js';
import { type Finding, finding, type Location } from './rules.js';

const v1User = TOKEN_FIELDS.v1.user;
const token = TOKEN_FIELDS.v2;
const order = ORDER_FIELDS;
const link = LINK_FIELDS;

/** The text fields an order body must fill in on both versions (besides the amount). */
export const REQUIRED_ORDER_TEXT: readonly string[] = [order.description, order.successUrl, order.failUrl];

export type Kind = 'token' | 'order' | 'order-response' | 'record' | 'unknown';

type Json = Record<string, unknown>;

export const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
export const filled = (value: unknown) => typeof value === 'string' && value.trim() !== '';

export function kindOf(value: unknown): Kind {
  if (!isObject(value)) return 'unknown';
  if (typeof value.method === 'string' && typeof value.url === 'string') return 'record';
  if (
    token.grantType in value ||
    token.clientSecretId in value ||
    (token.clientId in value && (v1User in value || token.user in value))
  )
    return 'token';
  if (
    order.successUrl in value ||
    order.failUrl in value ||
    (order.amount in value && order.description in value)
  )
    return 'order';
  if (order.uuid in value && isObject(value[order.links])) return 'order-response';
  return 'unknown';
}

/** Is this order body a v1 one (the v1 user field, or a decimal point in the amount)? */
export function isV1Order(body: Json): boolean {
  const amount = body[order.amount];
  return (
    order.userName in body ||
    (typeof amount === 'string' && amount.includes('.')) ||
    typeof amount === 'number'
  );
}

export interface BodyCheck {
  findings: Finding[];
  /** Whether this file already reported v2's optional external reference (once per file is enough). */
  toldReference: { value: boolean };
  /**
   * Tells a value filled in later (a Postman `{{amount}}`) from a real one: such a value is neither
   * valid nor invalid, so only what is certain about it is reported.
   */
  placeholder?: (value: unknown) => boolean;
}

function checkToken(body: Json, at: (pointer: string) => Location, out: Finding[]): void {
  if (v1User in body)
    out.push(
      finding(
        'PO102',
        at(`/${v1User}`),
        `the token request names the user field ${v1User}`,
        `rename ${v1User} → ${token.user}`,
      ),
    );
  const user = body[v1User] ?? body[token.user];
  const missing = [
    [v1User, user],
    [token.clientId, body[token.clientId]],
    [token.clientSecretId, body[token.clientSecretId]],
    [token.grantType, body[token.grantType]],
  ]
    .filter(([, value]) => !filled(value))
    .map(([name]) => name);
  if (missing.length > 0) {
    out.push(
      finding(
        'PO201',
        at(''),
        `the token request is missing or has empty ${missing.join(', ')} (3001 on v1 too)`,
        `fill in ${missing.join(', ')}`,
      ),
    );
  } else if (body[token.grantType] !== GRANT_TYPE) {
    out.push(
      finding(
        'PO201',
        at(`/${token.grantType}`),
        `${token.grantType} "${String(body[token.grantType])}" is not supported (3002 on v1 too)`,
        `${token.grantType} "${GRANT_TYPE}"`,
      ),
    );
  }
}

function checkOrder(body: Json, at: (pointer: string) => Location, out: Finding[], check: BodyCheck): void {
  const v1 = isV1Order(body);
  if (order.userName in body)
    out.push(
      finding(
        'PO103',
        at(`/${order.userName}`),
        `the order body carries ${order.userName}`,
        `remove ${order.userName}`,
      ),
    );
  const missing: string[] = REQUIRED_ORDER_TEXT.filter((name) => !filled(body[name]));
  const amount = body[order.amount];
  const hasAmount = order.amount in body && amount !== '' && amount !== null;
  if (!hasAmount) missing.unshift(order.amount);
  if (missing.length > 0) {
    out.push(
      finding(
        'PO201',
        at(''),
        `the order body is missing ${missing.join(', ')} (1001 on v1 too)`,
        `add ${missing.join(', ')}`,
      ),
    );
  }
  if (hasAmount && check.placeholder?.(amount)) {
    if (v1)
      out.push(
        finding(
          'PO104',
          at(`/${order.amount}`),
          `the amount comes from ${String(amount)}, filled in as a v1 (decimal) amount`,
          `fill ${String(amount)} with whole cents as an integer string ("149.90" → "14990")`,
          'warning',
        ),
      );
  } else if (hasAmount) {
    if (typeof amount !== 'string') {
      out.push(
        finding(
          'PO201',
          at(`/${order.amount}`),
          `amount is a ${typeof amount}; both versions take a string`,
          `amount "${String(amount)}" as a string`,
        ),
      );
    } else {
      try {
        const cents = (v1 ? parseAmount : parseCents)(amount);
        // Whole units in a v1 body, or an amount already converted to cents: only its author knows.
        if (v1 && !amount.includes('.'))
          out.push(
            finding(
              'PO104',
              at(`/${order.amount}`),
              `amount "${amount}" in a v1 body has no decimal point: whole units on v1, or already cents?`,
              `amount "${amount}" → "${formatCents(cents)}" if it is whole units; confirm it is not already in cents`,
              'warning',
            ),
          );
        else if (v1)
          out.push(
            finding(
              'PO104',
              at(`/${order.amount}`),
              `decimal amount "${amount}"`,
              `amount "${amount}" → "${formatCents(cents)}"`,
            ),
          );
      } catch (error) {
        if (!(error instanceof AmountError)) throw error;
        const [suffix, fix] = v1
          ? [' (1003 on v1 too)', 'digits and a single point, at most 2 decimals, e.g. "149.90"']
          : ['', 'whole cents as an integer string, e.g. "14990"'];
        out.push(finding('PO201', at(`/${order.amount}`), `amount "${amount}" ${error.rule}${suffix}`, fix));
      }
    }
  }
  if (order.notificationUrl in body)
    out.push(
      finding(
        'PO108',
        at(`/${order.notificationUrl}`),
        `${order.notificationUrl}: the spec does not show whether v2 accepts it`,
        'confirm v2 notifications with the service',
      ),
    );
  if (!(order.externalReference in body) && !check.toldReference.value) {
    check.toldReference.value = true;
    out.push(
      finding(
        'PO109',
        at(''),
        `v2 accepts an optional ${order.externalReference} (your own order id)`,
        `add ${order.externalReference} if you want to find orders by your own id`,
      ),
    );
  }
}

function checkOrderResponse(body: Json, at: (pointer: string) => Location, out: Finding[]): void {
  const links = body[order.links] as Json;
  const key = [link.checkout.v1, link.sampleCheckout].find((name) => name in links);
  if (key) {
    out.push(
      finding(
        'PO105',
        at(`/${order.links}/${key}`),
        `the v1 answer carries the payment link as ${order.links}.${key}`,
        `read ${order.links}.${key} → ${order.links}.${link.checkout.v2}`,
      ),
    );
  }
  const gone = [order.orderNumber, order.currency, order.refNumber].filter((name) => name in body);
  if (gone.length > 0)
    out.push(
      finding(
        'PO110',
        at(''),
        `the v1 answer has ${gone.join(', ')}, which v2 orders do not`,
        `stop reading ${gone.join(', ')}`,
      ),
    );
}

/** The path of a URL; a templated one (`{{auth_url}}/1/auth/token`, `${base}/1/checkout`) as written. */
function pathOf(url: string): string | undefined {
  if (!/^[a-z][a-z\d+.-]*:/i.test(url)) return url.replace(/[?#].*$/s, '');
  try {
    return new URL(url).pathname;
  } catch {
    return undefined;
  }
}

/** One of the service's endpoints (spec §4): the token request, order creation, or a lookup. */
export interface Endpoint {
  version: ApiVersion;
  kind: 'token' | 'checkout' | 'lookup';
  /** The path as found. */
  path: string;
  /** What comes before the version prefix (a base address's own path, or a template). */
  before: string;
  /** The lookup's v1 id or v2 uuid. */
  id?: string;
}

const ENDPOINT = /^(.*?)\/(1|v2\/api)\/(?:(auth\/token)|(checkout)|(orders?)\/([^/]+))\/?$/;

/** The endpoint a URL calls, when it is one of the service's (by its versioned path). */
export function serviceEndpoint(url: string): Endpoint | undefined {
  const path = pathOf(url);
  const match = path === undefined ? null : ENDPOINT.exec(path);
  const before = match?.[1];
  if (!path || !match || before === undefined) return undefined;
  const version: ApiVersion = match[2] === '1' ? 'v1' : 'v2';
  if (match[3]) return { version, kind: 'token', path, before };
  if (match[4]) return { version, kind: 'checkout', path, before };
  // v1 looks an order up at /order/:id, v2 at /orders/:uuid (spec §4.3); a v2 prefix before the v1
  // path is a half-done migration, still the service's request.
  if (match[5] === 'orders' && version === 'v1') return undefined;
  return { version, kind: 'lookup', path, before, id: match[6] };
}

/** A v1 endpoint's path and its v2 equivalent (a lookup's as `/orders/:uuid`: v2 does not take the v1 id). */
export function v1Path(url: string): { path: string; v2: string; endpoint: Endpoint } | undefined {
  const endpoint = serviceEndpoint(url);
  if (endpoint?.version !== 'v1') return undefined;
  const v2 =
    endpoint.kind === 'token'
      ? PATHS.token('v2')
      : endpoint.kind === 'checkout'
        ? PATHS.checkout('v2')
        : PATHS.lookup('v2');
  return { path: endpoint.path, v2: endpoint.before + v2, endpoint };
}

export function parseMaybe(text: unknown): unknown {
  if (typeof text !== 'string') return text;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Checks one item wherever it came from; `at` builds a location for a pointer inside it. */
export function checkItem(
  value: unknown,
  at: (pointer: string) => Location,
  check: BodyCheck,
  explicit: boolean,
): Kind {
  const kind = kindOf(value);
  const out = check.findings;
  switch (kind) {
    case 'token':
      checkToken(value as Json, at, out);
      break;
    case 'order':
      checkOrder(value as Json, at, out, check);
      break;
    case 'order-response':
      checkOrderResponse(value as Json, at, out);
      break;
    case 'record': {
      const record = value as Json;
      const url = String(record.url);
      const path = v1Path(url);
      if (path)
        out.push(
          finding(
            'PO101',
            at('/url'),
            `a v1 address: ${record.method} ${path.path}`,
            `${record.method} ${path.v2} on the v2 base address`,
          ),
        );
      if (path?.endpoint.kind === 'lookup' || /\/order\/[^/]+\/?$/.test(url))
        out.push(
          finding(
            'PO106',
            at('/url'),
            'the v1 lookup path /order/:id',
            `GET ${PATHS.lookup('v2')} with the order's uuid (not its v1 id)`,
          ),
        );
      const body = parseMaybe(record.body);
      if (body !== undefined) {
        const inner = (pointer: string) => at(`/body${pointer}`);
        const bodyKind = kindOf(body);
        if (bodyKind === 'token') checkToken(body as Json, inner, out);
        if (bodyKind === 'order') checkOrder(body as Json, inner, out, check);
      }
      break;
    }
    default:
      if (explicit)
        out.push(
          finding('PO202', at(''), 'not a token request, order body or request record', 'nothing to change'),
        );
  }
  return kind;
}

/** Checks a HAR capture's entries: the service's requests like records, answers for v1-only fields. */
export function checkHar(har: Json, file: string, check: BodyCheck): void {
  const entries = ((har.log as Json | undefined)?.entries ?? []) as Json[];
  entries.forEach((entry, index) => {
    const at = (pointer: string): Location => ({
      file,
      item: `entry ${index}`,
      pointer: `/log/entries/${index}${pointer}`,
    });
    const request = (entry.request ?? {}) as Json;
    const record = {
      method: request.method,
      url: request.url,
      body: (request.postData as Json | undefined)?.text,
    };
    // Only the service's own requests: a shop's pages and analytics beacons may carry look-alike bodies.
    if (typeof record.method === 'string' && typeof record.url === 'string' && serviceEndpoint(record.url)) {
      checkItem(
        record,
        (pointer) =>
          at(
            pointer.startsWith('/body') ? `/request/postData/text${pointer.slice(5)}` : `/request${pointer}`,
          ),
        check,
        false,
      );
    }
    const answer = parseMaybe(((entry.response as Json | undefined)?.content as Json | undefined)?.text);
    if (kindOf(answer) === 'order-response')
      checkOrderResponse(answer as Json, (pointer) => at(`/response/content/text${pointer}`), check.findings);
  });
}
