/**
 * Starts an in-process sandbox on a free port for a test file, and a small HTTP helper for it.
 */
import { afterAll, beforeAll, beforeEach } from 'vitest';
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

/** One sandbox per test file, reset before each test. */
export function useSandbox(options: SandboxOptions = {}) {
  const handle = { sandbox: undefined as unknown as Sandbox, url: '' };
  beforeAll(async () => {
    handle.sandbox = await startSandbox({ port: 0, notifyBackoffMs: 20, ...options });
    handle.url = handle.sandbox.url;
  });
  beforeEach(async () => {
    await call(handle.url, 'POST', '/_sandbox/reset');
  });
  afterAll(async () => {
    await handle.sandbox?.close();
  });
  return handle;
}

export const TEST_CREDENTIALS = {
  username: 'sandbox-merchant',
  client_id: 'sandbox-client',
  client_secret_id: 'sandbox-secret',
};

export function tokenBody(version: 'v1' | 'v2', overrides: Record<string, unknown> = {}) {
  const { username, ...rest } = TEST_CREDENTIALS;
  return {
    ...(version === 'v1' ? { user_name: username } : { username }),
    ...rest,
    grant_type: 'client_credentials',
    ...overrides,
  };
}

export const PREFIX = { v1: '/1', v2: '/v2/api' } as const;

export async function tokenFor(base: string, version: 'v1' | 'v2' = 'v2'): Promise<string> {
  const reply = await call(base, 'POST', `${PREFIX[version]}/auth/token`, tokenBody(version));
  return reply.body.access_token;
}

export function orderBody(version: 'v1' | 'v2', overrides: Record<string, unknown> = {}) {
  const base = {
    description: 'Tea',
    callback_success: 'https://shop.example/ok',
    callback_fail: 'https://shop.example/ko',
  };
  return version === 'v1'
    ? { amount: '12.50', userName: TEST_CREDENTIALS.username, ...base, ...overrides }
    : { amount: '1250', ...base, ...overrides };
}

/** The sandbox's journal entries for a route (token, checkout, lookup). */
export async function journal(base: string, route?: string): Promise<any[]> {
  return (await call(base, 'GET', `/_sandbox/journal${route ? `?route=${route}` : ''}`)).body.entries;
}
