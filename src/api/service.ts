/**
 * The service's three operations for one target (environment, version, addresses): token, order
 * creation, order lookup. Every status and code of spec §7 becomes a typed error with one line
 * that says what happened and what to do.
 */
import { matchCatalog } from '../contract/catalog.js';
import type { EnvName } from '../contract/environments.js';
import { type Order, parseJsonExact, readOrder } from '../contract/schemas.js';
import {
  type Credentials,
  type IssuedToken,
  readTokenResponse,
  type TokenReading,
  tokenRequestBody,
} from '../contract/token.js';
import { type ApiVersion, joinUrl, PATHS, V1_GONE } from '../contract/versions.js';
import { CliError } from '../errors.js';
import {
  type Answer,
  type Exchange,
  type HttpOptions,
  maskedRequest,
  send,
  type WireRequest,
} from './http.js';
import { catalogError } from './service-errors.js';

export interface Target {
  /** The profile whose login and tokens are used ("default" when none is named). */
  profile: string;
  env: EnvName;
  version: ApiVersion;
  authBase: string;
  checkoutBase: string;
  /**
   * The version a command without --api would use for this profile and environment, so that a hint
   * names --api only when it must (session/command-line.ts); absent: v2.
   */
  impliedVersion?: ApiVersion;
  /** The environment is the default one: neither --env nor PAYORDER_ENV chose it. */
  envByDefault?: boolean;
}

export interface OrderResult {
  order: Order;
  /** The service's body, verbatim (for --raw). */
  raw: string;
}

/**
 * The catalog ids of a refused token: the explicit-deny 403 (expired) and the 401. A session renews
 * the token once on either and repeats the request once.
 */
export const TOKEN_REFUSED: readonly string[] = ['expired', 'unauthorized'];

/** The statuses that say the service did not act on a request (http.ts retries them first). */
const REFUSED_STATUSES = new Map([
  [429, 'Too Many Requests'],
  [503, 'Service Unavailable'],
]);

export class ServiceClient {
  /** Where orders are created: one string for every order (a batch's addresses are parsed once, by text). */
  readonly #checkoutUrl: string;

  constructor(
    readonly target: Target,
    private readonly http: HttpOptions,
    /** The command that logs in again to this target, for the hints of refusals (`payorder login --env …`). */
    private readonly relogin: string,
  ) {
    this.#checkoutUrl = joinUrl(target.checkoutBase, PATHS.checkout(target.version));
  }

  async requestToken(credentials: Credentials): Promise<IssuedToken> {
    const { version, env } = this.target;
    const answer = await send(
      {
        method: 'POST',
        url: joinUrl(this.target.authBase, PATHS.token(version)),
        body: tokenRequestBody(version, credentials),
        retryRefusals: true,
        createsSomething: false,
        issuesToken: true,
      },
      { ...this.http, secrets: [...this.http.secrets, credentials.clientSecretId] },
    );
    this.#refuseSwitchedOff(answer);
    const body = parseBody(answer);
    if (answer.status === 200) {
      const reading = readTokenResponse(body);
      if (reading.ok) return reading.token;
      throw unusableToken(env, reading);
    }
    const entry = matchCatalog('token', answer.status, body);
    throw entry
      ? catalogError(entry, { ...this.target, creating: false, credentials, relogin: this.relogin })
      : unexpected(
          answer,
          `the token service on ${env} answered ${answer.status}`,
          answer.status >= 500 ? 'rejected' : 'auth',
        );
  }

  /** The order creation exchange: what createOrder sends and what --dry-run shows. */
  createOrderExchange(accessToken: string, body: Record<string, string>): Exchange {
    return {
      method: 'POST',
      url: this.#checkoutUrl,
      headers: { authorization: `Bearer ${accessToken}` },
      body,
      retryRefusals: true,
      createsSomething: true,
      issuesToken: false,
    };
  }

  /** The order creation request as it would go on the wire, with the token masked; sends nothing. */
  dryRunCreateOrder(body: Record<string, string>): WireRequest {
    return maskedRequest(this.createOrderExchange('token', body));
  }

