/**
 * One in-process sandbox per test file (with the test account and the SHOP account whose secret must
 * never leak) and a fresh config folder per test, with the built CLI pointed at both.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, expect } from 'vitest';
import type { ApiVersion } from '../../src/contract/versions.js';
import { TEST_ACCOUNT } from '../../src/sandbox/accounts.js';
import { cachedToken } from '../../src/session/token-cache.js';
import type { CachedToken, StoreData } from '../../src/store/profile-data.js';
import { cliEnv, cliFor, JWT, SECRET, SHOP, tempDir } from './cli.js';
import { BEFORE_SUNSET, call, sandboxOrders, useSandbox } from './sandbox.js';

/** An ISO time as payorder stores it. */
const ISO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/**
 * A sandbox for the file's tests and a CLI logged in to it. `beforeSunset`, for files that use v1:
 * the sandbox's clock is set before v1's sunset for each test, and payorder runs at that time
 * (PAYORDER_NOW) unless a test gives its own, so that the file passes whatever the real date.
 */
export function useE2E(options: Parameters<typeof useSandbox>[0] = {}, { beforeSunset = false } = {}) {
  const sb = useSandbox({ accounts: [TEST_ACCOUNT, SHOP], ...options }, { beforeSunset });
  const clockEnv: Record<string, string> = beforeSunset ? { PAYORDER_NOW: BEFORE_SUNSET } : {};
  const state = {
    sb,
    dir: '',
    run: undefined as unknown as ReturnType<typeof cliFor>,
    /** The environment the CLI runs with, for tests that start it themselves. */
    env: (extra: Record<string, string | undefined> = {}) =>
      cliEnv({ configDir: state.dir, url: sb.url }, { ...clockEnv, ...extra }),
    /** The store file in the test's config folder. */
    storeFile: () => join(state.dir, 'config.json'),
    /** What the store holds now. */
    store: (): StoreData => JSON.parse(readFileSync(state.storeFile(), 'utf8')),
    /**
     * The token cached for SHOP and the sandbox at `url` (this file's by default) for `version`;
     * the test fails when there is none.
     */
    cachedToken(version: ApiVersion = 'v2', url = sb.url): CachedToken {
      const target = {
        profile: 'default',
        env: 'sandbox',
        version,
        authBase: url,
        checkoutBase: url,
      } as const;
      // Every token, those cached during a rehearsal (PAYORDER_NOW, as beforeSunset runs) too.
      const token = cachedToken(state.store(), target, SHOP, true);
      const { rehearsal, ...shape } = token ?? {};
      expect(shape, `a ${version} token cached for the sandbox at ${url}`).toEqual({
        accessToken: expect.stringMatching(new RegExp(`^${JWT.source}$`)),
        expiresAt: expect.stringMatching(ISO_TIME),
        clientId: SHOP.clientId,
      });
      expect([undefined, true]).toContain(rehearsal);
      return token!;
    },
    /** Logs SHOP in to `target` (the secret on stdin, `args` added); the test fails unless it succeeds. */
    async login(target = 'sandbox', options: { args?: string[]; env?: Record<string, string> } = {}) {
      const result = await state.run(loginArgs(target, ...(options.args ?? [])), {
        input: SECRET,
        env: options.env,
      });
      expect(result.exitCode, result.stderr).toBe(0);
      return result;
    },
    /** Logs SHOP in to the sandbox, then empties the sandbox's journal: a test sees only what it sends. */
    async loginAfresh() {
      await state.login();
      await call(sb.url, 'DELETE', '/_sandbox/journal');
    },
    /** Every order the sandbox holds, in the order they were created. */
    orders: () => sandboxOrders(sb.url),
  };
  beforeEach(() => {
    state.dir = tempDir();
    state.run = cliFor({ configDir: state.dir, url: sb.url, env: clockEnv });
  });
  return state;
}

/** Environment variables that log the SHOP account in without a stored login. */
export const SHOP_ENV = {
  PAYORDER_USERNAME: SHOP.username,
  PAYORDER_CLIENT_ID: SHOP.clientId,
  PAYORDER_CLIENT_SECRET_ID: SHOP.clientSecretId,
};

export const loginArgs = (env = 'sandbox', ...extra: string[]) => [
  'login',
  '--env',
  env,
  '--username',
  SHOP.username,
  '--client-id',
  SHOP.clientId,
  '--client-secret-stdin',
  ...extra,
];
