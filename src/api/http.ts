/**
 * The only module that speaks HTTP (through ky). It sends one exchange, traces it with --debug
 * (secrets, tokens and the Authorization header masked), follows the redirects it may, and turns
 * transport failures into typed errors that name the address. Whether a request may be retried is
 * decided by the caller.
 *
 * Which redirects are followed is redirects.ts's policy (a token request none, others only within
 * their origin); every hop is traced.
 *
 * ky sends through a transport (transport.ts: Node's fetch; agent-transport.ts: undici's agents),
 * which says whether each attempt left; ky's options that never change are made once per client.
 */
import ky, { HTTPError, type Options, TimeoutError } from 'ky';
import { MASK, maskAuthorization, maskBody, maskText, maskTokenAnswer } from '../contract/masking.js';
import { CliError } from '../errors.js';
import { VERSION } from '../version.js';
import { isRedirect, MAX_REDIRECTS, redirectStep } from './redirects.js';
import type { Attempt, Transport } from './transport.js';

export interface Exchange {
  method: 'GET' | 'POST' | 'DELETE';
  url: string;
  headers?: Record<string, string>;
  body?: unknown;
  /** May this exchange be retried on 429/503 (the service did not act on it)? */
  retryRefusals: boolean;
  /** Whether a lost answer leaves the outcome unknown (an order creation) or is plain unreachable. */
  createsSomething: boolean;
  /**
   * A token request: its body carries the client secret and its answer the token. It follows no
   * redirect, and every value of its answer is masked wherever the answer is shown.
   */
  issuesToken: boolean;
}

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  /** The start of the body on one line, every known secret masked: what an error may show. */
  excerpt: string;
}

export interface HttpOptions {
  timeoutMs: number;
  /** Where --debug traces go; undefined when tracing is off. */
  trace?: (line: string) => void;
  /** Values to mask in traces on top of the known secret fields. */
  secrets: string[];
  signal?: AbortSignal;
  /** How many times a 429/503 answer may be retried, honoring Retry-After. */
  refusalRetries: number;
  /** Where a person is told that a refused request is about to be retried; undefined: nobody is. */
  notice?: (line: string) => void;
  /** How requests travel (transport.ts): one for a whole command. */
  transport: Transport;
}

const REFUSALS = [429, 503];
/** What a header value may hold (RFC 9110 field-value): no control character but the tab. */
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;
const REFUSAL_NAMES: Record<number, string> = { 429: 'too many requests', 503: 'unavailable' };

/** The request exactly as it goes on the wire: every header payorder sends, the body as JSON. */
export interface WireRequest {
  method: Exchange['method'];
  url: string;
  headers: Record<string, string>;
  body?: unknown;
}

/** Who is asking, as every request says it: the service's logs can tell payorder's requests and their version. */
export const USER_AGENT = `payorder/${VERSION}`;

export function wireRequest(exchange: Exchange): WireRequest {
  const headers: Record<string, string> = {
    accept: 'application/json',
    'user-agent': USER_AGENT,
    ...exchange.headers,
  };
  if (exchange.body !== undefined) headers['content-type'] = 'application/json';
  return { method: exchange.method, url: exchange.url, headers, body: exchange.body };
}

/** The wire request with the Authorization credential and secret fields masked: what --dry-run shows. */
export function maskedRequest(exchange: Exchange): WireRequest {
  const request = wireRequest(exchange);
  const headers = Object.fromEntries(
    Object.entries(request.headers).map(([name, value]) => [
      name,
      name === 'authorization' ? maskAuthorization(value) : value,
    ]),
  );
  return { ...request, headers, ...(request.body === undefined ? {} : { body: maskBody(request.body) }) };
}

/** ky's options that do not change from one request to the next: made once per HttpOptions. */
interface SharedOptions {
  retrying: Options;
  once: Options;
}

const shared = new WeakMap<HttpOptions, SharedOptions>();

function sharedOptions(options: HttpOptions): SharedOptions {
  let made = shared.get(options);
  if (made) return made;
  const { trace } = options;
  const base: Options = {
    timeout: options.timeoutMs,
    throwHttpErrors: (status) => REFUSALS.includes(status),
    // A refusal's body as the text it is: ky reads it into HTTPError's `data` with this.
    parseJson: (text) => text,
    signal: options.signal,
    hooks: {
      beforeRetry: [
        ({ request, retryCount }) =>
          trace?.(`↻ retry ${retryCount} of ${request.method} ${request.url} after a refusal`),
      ],
    },
  };
  // ky's default status codes (and those whose Retry-After it honours) include 429 and 503;
  // `shouldRetry`, asked first, refuses every other answer and every failure, a timeout included.
  const retry = {
    methods: ['get', 'post'],
    maxRetryAfter: 30_000,
    backoffLimit: 5_000,
    // Only answers that say the service did not act are retried; never a lost or failed exchange.
    // For those, undefined leaves the timing to ky, which honours Retry-After (true would not).
    shouldRetry: ({ error, retryCount }: { error: Error; retryCount: number }) => {
      if (!(error instanceof HTTPError && REFUSALS.includes(error.response.status))) return false;
      // Called only when a retry is allowed, before its wait: the person knows why nothing happens.
      options.notice?.(
        `the service answered ${error.response.status} (${REFUSAL_NAMES[error.response.status]}); retrying (${retryCount} of ${options.refusalRetries})…`,
      );
      return undefined;
    },
  };
  made = {
    retrying: { ...base, retry: { ...retry, limit: options.refusalRetries } },
    once: { ...base, retry: { limit: 0 } },
  };
  shared.set(options, made);
  return made;
}

