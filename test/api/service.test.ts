/**
 * The API layer without a server: every row of the spec's error catalog becomes a typed error with
 * the right exit code, and the request payorder sends is the one --dry-run shows, secrets masked.
 */
import { describe, expect, it } from 'vitest';
import { type Exchange, maskedRequest, USER_AGENT, wireRequest } from '../../src/api/http.js';
import { ServiceClient, type Target } from '../../src/api/service.js';
import { catalogError } from '../../src/api/service-errors.js';
import { CATALOG, type CatalogId, errorBody, matchCatalog } from '../../src/contract/catalog.js';
import { SANDBOX_DEFAULT_URL } from '../../src/contract/environments.js';
import { PATHS } from '../../src/contract/versions.js';
import { CliError, type ErrorKind, EXIT } from '../../src/errors.js';
import { SECRET, SHOP } from '../helpers/cli.js';
import { oneShotTransport } from '../helpers/http-options.js';

const situation = {
  env: 'stage',
  version: 'v2',
  creating: true,
  credentials: SHOP,
  relogin: 'payorder login --env stage',
} as const;

/** What each row means to a user; typed over every id, so a new row without an entry here fails to compile. */
const KIND: Record<CatalogId, ErrorKind> = {
  '3001': 'auth',
  '3002': 'auth',
  '3003': 'auth',
  '3005': 'auth',
  '3006': 'auth',
  'token-500': 'rejected',
  '1001': 'rejected',
  '1003': 'rejected',
  '1004': 'rejected',
  unauthorized: 'auth',
  '1002': 'auth',
  expired: 'auth',
  '999': 'outcome_unknown',
};

const EXIT_OF_KIND: Partial<Record<ErrorKind, number>> = {
  auth: EXIT.auth,
  rejected: EXIT.rejected,
  outcome_unknown: EXIT.network,
};

describe('catalogError', () => {
  it.each(CATALOG.map((entry) => [entry.id, entry] as const))(
    '%s: a typed error with its exit code, code, status, one line and a hint',
    (id, entry) => {
      const error = catalogError(entry, situation);
      expect(error).toBeInstanceOf(CliError);
      expect(error.kind).toBe(KIND[id]);
      expect(error.exitCode).toBe(EXIT_OF_KIND[KIND[id]]);
      expect(error.details).toMatchObject({ code: 'code' in entry ? entry.code : id, status: entry.status });
      expect(error.message).toMatch(/^[^\n]+$/);
      expect(error.details.hint).toMatch(/^[^\n]+$/);
      // The service's code, or its status where a row has no code, is in the line for support.
      expect(error.message).toContain('code' in entry ? `(${entry.code})` : String(entry.status));
      expect(`${error.message} ${error.details.hint}`).not.toContain(SECRET);
    },
  );

  it.each(CATALOG.map((entry) => [entry.id, entry] as const))(
    '%s: the body the service sends for it is recognised as that row',
    (_, entry) => {
      expect(matchCatalog(entry.endpoint, entry.status, errorBody(entry))).toBe(entry);
    },
  );

  const row = (id: CatalogId) => CATALOG.find((entry) => entry.id === id)!;

  it('token errors name the username or client id at fault, never the secret', () => {
    expect(catalogError(row('3003'), situation).message).toBe(
      `no user account "${SHOP.username}" on stage (3003)`,
    );
    expect(catalogError(row('3005'), situation).message).toBe(
      `no active client with client id "${SHOP.clientId}" on stage (3005)`,
    );
    expect(catalogError(row('3006'), situation)).toMatchObject({
      message: `the secret does not match client id "${SHOP.clientId}" on stage (3006)`,
      details: { hint: 'enter the client secret id again: payorder login --env stage' },
    });
  });

  // "Please try again" does not say the order was not made: resending it could create it twice.
  it('a server failure while creating an order leaves its outcome unknown; during a lookup it is a failure', () => {
    expect(catalogError(row('999'), situation).message).toBe(
      'outcome unknown: the service failed (999) while creating the order; it may or may not exist',
    );
    expect(catalogError(row('999'), { ...situation, creating: false }).message).toBe(
      'the service failed (999)',
    );
  });

  it('the amount-format hint depends on the version', () => {
    expect(catalogError(row('1003'), { ...situation, version: 'v1' }).details.hint).toBe(
      'give --amount like 12.50',
    );
    expect(catalogError(row('1003'), situation).details.hint).toBe(
      'v2 wants whole cents; payorder converts --amount for you',
    );
  });
});

