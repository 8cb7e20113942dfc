/**
 * One in-process sandbox per test file (with the test account and the SHOP account whose secret must
 * never leak) and a fresh config folder per test, with the built CLI pointed at both.
 */
import { beforeEach } from 'vitest';
import { TEST_ACCOUNT } from '../../src/sandbox/accounts.js';
import { cliEnv, cliFor, SHOP, tempDir } from './cli.js';
import { useSandbox } from './sandbox.js';

export function useE2E(options: Parameters<typeof useSandbox>[0] = {}) {
  const sb = useSandbox({ accounts: [TEST_ACCOUNT, SHOP], ...options });
  const state = {
    sb,
    dir: '',
    run: undefined as unknown as ReturnType<typeof cliFor>,
    /** The environment the CLI runs with, for tests that start it themselves. */
    env: (extra: Record<string, string | undefined> = {}) =>
      cliEnv({ configDir: state.dir, url: sb.url }, extra),
  };
  beforeEach(() => {
    state.dir = tempDir();
    state.run = cliFor({ configDir: state.dir, url: sb.url });
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
