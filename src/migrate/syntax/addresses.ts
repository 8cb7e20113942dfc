/**
 * PO101 and PO106 on addresses, wherever the code builds one: literals, concatenations, templates,
 * interpolations, defaults inside calls and expansions, and the constants they are built from. A
 * /1 prefix is reported where it is written and at each use that builds a service address with it.
 */
import type { Severity } from '../rules.js';
import type { Expr, Node } from './ast.js';
import { walk } from './ast.js';
import type { ServiceContext } from './context.js';
import { ancestors, type Facts, targetName } from './facts.js';
import type { Edit, Hit } from './hits.js';
import {
  endsAddress,
  FORMAT_CALLS,
  type Folded,
  lookupMarkers,
  SERVICE_PATH,
  serviceHost,
  serviceName,
  UNKNOWN,
  unknownNames,
  v1Markers,
} from './values.js';

const V1 = {
  message: 'a v1 address (the /1 version prefix)',
  fix: 'use the v2 base address and the /v2/api prefix',
};
const LOOKUP = { message: 'the v1 lookup path /order/:id', fix: 'GET /orders/:uuid (by the uuid)' };
const BASE_KEY = /^(?:base_?ur[il]|base_?address|baseURL|prefixUrl|api_?base|endpoint)$/i;
/** A constant that is only the version prefix: `API_PREFIX = '/1'`, `PO_API_VERSION`. */
const PREFIX_NAME = /prefix|version|api/i;
const CALLBACK_KEYS =
  /^(?:callback_?(?:success|fail)|notification_?url|success_?url|fail(?:ure)?_?url|return_?url|cancel_?url)$/i;
/** Calls that only ever register routes of the shop (`path("order/<int:pk>/")`, `mux.HandleFunc`). */
const ROUTE_ONLY =
  /^(?:path|re_path|url|HandleFunc|Handle|route|Route|Map(?:Get|Post|Put|Delete|Patch|Methods)?)$/;
const ROUTE_CALLS = /^(?:get|post|put|patch|delete|route|Route|Map\w*|HandleFunc|Handle|match|any|all)$/;

/** The expressions that build strings and have no string-building parent: each folded once. */
function addressExpressions(facts: Facts): Expr[] {
  const found: Expr[] = [];
  for (const node of walk(facts.nodes)) {
    const parent = facts.parent.get(node);
    const builds =
      node.k === 'str' ||
      (node.k === 'bin' && (node.op === 'concat' || node.op === 'alt' || node.op === 'format')) ||
      (node.k === 'call' && FORMAT_CALLS.test(node.name)) ||
      // [base, 'order', id].join('/')
      (node.k === 'call' &&
        node.name === 'join' &&
        node.callee?.k === 'member' &&
        node.callee.object.k === 'other');
    const inside =
      parent?.k === 'str' ||
      (parent?.k === 'bin' && (parent.op === 'concat' || parent.op === 'format' || parent.op === 'alt'));
    if (builds && !inside) found.push(node);
    else if ((node.k === 'id' || node.k === 'member') && !inside && usedAsValue(node, parent))
      found.push(node);
  }
  return found;
}

/** A name passed to a call or set as a value: where a constant address is used. */
function usedAsValue(node: Node, parent: Node | undefined): boolean {
  if (!parent) return false;
  if (parent.k === 'call')
    return parent.args.includes(node as Expr) || parent.named.some((e) => e.value === node);
  if (parent.k === 'map') return parent.entries.some((e) => e.value === node);
  if (parent.k === 'assign') return parent.value === node;
  return false;
}

/** The names around an expression: what it is assigned to, the key it is the value of, the call it goes to. */
function contextNames(facts: Facts, expr: Expr): string[] {
  const names: string[] = [];
  let node: Node = expr;
  for (let depth = 0; depth < 4; depth++) {
    const parent = facts.parent.get(node);
    if (!parent) break;
    if (parent.k === 'assign') {
      const name = targetName(parent.target);
      if (name) names.push(name);
      break;
    }
    if (parent.k === 'map') {
      const entry = parent.entries.find((e) => e.value === node);
      if (entry?.key) names.push(entry.key);
    } else if (parent.k === 'call') {
      const entry = parent.named.find((e) => e.value === node);
      names.push(entry ? entry.key : parent.name);
      break;
    } else if (parent.k !== 'bin' && parent.k !== 'other') break;
    node = parent;
  }
  return names;
}