const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJzaG9wIn0.c2lnbmF0dXJl';
const order = { amount: '1250', description: 'Tea', callback_success: 'https://s.example/ok' };

describe('wireRequest', () => {
  it('a request with a body: accept, payorder and its version, the caller’s headers, and content-type JSON', () => {
    const exchange: Exchange = {
      method: 'POST',
      url: `https://checkout.example${PATHS.checkout('v2')}`,
      headers: { authorization: `Bearer ${TOKEN}` },
      body: order,
      retryRefusals: true,
      createsSomething: true,
      issuesToken: false,
    };
    expect(wireRequest(exchange)).toEqual({
      method: 'POST',
      url: `https://checkout.example${PATHS.checkout('v2')}`,
      headers: {
        accept: 'application/json',
        'user-agent': USER_AGENT,
        authorization: `Bearer ${TOKEN}`,
        'content-type': 'application/json',
      },
      body: order,
    });
  });

  it('a request without a body has no content-type', () => {
    const request = wireRequest({
      method: 'GET',
      url: `https://checkout.example${PATHS.lookup('v2', 'abc')}`,
      retryRefusals: true,
      createsSomething: false,
      issuesToken: false,
    });
    expect(request.headers).toEqual({ accept: 'application/json', 'user-agent': USER_AGENT });
    expect(request.body).toBeUndefined();
  });
});

describe('maskedRequest', () => {
  const exchange: Exchange = {
    method: 'POST',
    url: `https://auth.example${PATHS.token('v2')}`,
    headers: { authorization: `Bearer ${TOKEN}` },
    // The spec's field names, typed out: secrets are masked by their names on the wire.
    body: { username: SHOP.username, client_secret_id: SECRET, nested: { access_token: TOKEN } },
    retryRefusals: true,
    createsSomething: false,
    issuesToken: false,
  };

  it('masks the credential of Authorization and secret fields at any depth; the rest as sent', () => {
    expect(maskedRequest(exchange)).toEqual({
      ...wireRequest(exchange),
      headers: { ...wireRequest(exchange).headers, authorization: 'Bearer ***' },
      body: { username: SHOP.username, client_secret_id: '***', nested: { access_token: '***' } },
    });
  });

  it('leaves the exchange it was given as it was', () => {
    maskedRequest(exchange);
    expect(exchange.headers!.authorization).toBe(`Bearer ${TOKEN}`);
    expect((exchange.body as { client_secret_id: string }).client_secret_id).toBe(SECRET);
  });
});

describe('ServiceClient.dryRunCreateOrder', () => {
  const target: Target = {
    profile: 'default',
    env: 'sandbox',
    version: 'v2',
    authBase: SANDBOX_DEFAULT_URL,
    checkoutBase: SANDBOX_DEFAULT_URL,
  };
  const client = new ServiceClient(
    target,
    { timeoutMs: 1000, secrets: [], refusalRetries: 0, transport: oneShotTransport() },
    'payorder login --env stage',
  );

  it('is the request createOrder sends, with only the token masked', () => {
    const sent = wireRequest(client.createOrderExchange(TOKEN, order));
    expect(client.dryRunCreateOrder(order)).toEqual({
      ...sent,
      headers: { ...sent.headers, authorization: 'Bearer ***' },
    });
    expect(sent).toMatchObject({
      method: 'POST',
      url: SANDBOX_DEFAULT_URL + PATHS.checkout('v2'),
      body: order,
    });
  });
});