/** The secrets an exchange's traffic is masked with: the known ones and the token it carries. */
function secretsOf(exchange: Exchange, options: HttpOptions): string[] {
  const authorization = exchange.headers?.authorization;
  const bearer = authorization?.startsWith('Bearer ') ? authorization.slice(7) : '';
  return bearer ? [...options.secrets, bearer] : options.secrets;
}

export async function send(exchange: Exchange, options: HttpOptions): Promise<Answer> {
  let hop = exchange;
  for (let redirects = 0; ; redirects++) {
    const answer = await sendOnce(hop, options, redirects > 0);
    const location = isRedirect(answer.status) ? answer.headers.get('location') : null;
    if (location === null) return answer;
    hop = redirected(exchange, hop, answer.status, location, redirects, options);
  }
}

async function sendOnce(exchange: Exchange, options: HttpOptions, redirected: boolean): Promise<Answer> {
  const { trace } = options;
  const started = performance.now();
  if (trace) {
    trace(`→ ${exchange.method} ${traced(exchange.url, secretsOf(exchange, options))}`);
    const masked = maskedRequest(exchange);
    for (const [name, value] of Object.entries(masked.headers)) trace(`→ ${name}: ${value}`);
    if (masked.body !== undefined)
      trace(`→ ${maskText(JSON.stringify(masked.body), secretsOf(exchange, options))}`);
  }
  const { retrying, once } = sharedOptions(options);
  const request = wireRequest(exchange);
  // Refused here, naming the header and never its value (a token may be in it).
  const bad = Object.entries(request.headers).find(([, value]) => !HEADER_VALUE.test(value))?.[0];
  if (bad)
    throw unreachable(
      new URL(exchange.url).origin,
      `the ${bad} header holds a character HTTP does not allow`,
    );
  const attempt: Attempt = { sent: false };
  const body = exchange.body === undefined ? undefined : JSON.stringify(exchange.body);
  try {
    const response = await ky(exchange.url, {
      ...(exchange.retryRefusals ? retrying : once),
      method: exchange.method,
      headers: request.headers,
      ...(body === undefined ? {} : { body }),
      fetch: options.transport.fetchFor(attempt, body),
    });
    return answerOf(response, await response.text(), started, exchange, options);
  } catch (error) {
    // ky has read a refusal's body into `data`, as text (parseJson below).
    if (error instanceof HTTPError)
      return answerOf(error.response, String(error.data ?? ''), started, exchange, options);
    // After a redirect, the first request was sent whatever happens to this one.
    throw transportError(error, exchange, options, {
      sent: redirected || attempt.sent,
      timedOut: error instanceof TimeoutError,
    });
  }
}

/**
 * The next hop of `first` after `hop` was answered with a redirect to `location` (redirects.ts), or
 * the error that refuses it: the request was sent, so for an order creation the outcome is unknown.
 */
function redirected(
  first: Exchange,
  hop: Exchange,
  status: number,
  location: string,
  redirects: number,
  options: HttpOptions,
): Exchange {
  const step = redirectStep(first, hop, status, location, redirects);
  if ('to' in step) options.trace?.(`← location: ${traced(step.to.href, secretsOf(first, options))}`);
  if ('follow' in step) return step.follow;
  if (step.refused === 'not-http' || step.refused === 'too-many') {
    const detail =
      step.refused === 'not-http'
        ? 'a redirect to an address that is not HTTP'
        : `more than ${MAX_REDIRECTS} redirects`;
    throw transportError(new Error(detail), first, options, { sent: true, timedOut: false });
  }
  const rule =
    step.refused === 'token'
      ? 'payorder follows no redirect of a token request, which carries the client secret'
      : 'payorder follows a redirect only within the same origin (scheme, host and port)';
  throw refusedRedirect(first, status, step.to, rule);
}

