import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { TEST_ACCOUNT } from '../../src/sandbox/accounts.js';
import { CREDENTIAL_VARIABLES, findCredentials, requireCredentials } from '../../src/session/credentials.js';
import { tokenKey } from '../../src/session/token-cache.js';
import type { StoreData } from '../../src/store/profile-data.js';
import { SHOP } from '../helpers/cli.js';
import { testContext } from '../helpers/context.js';
import { SHOP_ENV, useE2E } from '../helpers/e2e.js';
import { refusal } from '../helpers/refusal.js';
import { journal } from '../helpers/sandbox.js';

const STORED: StoreData = { environments: { sandbox: { credentials: TEST_ACCOUNT } } };
const ctxWith = (env: Record<string, string | undefined> = {}) => testContext({ env }).ctx;

describe('which credentials a command uses', () => {
  it('the three PAYORDER_ variables win over the stored login', () => {
    expect(findCredentials(ctxWith(SHOP_ENV), STORED, { profile: 'default', env: 'sandbox' })).toEqual({
      credentials: SHOP,
      source: 'environment variables',
      secretIn: 'environment variables',
    });
  });

  it('none of them set (or all empty): the stored login', () => {
    const empty = Object.fromEntries(CREDENTIAL_VARIABLES.map((name) => [name, '']));
    for (const env of [{}, empty])
      expect(findCredentials(ctxWith(env), STORED, { profile: 'default', env: 'sandbox' })).toEqual({
        credentials: TEST_ACCOUNT,
        source: 'store',
        secretIn: 'file',
      });
  });

  it.each([
    [
      ['PAYORDER_USERNAME'],
      'PAYORDER_CLIENT_ID and PAYORDER_CLIENT_SECRET_ID are set but PAYORDER_USERNAME is not',
    ],
    [
      ['PAYORDER_CLIENT_ID'],
      'PAYORDER_USERNAME and PAYORDER_CLIENT_SECRET_ID are set but PAYORDER_CLIENT_ID is not',
    ],
    [
      ['PAYORDER_CLIENT_SECRET_ID'],
      'PAYORDER_USERNAME and PAYORDER_CLIENT_ID are set but PAYORDER_CLIENT_SECRET_ID is not',
    ],
    [
      ['PAYORDER_CLIENT_ID', 'PAYORDER_CLIENT_SECRET_ID'],
      'PAYORDER_USERNAME is set but PAYORDER_CLIENT_ID and PAYORDER_CLIENT_SECRET_ID are not',
    ],
  ])('without %s, the others set: a usage error naming it, never the stored login', (unset, message) => {
    for (const value of [undefined, '']) {
      const env = { ...SHOP_ENV, ...Object.fromEntries(unset.map((name) => [name, value])) };
      const error = refusal(() =>
        findCredentials(ctxWith(env), STORED, { profile: 'default', env: 'sandbox' }),
      );
      expect([error.kind, error.exitCode, error.message, error.details.field]).toEqual([
        'usage',
        2,
        message,
        unset[0],
      ]);
    }
  });

  it("the stored login is the environment's own", () => {
    expect(findCredentials(ctxWith(), STORED, { profile: 'default', env: 'stage' })).toBeUndefined();
  });

  it('none at all: an auth error (exit 4) saying how to log in', () => {
    const { kind, exitCode, message, details } = refusal(() =>
      requireCredentials(ctxWith(), STORED, { profile: 'default', env: 'stage' }),
    );
    expect({ kind, exitCode, message, hint: details.hint }).toEqual({
      kind: 'auth',
      exitCode: 4,
      message: 'not logged in to stage',
      hint: 'run payorder login --env stage, or set PAYORDER_USERNAME, PAYORDER_CLIENT_ID, PAYORDER_CLIENT_SECRET_ID',
    });
  });
});

describe('credentials from the environment (CI)', () => {
  const e2e = useE2E();

  it('work without a stored login', async () => {
    const result = await e2e.run(
      [
        'order',
        'create',
        '--env',
        'sandbox',
        '--amount',
        '3.20',
        '--description',
        'CI',
        '--success',
        'https://s.example/ok',
        '--fail',
        'https://s.example/ko',
        '--json',
      ],
      { env: SHOP_ENV },
    );
    expect(result.exitCode, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout).amount).toBe('3.20');
    expect((await journal(e2e.sb.url, 'token')).map((t) => t.body.username)).toEqual([SHOP.username]);
    // The token is cached for the next run; the credentials are not stored.
    const target = {
      profile: 'default',
      env: 'sandbox',
      version: 'v2',
      authBase: e2e.sb.url,
      checkoutBase: e2e.sb.url,
    } as const;
    const sandbox = e2e.store().environments?.sandbox;
    expect(sandbox?.credentials).toBeUndefined();
    expect(Object.keys(sandbox?.tokens ?? {})).toEqual([tokenKey(target, SHOP)]);
  });

  it('without them and without a login: exit 4 and how to log in, nothing sent', async () => {
    const result = await e2e.run(['order', 'get', 'x', '--env', 'sandbox']);
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toBe(
      'error: not logged in to sandbox\nhint: run payorder login --env sandbox, or set PAYORDER_USERNAME, PAYORDER_CLIENT_ID, PAYORDER_CLIENT_SECRET_ID\n',
    );
    expect(await journal(e2e.sb.url)).toEqual([]);
    expect(existsSync(e2e.storeFile())).toBe(false);
  });
});