  async createOrder(accessToken: string, body: Record<string, string>): Promise<OrderResult> {
    const answer = await send(this.createOrderExchange(accessToken, body), this.http);
    return this.#order(answer, 'create');
  }

  async getOrder(accessToken: string, id: string): Promise<OrderResult> {
    const answer = await send(
      {
        method: 'GET',
        url: joinUrl(this.target.checkoutBase, PATHS.lookup(this.target.version, id)),
        headers: { authorization: `Bearer ${accessToken}` },
        retryRefusals: true,
        createsSomething: false,
        issuesToken: false,
      },
      this.http,
    );
    if (answer.status === 404) {
      throw new CliError(
        'not_found',
        `order ${id} not found on ${this.target.env} (${this.target.version})`,
        {
          status: 404,
          hint: 'check the id, the environment and the API version (v2 looks orders up by uuid only)',
        },
      );
    }
    return this.#order(answer, 'get');
  }

  /** v1's answer once it is switched off (contract/versions.ts V1_GONE): nothing was done. */
  #refuseSwitchedOff(answer: Answer): void {
    if (this.target.version !== 'v1' || answer.status !== V1_GONE.status) return;
    throw new CliError(
      'rejected',
      `the service on ${this.target.env} says API v1 is switched off (${answer.status}); use --api v2`,
      { status: answer.status, hint: 'payorder migrate-check shows what an integration must change for v2' },
    );
  }

  #order(answer: Answer, operation: 'create' | 'get'): OrderResult {
    this.#refuseSwitchedOff(answer);
    const body = parseBody(answer);
    const creating = operation === 'create';
    if (answer.status === 200) {
      const order = readOrder(this.target.version, body);
      if (order) return { order, raw: answer.text };
      throw unexpected(
        answer,
        creating
          ? 'outcome unknown: the service answered 200 but the body is not an order'
          : 'the service answered 200 but the body is not an order',
        creating ? 'outcome_unknown' : 'rejected',
      );
    }
    const entry = matchCatalog('order', answer.status, body);
    if (entry) throw catalogError(entry, { ...this.target, creating, relogin: this.relogin });
    // 429 and 503 say the service did not act: still refused once the retries ran out.
    if (REFUSED_STATUSES.has(answer.status))
      throw new CliError(
        'rejected',
        `the service refused the ${creating ? 'order creation' : 'lookup'} (${answer.status} ${REFUSED_STATUSES.get(answer.status)}) and kept refusing it${creating ? '; the order was not created' : ''}`,
        { status: answer.status, hint: 'try again later: the service is busy or down' },
      );
    throw unexpected(
      answer,
      creating
        ? `outcome unknown: unexpected answer ${answer.status} to the order creation`
        : `unexpected answer ${answer.status} from the order service`,
      creating ? 'outcome_unknown' : 'rejected',
    );
  }
}

function parseBody(answer: Answer): unknown {
  try {
    return parseJsonExact(answer.text);
  } catch {
    return undefined;
  }
}

/**
 * A 200 token answer that breaks a rule, named by its field and the rule. Never with the body or a
 * value: under whatever name, a value of a token answer may be the token.
 */
function unusableToken(env: EnvName, refused: Extract<TokenReading, { ok: false }>): CliError {
  const field = refused.field === 'body' ? 'its body' : refused.field;
  return new CliError(
    'rejected',
    `the token service on ${env} answered 200 with an unusable token: ${field} ${refused.rule}; nothing was stored`,
    {
      status: 200,
      field: refused.field,
      hint: 'check that the auth address is the token service of this environment',
    },
  );
}

function unexpected(
  answer: Answer,
  message: string,
  kind: 'rejected' | 'auth' | 'outcome_unknown',
): CliError {
  const type = answer.headers.get('content-type') ?? 'no content type';
  return new CliError(kind, `${message} (${type}): ${answer.excerpt}`, {
    status: answer.status,
    ...(kind === 'outcome_unknown'
      ? { hint: 'the order may exist: look it up or check the merchant panel before creating it again' }
      : {}),
  });
}
