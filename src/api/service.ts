/**
 * The service's three operations for one target (environment, version, addresses): token, order
 * creation, order lookup. Every status and code of spec §7 becomes a typed error with one line
 * that says what happened and what to do.
 */
import { type CatalogEntry, matchCatalog } from '../contract/catalog.js';
import { type Order, parseJsonExact, readOrder } from '../contract/schemas.js';
import {
  type Credentials,
  type IssuedToken,
  readTokenResponse,
  tokenRequestBody,
} from '../contract/token.js';
import { type ApiVersion, joinUrl, PATHS } from '../contract/versions.js';
import { CliError } from '../errors.js';
import type { EnvName } from '../session/environments.js';
import { type Answer, type HttpOptions, send } from './http.js';

export interface Target {
  env: EnvName;
  version: ApiVersion;
  authBase: string;
  checkoutBase: string;
}

export interface OrderResult {
  order: Order;
  /** The service's body, verbatim (for --raw). */
  raw: string;
}

/** The catalog id of the explicit-deny 403 that means "token expired": callers renew once on it. */
export const EXPIRED = 'expired';

export class ServiceClient {
  constructor(
    readonly target: Target,
    private readonly http: HttpOptions,
  ) {}

  async requestToken(credentials: Credentials): Promise<IssuedToken> {
    const { version, env } = this.target;
    const answer = await send(
      {
        method: 'POST',
        url: joinUrl(this.target.authBase, PATHS.token(version)),
        body: tokenRequestBody(version, credentials),
        retryRefusals: true,
        createsSomething: false,
      },
      { ...this.http, secrets: [...this.http.secrets, credentials.clientSecretId] },
    );
    const body = parseBody(answer);
    if (answer.status === 200) {
      const token = readTokenResponse(body);
      if (token) return token;
      throw unexpected(answer, 'the token service answered 200 without a usable access_token', 'rejected');
    }
    const entry = matchCatalog('token', answer.status, body);
    throw entry
      ? tokenError(entry, env, credentials)
      : unexpected(
          answer,
          `the token service on ${env} answered ${answer.status}`,
          answer.status >= 500 ? 'rejected' : 'auth',
        );
  }

  async createOrder(accessToken: string, body: Record<string, string>): Promise<OrderResult> {
    const answer = await send(
      {
        method: 'POST',
        url: joinUrl(this.target.checkoutBase, PATHS.checkout(this.target.version)),
        headers: { authorization: `Bearer ${accessToken}` },
        body,
        retryRefusals: true,
        createsSomething: true,
      },
      this.http,
    );
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

  #order(answer: Answer, operation: 'create' | 'get'): OrderResult {
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
    if (entry) throw orderError(entry, this.target, creating);
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

function excerpt(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 80 ? `${flat.slice(0, 80)}…` : flat || '(empty body)';
}

function unexpected(
  answer: Answer,
  message: string,
  kind: 'rejected' | 'auth' | 'outcome_unknown',
): CliError {
  const type = answer.headers.get('content-type') ?? 'no content type';
  return new CliError(kind, `${message} (${type}): ${excerpt(answer.text)}`, {
    status: answer.status,
    ...(kind === 'outcome_unknown'
      ? { hint: 'the order may exist: look it up or check the merchant panel before creating it again' }
      : {}),
  });
}

function details(entry: CatalogEntry, hint: string) {
  return { code: entry.code ?? entry.id, status: entry.status, hint };
}

function tokenError(entry: CatalogEntry, env: EnvName, credentials: Credentials): CliError {
  const relogin = `payorder login --env ${env}`;
  const code = entry.code ? ` (${entry.code})` : '';
  switch (entry.id) {
    case '3001':
      return new CliError(
        'auth',
        `the token service on ${env} says a required field is empty${code}`,
        details(entry, `log in again with username, client id and secret: ${relogin}`),
      );
    case '3002':
      return new CliError(
        'auth',
        `the token service on ${env} does not support the client_credentials grant${code}`,
        details(
          entry,
          'check that the auth address points at the Payment Order Service (payorder config list)',
        ),
      );
    case '3003':
      return new CliError(
        'auth',
        `no user account "${credentials.username}" on ${env}${code}`,
        details(entry, `check the username in your welcome message, then ${relogin}`),
      );
    case '3005':
      return new CliError(
        'auth',
        `no active client with client id "${credentials.clientId}" on ${env}${code}`,
        details(entry, `credentials are issued per environment; use the ${env} ones: ${relogin}`),
      );
    case '3006':
      return new CliError(
        'auth',
        `the secret does not match client id "${credentials.clientId}" on ${env}${code}`,
        details(entry, `enter the client secret id again: ${relogin}`),
      );
    default:
      return new CliError(
        'rejected',
        `the token service on ${env} failed (${entry.status}: ${entry.text}); nothing was stored`,
        details(entry, 'try again in a moment'),
      );
  }
}

function orderError(entry: CatalogEntry, target: Target, creating: boolean): CliError {
  const { env, version } = target;
  const code = entry.code ? ` (${entry.code})` : ` (${entry.status})`;
  switch (entry.id) {
    case '1001':
      return new CliError(
        'rejected',
        `the service says a mandatory field is missing${code}: amount, description, success and fail are required`,
        details(entry, 'check the order fields; nothing was created'),
      );
    case '1003':
      return new CliError(
        'rejected',
        `the service refused the amount format${code}: amount must have only digits and a single point`,
        details(
          entry,
          version === 'v1'
            ? 'give --amount like 12.50'
            : 'v2 wants whole cents; payorder converts --amount for you',
        ),
      );
    case '1004':
      return new CliError(
        'rejected',
        `the service knows no user with the stored username on ${env}${code}`,
        details(
          entry,
          `v1 sends the login's username as userName: log in again with the right username (payorder login --env ${env} --api v1)`,
        ),
      );
    case '1002':
      return new CliError(
        'auth',
        `the stored username does not match the credentials of the token on ${env}${code}`,
        details(entry, `username and client id belong to different accounts: payorder login --env ${env}`),
      );
    case 'unauthorized':
      return new CliError(
        'auth',
        `the service did not accept the access token on ${env} (401 Unauthorized)`,
        details(entry, `log in again: payorder login --env ${env}`),
      );
    case EXPIRED:
      return new CliError(
        'auth',
        `the service refused the access token as expired on ${env} (403)`,
        details(entry, `log in again: payorder login --env ${env}`),
      );
    default:
      return new CliError(
        'rejected',
        `the service failed${code}${creating ? '; the order was not created' : ''}`,
        details(entry, 'try again in a moment'),
      );
  }
}