/** The call an expression is a positional argument of, through wrappers. */
function callOf(facts: Facts, expr: Expr) {
  const parent = facts.parent.get(expr);
  return parent?.k === 'call' && parent.args.includes(expr) ? parent : undefined;
}

function isRoute(facts: Facts, expr: Expr): boolean {
  const call = callOf(facts, expr);
  if (!call || call.args[0] !== expr) return false;
  // A handler passed along (`app.get('/order/:id', (req, res) => …)`), or a Sinatra-style block with no receiver.
  return (
    ROUTE_CALLS.test(call.name) &&
    (call.args.some((arg) => arg.k === 'other' && arg.items.some((item) => item.k === 'func')) ||
      (call.block.length > 0 && call.callee?.k !== 'member'))
  );
}

/**
 * The version alone, kept under a name that says so and joined later: `API_VERSION = "1"`,
 * `'api_version' => '1'` in a config array another file joins (`$base . '/' . $config['api_version']`).
 * Only files that talk to the service are checked, and the name must say it is the API's version.
 */
const VERSION_NAME = /^(?:api_?version|api_?prefix|version_?prefix)$/i;

function bareVersions(facts: Facts): Hit[] {
  const hits: Hit[] = [];
  const named: Array<[string | undefined, Expr | undefined]> = [
    ...facts.assigns.map((assign): [string | undefined, Expr | undefined] => [
      targetName(assign.target),
      assign.value,
    ]),
    ...facts.maps.flatMap((map) =>
      map.entries.map((entry): [string | undefined, Expr | undefined] => [entry.key, entry.value]),
    ),
  ];
  for (const [name, value] of named) {
    if (!name || !VERSION_NAME.test(name.replace(/^\$/, '')) || value?.k !== 'str') continue;
    const [part] = value.parts;
    if (value.parts.length !== 1 || !part || !('text' in part) || part.text !== '1') continue;
    hits.push({
      ...V1,
      rule: 'PO101',
      at: part.start,
      severity: 'error',
      edit: { start: part.start, end: part.start + 1, text: 'v2/api' },
    });
  }
  return hits;
}

export function checkAddresses(facts: Facts, context: ServiceContext): Hit[] {
  const hits: Hit[] = bareVersions(facts);
  for (const expr of addressExpressions(facts)) {
    const folded = context.folder.fold(expr);
    if (!folded.text.includes('/1') && !folded.text.includes('order/')) continue;
    const names = [...contextNames(facts, expr), ...unknownNames(folded)];
    const markers = v1Markers(folded);
    for (const marker of markers) {
      const severity = v1Severity(folded, marker, names, facts, expr, context);
      if (severity) hits.push(...placed('PO101', folded, marker, 2, severity, V1, '/v2/api'));
    }
    for (const marker of lookupMarkers(folded)) {
      const severity = lookupSeverity(folded, marker, names, markers, facts, expr, context);
      if (!severity) continue;
      const slash = folded.text[marker - 1] === '/' ? marker - 1 : marker;
      const at = placed('PO106', folded, slash, 0, severity, LOOKUP);
      const order = folded.origins[marker];
      // "order" → "orders" where the path is written.
      if (order?.at !== undefined && order.via.length === 0 && at[0])
        at[0].edit = { start: order.at, end: order.at + 5, text: 'orders' };
      hits.push(...at);
    }
  }
  return hits;
}

function v1Severity(
  folded: Folded,
  marker: number,
  names: string[],
  facts: Facts,
  expr: Expr,
  context: ServiceContext,
): Severity | undefined {
  const rest = folded.text.slice(marker + 2);
  if (SERVICE_PATH.test(rest)) return 'error';
  // A path appended to a versioned base: `${base}/1${path}`.
  if (rest.startsWith(UNKNOWN) && folded.text.slice(0, marker).includes(UNKNOWN)) return 'error';
  if (!endsAddress(rest) && !rest.startsWith(UNKNOWN) && !rest.startsWith(`/${UNKNOWN}`)) return undefined;
  const call = callOf(facts, expr);
  const prefixOnly = marker === 0 && names.some((name) => PREFIX_NAME.test(name));
  const service =
    prefixOnly ||
    serviceHost(folded.text) ||
    names.some((name) => serviceName(name) || BASE_KEY.test(name)) ||
    (call !== undefined && context.callKind(call) !== undefined);
  return service ? 'error' : 'info';
}

