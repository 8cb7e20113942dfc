/**
 * The service's own routes, both versions (spec §4): token, checkout, lookup, and the payment page
 * the payment links point at. Answers use the catalog's exact status, code and text (spec §7).
 */
import { timingSafeEqual } from 'node:crypto';
import { type CatalogId, catalogEntry, errorBody, findCatalogEntry } from '../contract/catalog.js';
import { GRANT_TYPE, ORDER_STATES } from '../contract/fields.js';
import { orderResponseBody, readOrderRequest } from '../contract/schemas.js';
import { readTokenRequest, tokenResponseBody } from '../contract/token.js';
import { API_VERSIONS, type ApiVersion, daysUntilSunset, PATHS, V1_GONE } from '../contract/versions.js';
import type { SandboxCore } from './core.js';
import type { Forced } from './faults.js';
import { ORDER_NOT_FOUND, ORDERS_FULL } from './orders.js';
import { notFoundPage, paymentPage } from './payment-page.js';
import { type Answer, html, NO_ANSWER, pathParam, type Request, type Router, redirect } from './router.js';
import { changeStatus } from './status-change.js';
import type { TokenClaims } from './tokens.js';

type Route = 'token' | 'checkout' | 'lookup';

interface Outcome {
  status: number;
  body: unknown;
  /** Set when the request was carried out, so a fault may still spoil its answer afterwards. */
  done?: boolean;
}

interface Exchange {
  request: Request;
  /** The body parsed as JSON; `malformed` when it is not JSON. */
  body: unknown;
  malformed: boolean;
}

