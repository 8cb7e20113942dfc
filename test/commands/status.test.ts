import { describe, expect, it } from 'vitest';
import type { CachedToken } from '../../src/store/profile-data.js';
import { expectNoLeak, SHOP } from '../helpers/cli.js';
import { runInProcess } from '../helpers/context.js';
import { useE2E } from '../helpers/e2e.js';
import { journal } from '../helpers/sandbox.js';

const e2e = useE2E();

/** When the tests log in, by payorder's clock: the token then expires one sandbox token lifetime later. */
const LOGIN_AT = '2026-11-02T10:00:00.000Z';

async function login(): Promise<CachedToken> {
  await e2e.login('sandbox', { env: { PAYORDER_NOW: LOGIN_AT } });
  return e2e.cachedToken();
}

/** The time `ms` before `token` expires. */
const beforeExpiry = (token: CachedToken, ms: number) =>
  new Date(Date.parse(token.expiresAt) - ms).toISOString();

async function statusAt(now: string) {
  const result = await e2e.run(['status', '--env', 'sandbox', '--json'], { env: { PAYORDER_NOW: now } });
  expect(result.exitCode, result.stderr).toBe(0);
  return JSON.parse(result.stdout).environments[0];
}

describe('payorder status', () => {
  it('shows the login without secret or token, and exits 4 when not logged in', async () => {
    const none = await e2e.run(['status', '--env', 'sandbox', '--json']);
    expect(none.exitCode).toBe(4);
    expect(JSON.parse(none.stdout)).toMatchObject({
      current: 'sandbox',
      profile: 'default',
      profiles: ['default'],
    });
    expect(JSON.parse(none.stdout).environments).toEqual([
      {
        profile: 'default',
        env: 'sandbox',
        current: true,
        logged_in: false,
        credentials_source: null,
        secret_storage: null,
        username: null,
        client_id: null,
        api: 'v2',
        addresses: {
          v1: { auth: e2e.sb.url, checkout: e2e.sb.url },
          v2: { auth: e2e.sb.url, checkout: e2e.sb.url },
        },
        tokens: { v1: null, v2: null },
      },
    ]);
    expect(JSON.parse(none.stderr)).toEqual({
      error: {
        kind: 'auth',
        message: 'not logged in to sandbox',
        exit_code: 4,
        code: null,
        status: null,
        field: null,
        hint: 'payorder login --env sandbox',
      },
    });

    const token = await login();
    const ttl = e2e.sb.sandbox.core.tokenTtlSeconds;
    expect(token.expiresAt).toBe(new Date(Date.parse(LOGIN_AT) + ttl * 1000).toISOString());
    const result = await e2e.run(['status', '--json'], { env: { PAYORDER_NOW: LOGIN_AT } });
    expect(result.exitCode, result.stderr).toBe(4); // the default environment (stage) has no login
    const report = JSON.parse(result.stdout);
    expect(report.current).toBe('stage');
    expect(report.environments.map((e: any) => [e.env, e.logged_in])).toEqual([
      ['stage', false],
      ['sandbox', true],
    ]);
    expect(report.environments[1]).toEqual({
      profile: 'default',
      env: 'sandbox',
      current: false,
      logged_in: true,
      credentials_source: 'store',
      secret_storage: 'file',
      username: SHOP.username,
      client_id: SHOP.clientId,
      api: 'v2',
      addresses: {
        v1: { auth: e2e.sb.url, checkout: e2e.sb.url },
        v2: { auth: e2e.sb.url, checkout: e2e.sb.url },
      },
      tokens: { v1: null, v2: { expires_at: token.expiresAt, seconds_left: ttl, valid: true } },
    });

    const chosen = await e2e.run(['status', '--env', 'sandbox']);
    expect(chosen.exitCode).toBe(0);
    expect(JSON.parse(chosen.stdout).current).toBe('sandbox');
    const viaEnv = await e2e.run(['status'], { env: { PAYORDER_ENV: 'sandbox' } });
    expect(viaEnv.exitCode).toBe(0);
    expect(JSON.parse(viaEnv.stdout).current).toBe('sandbox');
  });

  it('on a terminal: a readable summary with how long the token lasts', async () => {
    await login();
    const result = await runInProcess(['status', '--env', 'sandbox'], {
      env: e2e.env({ PAYORDER_NOW: '2026-11-02T13:30:00Z', NO_COLOR: '1' }),
      stdoutIsTTY: true,
    });
    expectNoLeak(result);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe(
      [
        `store ${e2e.storeFile()}`,
        '',
        'sandbox (current)',
        `  ✓ logged in as ${SHOP.username}, client id ${SHOP.clientId} (from store; client secret in the store file)`,
        '  api v2',
        `  v1: auth ${e2e.sb.url}, checkout ${e2e.sb.url}`,
        `  v2: auth ${e2e.sb.url}, checkout ${e2e.sb.url}; token 20 h 30 min left`,
        '',
      ].join('\n'),
    );
  });

  it('on a terminal, names from the environment or the store are shown escaped, never as terminal codes', async () => {
    const result = await runInProcess(['status', '--env', 'sandbox'], {
      env: e2e.env({
        NO_COLOR: '1',
        PAYORDER_USERNAME: 'u\u001b]0;PWNED\u0007\u001b[2J',
        PAYORDER_CLIENT_ID: 'c\u009b31m',
        PAYORDER_CLIENT_SECRET_ID: SHOP.clientSecretId,
      }),
      stdoutIsTTY: true,
    });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    expect(result.stdout).toContain('logged in as u\\u001b]0;PWNED\\u0007\\u001b[2J, client id c\\u009b31m');
  });

  it('says a token is valid exactly when payorder token would use it without renewing', async () => {
    const token = await login();

    // 61 s before expiry: outside the renewal margin.
    const outside = beforeExpiry(token, 61_000);
    expect((await statusAt(outside)).tokens.v2).toEqual({
      expires_at: token.expiresAt,
      seconds_left: 61,
      valid: true,
    });
    const reused = await e2e.run(['token', '--env', 'sandbox'], {
      env: { PAYORDER_NOW: outside },
      printsToken: true,
    });
    expect(reused.stdout).toBe(`${token.accessToken}\n`);
    expect(await journal(e2e.sb.url, 'token')).toHaveLength(1);

    // 30 s before expiry: inside it. status says not valid, and token renews.
    const inside = beforeExpiry(token, 30_000);
    expect((await statusAt(inside)).tokens.v2).toEqual({
      expires_at: token.expiresAt,
      seconds_left: 30,
      valid: false,
    });
    const renewed = await e2e.run(['token', '--env', 'sandbox'], {
      env: { PAYORDER_NOW: inside },
      printsToken: true,
    });
    expect(renewed.exitCode, renewed.stderr).toBe(0);
    expect(await journal(e2e.sb.url, 'token')).toHaveLength(2);
    const next = e2e.cachedToken();
    expect(next.accessToken).not.toBe(token.accessToken);
    expect(renewed.stdout).toBe(`${next.accessToken}\n`);
    expect((await statusAt(inside)).tokens.v2).toEqual({
      expires_at: next.expiresAt,
      seconds_left: e2e.sb.sandbox.core.tokenTtlSeconds,
      valid: true,
    });
  });

  it('on a terminal, a token inside the renewal margin is shown as not valid', async () => {
    const token = await login();
    const result = await runInProcess(['status', '--env', 'sandbox'], {
      env: e2e.env({ PAYORDER_NOW: beforeExpiry(token, 30_000), NO_COLOR: '1' }),
      stdoutIsTTY: true,
    });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain(`  v2: auth ${e2e.sb.url}, checkout ${e2e.sb.url}; token not valid\n`);
  });
});