function lookupSeverity(
  folded: Folded,
  marker: number,
  names: string[],
  v1: number[],
  facts: Facts,
  expr: Expr,
  context: ServiceContext,
): Severity | undefined {
  if (isRoute(facts, expr)) return undefined;
  // The shop's own pages given to the service (callback_success: `${shop}/order/${id}/paid`).
  if (names.some((name) => CALLBACK_KEYS.test(name))) return undefined;
  if (v1.some((m) => m < marker)) return 'error';
  const before = folded.text.slice(0, marker);
  if (before.includes('://')) return serviceHost(before) ? 'error' : undefined;
  const call = callOf(facts, expr);
  if (call && call.args[0] === expr && ROUTE_ONLY.test(call.name)) return undefined;
  const receiver = call ? context.receiverOf(call) : undefined;
  if (receiver && (context.clients.has(receiver) || serviceName(receiver))) return 'error';
  if (returnedToService(facts, context, expr)) return 'error';
  const baseNames = folded.origins.slice(0, marker).flatMap((o) => (o.name ? [o.name] : []));
  // `url(cfg.checkoutBase, `/order/${id}`)`: the base is another argument of the call.
  const otherArguments = (call?.args ?? [])
    .filter((arg) => arg !== expr)
    .flatMap((arg) => unknownNames(context.folder.fold(arg)));
  if (!before.includes(UNKNOWN)) return otherArguments.some(serviceName) ? 'error' : undefined;
  return serviceHost(before) || baseNames.some(serviceName) || otherArguments.some(serviceName)
    ? 'error'
    : 'info';
}

/**
 * A path a helper returns, when the helper's value is the address of a request to the service:
 * `def order_path(uuid) = "order/#{uuid}"` … `@checkout.get(order_path(uuid))` on a service client.
 */
function returnedToService(facts: Facts, context: ServiceContext, expr: Expr): boolean {
  const func = [...ancestors(facts, expr)].find((node) => node.k === 'func');
  if (func?.k !== 'func' || !func.name || !func.returns.includes(expr)) return false;
  return facts.calls.some((call) => {
    if (call.name !== func.name) return false;
    const request = facts.parent.get(call);
    return request?.k === 'call' && request.args[0] === call && context.callKind(request) !== undefined;
  });
}

/**
 * The edit that puts `replacement` for the marker's `length` characters, where they are written. A
 * `/1` joined from two places (`base + "/" + API_VERSION`) is edited where the version is written,
 * when nothing of that literal follows it (`"1"`, not `"1/auth"`).
 */
function editOf(folded: Folded, index: number, length: number, replacement: string): Edit | undefined {
  const origins = folded.origins.slice(index, index + length);
  const start = origins[0]?.at;
  if (start === undefined) return undefined;
  if (origins.every((origin, i) => origin.at === start + i))
    return { start, end: start + length, text: replacement };
  // The slash here, the version from a constant: the version becomes v2/api where it is defined.
  const version = origins.at(-1)?.at;
  if (length === 2 && version !== undefined && folded.origins[index + 2]?.at !== version + 1)
    return { start: version, end: version + 1, text: replacement.slice(1) };
  return undefined;
}

/**
 * The hits for one marker: where it is written (with the edit, when `replacement` is given) and at
 * each name it was reached through.
 */
function placed(
  rule: 'PO101' | 'PO106',
  folded: Folded,
  index: number,
  length: number,
  severity: Severity,
  text: { message: string; fix: string },
  replacement?: string,
): Hit[] {
  const origin = folded.origins[index];
  if (!origin) return [];
  const hits: Hit[] = [];
  const message =
    severity === 'info' ? `${text.message} (if this is the payment order service's address)` : text.message;
  if (origin.at !== undefined) {
    const edit = replacement ? editOf(folded, index, length, replacement) : undefined;
    hits.push({ rule, at: origin.at, severity, message, fix: text.fix, ...(edit ? { edit } : {}) });
  }
  // A lookup path is reported where it is written; a /1 prefix also at each use of its constant.
  for (const use of rule === 'PO101' ? origin.via : []) {
    hits.push({
      rule,
      at: use.start,
      severity,
      message: `${message}, through ${use.name}`,
      fix: `${text.fix} where ${use.name} is defined`,
    });
  }
  return hits;
}
