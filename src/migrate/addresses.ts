/**
 * Finds v1 addresses inside a configured value (spec §9): an absolute URL whose path is a v1 base
 * (`…/1`) or a v1 endpoint (`…/1/auth/token`, `…/1/checkout`, `…/1/order/:id`), wherever it sits in
 * the value (`${AUTH_URL:-https://auth.example.com/1}`), or a templated endpoint path
 * (`${base}/1/checkout`, `{{auth_url}}/1/auth/token`). A bare `…/1`, on an absolute address or on one
 * that expands a variable (`${AUTH_BASE}/1`), counts only where the key, the host or the variable names
 * an auth or checkout address: `https://example.com/1` alone is not the service's.
 * Every pattern here is matched in one left-to-right pass, so a value costs time linear in its length.
 */
import { PATHS, PREFIX } from '../contract/versions.js';
import { type Endpoint, serviceEndpoint } from './bodies.js';
import { type Finding, finding, type Location } from './rules.js';

export interface V1Address {
  /** Where it starts in the value. */
  index: number;
  /** The address as written. */
  text: string;
  kind: 'base' | 'prefix' | Endpoint['kind'];
  /** For a base: which service it names, from the key or the host. */
  service: 'auth' | 'checkout';
}

const ABSOLUTE = /\bhttps?:\/\/[^\s"'`<>{}|\\^]+/gi;
const TEMPLATED = /\/1\/(?:auth\/token|checkout|order\/)/g;
const AUTH_LIKE = /auth|checkout/i;
const EXPANDED =
  /(?:\$\{[^}\s]*\}|\$[A-Za-z_]\w*|%\([\w.-]+\)s|<%=[^%]*%>|#\{[^}\s]*\}|\{\{[^}\s]*\}\})\/1\/?(?=$|["'\s,;])/g;
const PREFIX_LIKE = /prefix|version|api|auth|checkout|payorder|base/i;

const serviceOf = (context: string): 'auth' | 'checkout' => (/auth/i.test(context) ? 'auth' : 'checkout');

/** The v1 addresses in `value`; `context` is what names it (its key path, a variable's name). */
export function v1AddressesIn(value: string, context: string): V1Address[] {
  if (!value.includes('/1')) return [];
  // The version prefix alone, configured apart from the base address (ApiPrefix: "/1").
  const bare = value.trim().replace(/^"(.*)"$/s, '$1');
  if (/^\/1\/?$/.test(bare) && PREFIX_LIKE.test(context))
    return [{ index: value.indexOf('/1'), text: '/1', kind: 'prefix', service: serviceOf(context) }];
  const found: V1Address[] = [];
  const spans: Array<[number, number]> = [];
  // A base that expands a variable, in the syntax of the format it is in: ${AUTH_BASE}/1,
  // %(checkout_base)s/1, <%= ENV['AUTH_BASE'] %>/1, #{authBase}/1, {{auth_base}}/1.
  for (const match of value.matchAll(EXPANDED)) {
    const named = `${context} ${match[0]}`;
    if (AUTH_LIKE.test(named))
      found.push({ index: match.index, text: match[0], kind: 'base', service: serviceOf(named) });
  }
  for (const match of value.matchAll(ABSOLUTE)) {
    const text = match[0].replace(/[.,;:)\]]+$/, '');
    spans.push([match.index, match.index + text.length]);
    const endpoint = serviceEndpoint(text);
    if (endpoint) {
      if (endpoint.version === 'v1')
        found.push({ index: match.index, text, kind: endpoint.kind, service: serviceOf(endpoint.kind) });
      continue;
    }
    const url = URL.parse(text);
    if (!url) continue;
    // A base for lookups: …/1/order/ with the id appended later.
    if (/\/1\/order\/*$/.test(url.pathname)) {
      found.push({ index: match.index, text, kind: 'lookup', service: 'checkout' });
      continue;
    }
    if (!/\/1\/*$/.test(url.pathname)) continue;
    const named = `${context} ${url.hostname}`;
    if (AUTH_LIKE.test(named))
      found.push({ index: match.index, text, kind: 'base', service: serviceOf(named) });
  }
  let span = 0;
  for (const match of value.matchAll(TEMPLATED)) {
    while ((spans[span]?.[1] ?? Number.POSITIVE_INFINITY) <= match.index) span++;
    if ((spans[span]?.[0] ?? Number.POSITIVE_INFINITY) <= match.index) continue;
    const kind = match[0].includes('auth') ? 'token' : match[0].includes('checkout') ? 'checkout' : 'lookup';
    found.push({ index: match.index, text: match[0].replace(/\/$/, ''), kind, service: serviceOf(kind) });
  }
  return found.sort((a, b) => a.index - b.index);
}

/** An address for a message: any user name and password in it left out. */
const shown = (text: string) => text.replace(/^(\w+:\/\/)[^/@]*@/, '$1…@');

const V2_PATH = { token: PATHS.token('v2'), checkout: PATHS.checkout('v2'), lookup: PATHS.lookup('v2') };

/** The findings for one v1 address: PO101, and PO106 as well for a lookup. */
export function addressFindings(address: V1Address, location: Location, what = 'a v1 address'): Finding[] {
  if (address.kind === 'prefix')
    return [
      finding(
        'PO101',
        location,
        `${what}: the v1 version prefix ${PREFIX.v1}`,
        `${PREFIX.v2} with the v2 base addresses`,
      ),
    ];
  if (address.kind === 'base')
    return [
      finding(
        'PO101',
        location,
        `${what}: ${shown(address.text)}`,
        `the v2 ${address.service === 'auth' ? 'auth' : 'checkout'} address with ${PREFIX.v2} ({${address.service}_url}${PREFIX.v2}); the v2 domain differs from v1`,
      ),
    ];
  const fix = `${V2_PATH[address.kind]} on the v2 base address`;
  const found = [finding('PO101', location, `${what}: ${shown(address.text)}`, fix)];
  if (address.kind === 'lookup')
    found.push(
      finding(
        'PO106',
        location,
        'the v1 lookup path /order/:id',
        `GET ${V2_PATH.lookup} with the order's uuid`,
      ),
    );
  return found;
}
