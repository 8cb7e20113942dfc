import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SECRET, SHOP } from '../helpers/cli.js';
import { loginArgs, SHOP_ENV, useE2E } from '../helpers/e2e.js';
import { call, journal, orderBody } from '../helpers/sandbox.js';

const e2e = useE2E();
const DAY = 86_400_000;
const store = () => JSON.parse(readFileSync(join(e2e.dir, 'config.json'), 'utf8'));

async function loginAndOrder(): Promise<string> {
  expect((await e2e.run(loginArgs(), { input: SECRET })).exitCode).toBe(0);
  const token = store().environments.sandbox.tokens.v2.accessToken;
  return (await call(e2e.sb.url, 'POST', '/v2/api/checkout', orderBody('v2'), token)).body.uuid;
}

describe('tokens', () => {
  it('are reused until shortly before expiry, then renewed silently', async () => {
    const uuid = await loginAndOrder();
    const first = store().environments.sandbox.tokens.v2;
    expect((await e2e.run(['order', 'get', uuid, '--env', 'sandbox'])).exitCode).toBe(0);
    expect(await journal(e2e.sb.url, 'token')).toHaveLength(1);

    // 30 s before expiry by payorder's clock: inside the renewal margin.
    const later = new Date(Date.parse(first.expiresAt) - 30_000);
    await call(e2e.sb.url, 'POST', '/_sandbox/clock', { now: later.toISOString() });
    const result = await e2e.run(['order', 'get', uuid, '--env', 'sandbox'], {
      env: { PAYORDER_NOW: later.toISOString() },
    });
    expect(result.exitCode).toBe(0);
    expect(await journal(e2e.sb.url, 'token')).toHaveLength(2);
    expect(store().environments.sandbox.tokens.v2.accessToken).not.toBe(first.accessToken);
    expect(store().environments.sandbox.tokens.v2.expiresAt).toBe(
      new Date(later.getTime() + DAY).toISOString(),
    );
  });

  it('a 403 explicit deny (expired) renews once and repeats the request once', async () => {
    const uuid = await loginAndOrder();
    await call(e2e.sb.url, 'DELETE', '/_sandbox/journal');
    await call(e2e.sb.url, 'POST', '/_sandbox/clock', { advance: 86_401 });
    const result = await e2e.run(['order', 'get', uuid, '--env', 'sandbox', '--json']);
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout).uuid).toBe(uuid);
    expect((await journal(e2e.sb.url)).map((e) => `${e.route} ${e.status}`)).toEqual([
      'lookup 403',
      'token 200',
      'lookup 200',
    ]);
  });

  it('a second explicit deny is not retried again', async () => {
    const uuid = await loginAndOrder();
    await call(e2e.sb.url, 'DELETE', '/_sandbox/journal');
    await call(e2e.sb.url, 'POST', '/_sandbox/force', { route: 'lookup', error: 'expired', times: 5 });
    const result = await e2e.run(['order', 'get', uuid, '--env', 'sandbox']);
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toContain('refused the access token as expired');
    expect((await journal(e2e.sb.url)).map((e) => e.route)).toEqual(['lookup', 'token', 'lookup']);
  });

  it('16 parallel invocations with an expired token share one renewal, and a concurrent login to another environment is kept', async () => {
    const uuid = await loginAndOrder();
    await call(e2e.sb.url, 'DELETE', '/_sandbox/journal');
    const later = new Date(Date.now() + 2 * DAY).toISOString();
    await call(e2e.sb.url, 'POST', '/_sandbox/clock', { now: later });
    const env = { PAYORDER_NOW: later };
    const runs = Array.from({ length: 16 }, () =>
      e2e.run(['order', 'get', uuid, '--env', 'sandbox', '--json'], { env }),
    );
    runs.splice(8, 0, e2e.run(['login', '--env', 'stage'], { env: { ...env, ...SHOP_ENV } }));
    const results = await Promise.all(runs);
    for (const result of results) expect(result.exitCode, result.stderr).toBe(0);
    const tokens = await journal(e2e.sb.url, 'token');
    expect(tokens).toHaveLength(2);
    expect(tokens.filter((t) => t.version === 'v2')).toHaveLength(2);
    expect((await journal(e2e.sb.url, 'lookup')).every((e) => e.status === 200)).toBe(true);
    const data = store();
    expect(data.environments.stage.credentials).toEqual(SHOP);
    expect(data.environments.sandbox.credentials).toEqual(SHOP);
    expect(Date.parse(data.environments.sandbox.tokens.v2.expiresAt)).toBe(Date.parse(later) + DAY);
  });
});

describe('credentials from the environment (CI)', () => {
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
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout).amount).toBe('3.20');
    expect(store().environments.sandbox.credentials).toBeUndefined();
  });

  it('without them and without a login: exit 4 and how to log in', async () => {
    const result = await e2e.run(['order', 'get', 'x', '--env', 'sandbox']);
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toContain('error: not logged in to sandbox');
    expect(result.stderr).toContain('payorder login --env sandbox');
  });
});

describe('status, token, logout', () => {
  it('status shows the login without secret or token, and exits 4 when not logged in', async () => {
    const none = await e2e.run(['status', '--env', 'sandbox', '--json']);
    expect(none.exitCode).toBe(4);
    expect(JSON.parse(none.stdout).environments[0].logged_in).toBe(false);

    await loginAndOrder();
    const result = await e2e.run(['status', '--json']);
    expect(result.exitCode, result.stderr).toBe(4); // the default environment (stage) has no login
    const sandbox = JSON.parse(result.stdout).environments.find((e: any) => e.env === 'sandbox');
    expect(sandbox).toMatchObject({
      logged_in: true,
      username: SHOP.username,
      client_id: SHOP.clientId,
      credentials_source: 'store',
      api: 'v2',
    });
    expect(sandbox.addresses.v2).toEqual({ auth: e2e.sb.url, checkout: e2e.sb.url });
    expect(sandbox.tokens.v2.valid).toBe(true);
    expect(sandbox.tokens.v2.seconds_left).toBeGreaterThan(86_000);

    const chosen = await e2e.run(['status', '--env', 'sandbox']);
    expect(chosen.exitCode).toBe(0);
    const viaEnv = await e2e.run(['status'], { env: { PAYORDER_ENV: 'sandbox' } });
    expect(viaEnv.exitCode).toBe(0);
  });

  it('token prints a valid token for scripts', async () => {
    await loginAndOrder();
    const result = await e2e.run(['token', '--env', 'sandbox'], { printsToken: true });
    expect(result.exitCode).toBe(0);
    expect(result.stdout.trim()).toBe(store().environments.sandbox.tokens.v2.accessToken);
    const v1 = await e2e.run(['token', '--env', 'sandbox', '--api', 'v1'], { printsToken: true });
    expect(v1.stdout).toMatch(/^eyJ/);
    expect((await journal(e2e.sb.url, 'token')).map((t) => t.version)).toEqual(['v2', 'v1']);
  });

  it('logout forgets credentials and tokens, keeps addresses; --all every environment', async () => {
    await loginAndOrder();
    await e2e.run(['config', 'set', 'sandbox.v1.auth-url', 'http://127.0.0.1:1']);
    const result = await e2e.run(['logout', '--env', 'sandbox']);
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toContain('Logged out of sandbox');
    expect(store().environments.sandbox).toEqual({ addresses: { v1: { auth: 'http://127.0.0.1:1' } } });
    expect((await e2e.run(['logout', '--all'])).stderr).toContain('Nothing to log out of');
  });
});