/** A redirect payorder does not follow: nothing is stored; an order creation's outcome is unknown. */
function refusedRedirect(first: Exchange, status: number, to: URL, rule: string): CliError {
  const address = new URL(first.url).origin;
  // Where it pointed, without what could carry a secret: a user name and password, the query.
  const where = `${to.origin}${to.pathname}${to.search ? '?…' : ''}`;
  const what = `${address} answered ${status} with a redirect to ${where}, and ${rule}`;
  if (first.createsSomething)
    return new CliError('outcome_unknown', `outcome unknown: ${what}`, { hint: OUTCOME_UNKNOWN_HINT });
  return new CliError('network', `${what}${first.issuesToken ? '; nothing was stored' : ''}`, {
    hint: "check the address (payorder config list): it should be the service's own, not one that redirects",
  });
}

function answerOf(
  response: Response,
  text: string,
  started: number,
  exchange: Exchange,
  options: HttpOptions,
): Answer {
  if (options.trace) {
    options.trace(
      `← ${response.status} ${response.statusText} (${Math.round(performance.now() - started)} ms)`,
    );
    if (text) options.trace(`← ${cut(masked(text, exchange, secretsOf(exchange, options)), 500)}`);
  }
  let shown: string | undefined;
  return {
    status: response.status,
    headers: response.headers,
    text,
    // Masking parses the body: done only when an error shows it.
    get excerpt() {
      shown ??= excerpt(text, exchange, secretsOf(exchange, options));
      return shown;
    },
  };
}

/** The start of a body on one line, with every secret masked first (so a cut never shows part of one). */
function excerpt(text: string, exchange: Exchange, secrets: readonly string[]): string {
  return cut(masked(text, exchange, secrets).replace(/\s+/g, ' ').trim(), 80) || '(empty body)';
}

/**
 * A body as a trace or an error shows it: secret fields and known secrets masked (every value of a
 * token answer, and the whole of one that is not JSON, since its token could stand anywhere).
 */
function masked(text: string, exchange: Exchange, secrets: readonly string[]): string {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON: the known secrets are still masked below.
    if (exchange.issuesToken) return text === '' ? '' : `${MASK} (${text.length} characters, not JSON)`;
    return maskText(text, secrets);
  }
  return maskText(JSON.stringify(exchange.issuesToken ? maskTokenAnswer(body) : maskBody(body)), secrets);
}

/** An address as a trace shows it: a user name and password masked, and every known secret. */
function traced(address: string, secrets: readonly string[]): string {
  const url = URL.parse(address);
  if (url && (url.username || url.password)) [url.username, url.password] = [MASK, ''];
  return maskText(url?.href ?? address, secrets);
}

const cut = (text: string, length: number) => (text.length > length ? `${text.slice(0, length)}…` : text);

/** The innermost code (or message) in an error's chain of causes (ky → transport → socket). */
function rootCause(error: unknown): { code?: string; message?: string } {
  let current = error as { code?: string; message?: string; cause?: unknown; errors?: unknown[] };
  let found: { code?: string; message?: string } = current ?? {};
  for (let depth = 0; current && depth < 8; depth++) {
    if (typeof current.code === 'string') found = current;
    const next = current.cause ?? current.errors?.[0];
    if (!next) {
      if (found.code === undefined) found = current;
      break;
    }
    current = next as typeof current;
  }
  return found;
}

/**
 * A failed exchange as the person is told it. Whether the request left decides: before that (a
 * connection refused, a name that does not resolve, a TLS handshake that fails, no connection in
 * time), nothing was sent and even an order creation is certainly not made; after that, an order
 * creation's outcome is unknown, a redirect's next step failing included.
 */
function transportError(
  error: unknown,
  exchange: Exchange,
  options: HttpOptions,
  { sent, timedOut }: { sent: boolean; timedOut: boolean },
): CliError {
  if (options.signal?.aborted) return new CliError('interrupted', 'interrupted');
  const address = new URL(exchange.url).origin;
  const seconds = options.timeoutMs / 1000;
  if (timedOut && !sent) return unreachable(address, `no connection within ${seconds} s`);
  const cause = timedOut ? { message: `no answer within ${seconds} s` } : rootCause(error);
  const detail = maskText(
    cause.code ?? cause.message ?? (error as Error).message,
    secretsOf(exchange, options),
  );
  if (!sent) return unreachable(address, detail);
  return exchange.createsSomething ? outcomeUnknown(address, detail) : unreachable(address, detail, true);
}

const OUTCOME_UNKNOWN_HINT =
  'the order may or may not exist: look it up (payorder order get) or check the merchant panel before trying again';

function outcomeUnknown(address: string, detail: string): CliError {
  return new CliError(
    'outcome_unknown',
    `outcome unknown: the request reached ${address} but no answer came back (${detail})`,
    { hint: OUTCOME_UNKNOWN_HINT },
  );
}

/** No answer from the service; `maybeSent` when the request may have left (a lookup that timed out). */
function unreachable(address: string, detail: string, maybeSent = false): CliError {
  return new CliError(
    'network',
    `cannot reach ${address} (${detail})${maybeSent ? '' : '; nothing was sent'}`,
    {
      hint: 'check the address (payorder config list) and your network; nothing was changed',
    },
  );
}