const fail = (id: CatalogId): Outcome => {
  const entry = catalogEntry(id);
  return { status: entry.status, body: errorBody(entry) };
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A value, or a promise of one where the work had to wait (a token's first check, a delay). */
type MaybeAsync<T> = T | Promise<T>;

/**
 * `next` applied to `value`: at once when the value is at hand, so that a request served from memory
 * (the usual one: a token already checked, an order created or found) makes no trip through the
 * promise queue.
 */
const after = <T, U>(value: MaybeAsync<T>, next: (settled: T) => MaybeAsync<U>): MaybeAsync<U> =>
  value instanceof Promise ? value.then(next) : next(value);

function readJson(raw: string | undefined): { body: unknown; malformed: boolean } {
  if (raw === undefined || raw.trim() === '') return { body: undefined, malformed: false };
  try {
    return { body: JSON.parse(raw), malformed: false };
  } catch {
    return { body: undefined, malformed: true };
  }
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function authenticate(core: SandboxCore, request: Request): MaybeAsync<TokenClaims | Outcome> {
  const header = request.headers.authorization;
  const token = header ? /^Bearer\s+(\S+)$/i.exec(header)?.[1] : undefined;
  if (!token) return fail('unauthorized');
  return after(core.tokens.verify(token), (verdict) =>
    verdict.ok ? verdict.claims : fail(verdict.reason === 'expired' ? 'expired' : 'unauthorized'),
  );
}

const isOutcome = (value: TokenClaims | Outcome): value is Outcome => 'status' in value;

async function issueToken(
  core: SandboxCore,
  version: ApiVersion,
  { body, malformed }: Exchange,
): Promise<Outcome> {
  const input = malformed ? undefined : readTokenRequest(version, body);
  if (!input) return fail('3001');
  if (input.grantType !== GRANT_TYPE) return fail('3002');
  const account = core.accounts.find((a) => a.username === input.username);
  if (!account) return fail('3003');
  if (account.clientId !== input.clientId) return fail('3005');
  if (!sameSecret(input.clientSecretId, account.clientSecretId)) return fail('3006');
  const accessToken = await core.tokens.issue(account.username, account.clientId, core.tokenTtlSeconds);
  const token = { accessToken, expiresIn: core.tokenTtlSeconds, tokenType: 'Bearer' };
  return { status: 200, body: tokenResponseBody(token), done: true };
}

function createOrder(core: SandboxCore, version: ApiVersion, exchange: Exchange): MaybeAsync<Outcome> {
  return after(authenticate(core, exchange.request), (claims) =>
    isOutcome(claims) ? claims : createFor(claims, core, version, exchange),
  );
}

function createFor(claims: TokenClaims, core: SandboxCore, version: ApiVersion, exchange: Exchange): Outcome {
  const read = exchange.malformed
    ? { problem: 'missing' as const }
    : readOrderRequest(version, exchange.body);
  if ('problem' in read) return fail(read.problem === 'amount' ? '1003' : '1001');
  if (version === 'v1') {
    if (!core.accounts.some((a) => a.username === read.userName)) return fail('1004');
    if (read.userName !== claims.sub) return fail('1002');
  }
  if (!core.orders.roomFor(read.draft)) return ORDERS_FULL;
  const order = core.orders.create(version, claims.sub, read.draft, core.publicUrl, core.now());
  return { status: 200, body: orderResponseBody(order), done: true };
}

function lookupOrder(core: SandboxCore, version: ApiVersion, { request }: Exchange): MaybeAsync<Outcome> {
  return after(authenticate(core, request), (claims) =>
    isOutcome(claims) ? claims : lookUpFor(claims, core, version, request),
  );
}

function lookUpFor(claims: TokenClaims, core: SandboxCore, version: ApiVersion, request: Request): Outcome {
  const key = Object.values(request.params)[0] ?? '';
  const order = core.orders.find(key);
  // Each version is a service of its own: an order made on the other one is unknown here.
  if (
    !order ||
    order.version !== version ||
    order.owner !== claims.sub ||
    (version === 'v2' && order.uuid !== key)
  )
    return ORDER_NOT_FOUND;
  return { status: 200, body: orderResponseBody(order) };
}

/** A fault's answer; none for hang (the client waits) and reset (the connection is cut). */
function faultAnswer(forced: Forced, request: Request): Answer | typeof NO_ANSWER {
  switch (forced.fault) {
    case 'hang':
      return NO_ANSWER;
    case 'reset':
      request.socket.destroy();
      return NO_ANSWER;
    case 'malformed':
      return {
        status: 200,
        type: 'application/json; charset=utf-8',
        body: '{"status":"PENDING","links":{"chec',
      };
    case 'html':
      return html(
        '<html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1></body></html>',
        502,
      );
    case 'rate-limit':
      return {
        status: 429,
        headers: { 'retry-after': String(forced.retryAfter ?? 1) },
        body: { message: 'Too Many Requests' },
      };
    default:
      return {
        status: 503,
        ...(forced.retryAfter === undefined ? {} : { headers: { 'retry-after': String(forced.retryAfter) } }),
        body: { message: 'Service Unavailable' },
      };
  }
}

/** What v1 answers once it is switched off, with the error body of its endpoint (contract/versions.ts). */
function switchedOff(route: Route): Answer {
  return {
    status: V1_GONE.status,
    body: route === 'token' ? { description: V1_GONE.text } : { message: V1_GONE.text },
  };
}

/** Faults that answer after the request was carried out, as when a response is lost on the way back. */
const AFTER_WORK = new Set(['hang', 'reset', 'malformed']);

function serve(
  core: SandboxCore,
  route: Route,
  version: ApiVersion,
  handler: (core: SandboxCore, version: ApiVersion, exchange: Exchange) => MaybeAsync<Outcome>,
) {
  const serverFailure: CatalogId = route === 'token' ? 'token-500' : '999';
  return (request: Request): MaybeAsync<Answer | typeof NO_ANSWER> => {
    const { body, malformed } = readJson(request.body);
    let forced = core.forced.take(route, version);
    if (!forced && core.failRate > 0 && Math.random() < core.failRate)
      forced = { route, error: serverFailure, times: 1 };
    const record = (status: number) =>
      core.journal.record({
        at: core.now().getTime(),
        method: request.method,
        path: request.url,
        route,
        version,
        status,
        authorization: request.headers.authorization,
        text: request.body,
      });
    const exchange = { request, body, malformed };

    const answer = (): MaybeAsync<Answer | typeof NO_ANSWER> => {
      // Past the sunset on the sandbox's clock, v1 is gone whatever was forced on it.
      if (version === 'v1' && daysUntilSunset(core.now()) < 0) {
        const gone = switchedOff(route);
        record(gone.status);
        return gone;
      }
      if (forced?.fault && forced.fault !== 'latency') {
        const fault = { ...forced, fault: forced.fault };
        const faulty = () => {
          const spoiled = faultAnswer(fault, request);
          // A withheld answer is journaled with status 0.
          record(spoiled === NO_ANSWER ? 0 : spoiled.status);
          return spoiled;
        };
        return AFTER_WORK.has(fault.fault) ? after(handler(core, version, exchange), faulty) : faulty();
      }
      const entry = forced?.error ? findCatalogEntry(forced.error) : undefined;
      const outcome = entry
        ? { status: entry.status, body: errorBody(entry) }
        : handler(core, version, exchange);
      return after(outcome, ({ status, body }) => {
        record(status);
        return { status, body };
      });
    };
    // --latency, then a forced latency fault, before anything else happens.
    const delay = core.latencyMs + (forced?.fault === 'latency' ? (forced.ms ?? 1000) : 0);
    return delay > 0 ? sleep(delay).then(answer) : answer();
  };
}

export function registerServiceRoutes(router: Router, core: SandboxCore): void {
  for (const version of API_VERSIONS) {
    router.post(PATHS.token(version), serve(core, 'token', version, issueToken));
    router.post(PATHS.checkout(version), serve(core, 'checkout', version, createOrder));
    router.get(PATHS.lookup(version), serve(core, 'lookup', version, lookupOrder));
  }

  router.get('/pay/:uuid', ({ params }) => {
    const order = core.orders.find(pathParam(params, 'uuid'));
    return order ? html(paymentPage(order)) : html(notFoundPage(), 404);
  });
  for (const [action, status] of [
    ['pay', ORDER_STATES.paid],
    ['fail', ORDER_STATES.failed],
  ] as const) {
    router.post(`/pay/:uuid/${action}`, ({ params }) => {
      const order = core.orders.find(pathParam(params, 'uuid'));
      if (!order) return html(notFoundPage(), 404);
      if (order.status !== ORDER_STATES.pending)
        return html(paymentPage(order, `This order is already ${order.status}.`), 409);
      changeStatus(core, order, status);
      return redirect(status === ORDER_STATES.paid ? order.successUrl : order.failUrl);
    });
  }
}
