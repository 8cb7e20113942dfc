/**
 * Starts an in-process sandbox on a free port for a test file, and a small HTTP client for it. The
 * bodies it sends use the spec's field names typed out here, not taken from src/contract: the
 * sandbox tests check those names against the spec, independently of the code they test.
 */
import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { Credentials } from '../../src/contract/token.js';
import { type ApiVersion, PATHS } from '../../src/contract/versions.js';
import { TEST_ACCOUNT } from '../../src/sandbox/accounts.js';
import { type Sandbox, type SandboxOptions, startSandbox } from '../../src/sandbox/server.js';

export interface Reply {
  status: number;
  body: any;
  text: string;
  headers: Headers;
}

export async function call(
  base: string,
  method: string,
  path: string,
  body?: unknown,
  token?: string,
): Promise<Reply> {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (token) headers.authorization = `Bearer ${token}`;
  const response = await fetch(base + path, {
    method,
    headers,
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    redirect: 'manual',
  });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: response.status, body: parsed, text, headers: response.headers };
}

/**
 * A time before v1's sunset (2026-12-31) that tests of v1 run at, so that the suite passes whatever
 * the real date: the sandbox's clock is set to it (`beforeSunset`), and payorder is given it as
 * PAYORDER_NOW (e2e.ts `beforeSunset`).
 */
export const BEFORE_SUNSET = '2026-11-26T12:00:00.000Z';

/** Sets the clock of the sandbox at `url` to BEFORE_SUNSET (a sandbox a test starts itself). */
export const setBeforeSunset = (url: string) => call(url, 'POST', '/_sandbox/clock', { now: BEFORE_SUNSET });

/**
 * One sandbox per test file, reset before each test. `beforeSunset`: its clock is then set to
 * BEFORE_SUNSET (it runs on from there), for files that speak v1 to it directly.
 */
export function useSandbox(options: SandboxOptions = {}, { beforeSunset = false } = {}) {
  const handle = { sandbox: undefined as unknown as Sandbox, url: '' };
  beforeAll(async () => {
    handle.sandbox = await startSandbox({ port: 0, notifyBackoffMs: 20, ...options });
    handle.url = handle.sandbox.url;
  });
  beforeEach(async () => {
    await call(handle.url, 'POST', '/_sandbox/reset');
    if (beforeSunset) await setBeforeSunset(handle.url);
  });
  afterAll(async () => {
    await handle.sandbox?.close();
  });
  return handle;
}

/** An account's credentials as a token request carries them (the user field's name differs by version). */
export function wireCredentials(account: Credentials) {
  return {
    username: account.username,
    client_id: account.clientId,
    client_secret_id: account.clientSecretId,
  };
}

/** The sandbox's built-in test account, as a token request carries it. */
export const TEST_CREDENTIALS = wireCredentials(TEST_ACCOUNT);

/** A token request body for `account` (the test account by default), with `overrides` applied. */
export function tokenBody(
  version: ApiVersion,
  overrides: Record<string, unknown> = {},
  account: Credentials = TEST_ACCOUNT,
) {
  const { username, ...rest } = wireCredentials(account);
  return {
    ...(version === 'v1' ? { user_name: username } : { username }),
    ...rest,
    grant_type: 'client_credentials',
    ...overrides,
  };
}

/** A token the sandbox at `base` issues to `account` (the test account by default). */
export async function tokenFor(
  base: string,
  version: ApiVersion = 'v2',
  account: Credentials = TEST_ACCOUNT,
): Promise<string> {
  const reply = await call(base, 'POST', PATHS.token(version), tokenBody(version, {}, account));
  return reply.body.access_token;
}

/** An order creation body: 12.50 for tea (v1 for the test account's user), with `overrides` applied. */
export function orderBody(version: ApiVersion, overrides: Record<string, unknown> = {}) {
  const base = {
    description: 'Tea',
    callback_success: 'https://shop.example/ok',
    callback_fail: 'https://shop.example/ko',
  };
  return version === 'v1'
    ? { amount: '12.50', userName: TEST_ACCOUNT.username, ...base, ...overrides }
    : { amount: '1250', ...base, ...overrides };
}

/** Creates an order (orderBody with `overrides`) with `token`; the order as the sandbox answered it. */
export async function createOrder(
  base: string,
  token: string,
  version: ApiVersion = 'v2',
  overrides: Record<string, unknown> = {},
): Promise<any> {
  return (await call(base, 'POST', PATHS.checkout(version), orderBody(version, overrides), token)).body;
}

/** Every order the sandbox holds, in the order they were created. */
export async function sandboxOrders(base: string): Promise<any[]> {
  return (await call(base, 'GET', '/_sandbox/orders')).body.orders;
}

/** The routes and statuses that reached the sandbox, in order ("checkout 401", "token 200", …). */
export async function routesReached(base: string): Promise<string[]> {
  return (await journal(base)).map((entry) => `${entry.route} ${entry.status}`);
}

/** From now on every order creation is answered `ms` later (until DELETE /_sandbox/force). */
export async function slowCheckouts(base: string, ms: number): Promise<void> {
  await call(base, 'POST', '/_sandbox/force', { route: 'checkout', fault: 'latency', ms, times: 10_000 });
}

/** The sandbox's journal entries for a route (token, checkout, lookup). */
export async function journal(base: string, route?: string): Promise<any[]> {
  return (await call(base, 'GET', `/_sandbox/journal${route ? `?route=${route}` : ''}`)).body.entries;
}
