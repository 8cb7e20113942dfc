/**
 * Named profiles, end to end against the sandbox: two merchants' logins side by side on one
 * environment, each command using its own profile's login and token (the sandbox shows whose token
 * created an order), status listing every profile, logout of one leaving the others, keychain
 * entries that do not overwrite each other, names refused before anything is sent, and a store
 * written before profiles existed read as the default profile.
 */
import { chmodSync, copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SANDBOX_DEFAULT_URL } from '../../src/contract/environments.js';
import { EXIT } from '../../src/errors.js';
import { TEST_ACCOUNT } from '../../src/sandbox/accounts.js';
import type { KeychainAccess } from '../../src/store/keychain.js';
import { cliFor, orderFlags, SECRET, SHOP } from '../helpers/cli.js';
import { runInProcess } from '../helpers/context.js';
import { loginArgs, useE2E } from '../helpers/e2e.js';
import { call, journal } from '../helpers/sandbox.js';

/** The second merchant's account; its secret must never be printed either. */
const SHOP_B = { username: 'second-shop', clientId: 'shop-b-client', clientSecretId: 'Second-Secret-4411' };

const e2e = useE2E({ accounts: [TEST_ACCOUNT, SHOP, SHOP_B] }, { beforeSunset: true });

const FIXTURE = resolve(import.meta.dirname, '../fixtures/store/before-profiles.json');

const ORDER = ['order', 'create', '--env', 'sandbox', ...orderFlags({ amount: '5', description: 'Tea' })];

async function run(args: string[], env: Record<string, string> = {}) {
  const result = await e2e.run(args, { env });
  expect(result.stdout + result.stderr).not.toContain(SHOP_B.clientSecretId);
  return result;
}

async function loginB(...extra: string[]) {
  const result = await e2e.run(
    [
      'login',
      '--env',
      'sandbox',
      '--profile',
      'shop-b',
      '--username',
      SHOP_B.username,
      '--client-id',
      SHOP_B.clientId,
      '--client-secret-stdin',
      '--insecure-storage',
      ...extra,
    ],
    { input: SHOP_B.clientSecretId },
  );
  expect(result.exitCode, result.stderr).toBe(0);
  return result;
}

/** The owner of each order the sandbox holds: the username of the token that created it. */
async function owners(): Promise<string[]> {
  return (await e2e.orders()).map((order) => order.owner);
}

describe('named profiles', () => {
  it('two merchants on one environment: each command uses its own profile’s login and token', async () => {
    await e2e.login('sandbox', { args: ['--insecure-storage'] });
    const loggedIn = await loginB('--json');
    expect(JSON.parse(loggedIn.stdout)).toMatchObject({
      profile: 'shop-b',
      env: 'sandbox',
      username: SHOP_B.username,
    });
    expect(loggedIn.stderr).toContain(`Logged in to sandbox with profile shop-b (v2) as ${SHOP_B.username}`);

    const store = e2e.store();
    expect(store.environments?.sandbox?.credentials).toEqual(SHOP);
    expect(store.profiles?.['shop-b']?.environments?.sandbox?.credentials).toEqual(SHOP_B);
    const tokenOf = (tokens: Record<string, { accessToken: string; clientId: string }> | undefined) =>
      Object.values(tokens ?? {}).map((token) => token.clientId);
    expect(tokenOf(store.environments?.sandbox?.tokens)).toEqual([SHOP.clientId]);
    expect(tokenOf(store.profiles?.['shop-b']?.environments?.sandbox?.tokens)).toEqual([SHOP_B.clientId]);

    // One order each way: the default, --profile, and PAYORDER_PROFILE. Both logins' tokens are
    // cached, for the same addresses: no new token is requested, and each order is created with the
    // token of its own profile's account.
    const tokensBefore = (await journal(e2e.sb.url, 'token')).length;
    for (const [args, env] of [
      [ORDER, {}],
      [[...ORDER, '--profile', 'shop-b'], {}],
      [ORDER, { PAYORDER_PROFILE: 'shop-b' }],
      [[...ORDER, '--profile', 'default'], { PAYORDER_PROFILE: 'shop-b' }],
    ] as const) {
      const result = await run([...args], env);
      expect(result.exitCode, result.stderr).toBe(0);
    }
    expect(await owners()).toEqual([SHOP.username, SHOP_B.username, SHOP_B.username, SHOP.username]);
    expect((await journal(e2e.sb.url, 'token')).length).toBe(tokensBefore);

    // An order of one merchant is not found with the other's login.
    const [first, second] = await e2e.orders();
    const crossed = await run(['order', 'get', first.uuid, '--env', 'sandbox', '--profile', 'shop-b']);
    expect(crossed.exitCode).toBe(1);
    const own2 = await run(['order', 'get', second.uuid, '--env', 'sandbox', '--profile', 'shop-b']);
    expect(own2.exitCode, own2.stderr).toBe(0);
    expect(JSON.parse(own2.stdout).uuid).toBe(second.uuid);

    // payorder token prints each profile's own cached token.
    const tokenA = await e2e.run(['token', '--env', 'sandbox'], { printsToken: true });
    const tokenB = await e2e.run(['token', '--env', 'sandbox', '--profile', 'shop-b'], { printsToken: true });
    expect(tokenA.stdout.trim()).toBe(Object.values(store.environments!.sandbox!.tokens!)[0]!.accessToken);
    expect(tokenB.stdout.trim()).toBe(
      Object.values(store.profiles!['shop-b']!.environments!.sandbox!.tokens!)[0]!.accessToken,
    );
    expect(tokenA.stdout).not.toBe(tokenB.stdout);
  });

  it('a profile without a login is not logged in, whatever the others have; nothing is sent', async () => {
    await e2e.login('sandbox', { args: ['--insecure-storage'] });
    const result = await run([...ORDER, '--profile', 'shop-c']);
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toBe(
      'error: not logged in to sandbox (profile shop-c)\n' +
        'hint: run payorder login --env sandbox --profile shop-c, or set PAYORDER_USERNAME, PAYORDER_CLIENT_ID, PAYORDER_CLIENT_SECRET_ID\n',
    );
    expect(await routesAfterLogin()).toEqual([]);
  });

  it('status lists every profile, in text and JSON; --profile shows one', async () => {
    await e2e.login('sandbox', { args: ['--insecure-storage'] });
    await loginB();
    const json = await run(['status', '--json'], { PAYORDER_ENV: 'sandbox' });
    expect(json.exitCode, json.stderr).toBe(0);
    const report = JSON.parse(json.stdout);
    expect(report).toMatchObject({ current: 'sandbox', profile: 'default', profiles: ['default', 'shop-b'] });
    expect(
      report.environments.map((s: any) => [s.profile, s.env, s.current, s.logged_in, s.username]),
    ).toEqual([
      ['default', 'sandbox', true, true, SHOP.username],
      ['shop-b', 'sandbox', false, true, SHOP_B.username],
    ]);

    const chosen = await run(['status', '--profile', 'shop-b', '--json'], { PAYORDER_ENV: 'sandbox' });
    expect(chosen.exitCode, chosen.stderr).toBe(0);
    expect(JSON.parse(chosen.stdout)).toMatchObject({ profile: 'shop-b', profiles: ['default', 'shop-b'] });
    expect(JSON.parse(chosen.stdout).environments.map((s: any) => [s.profile, s.current])).toEqual([
      ['shop-b', true],
    ]);

    // A profile that has no login for the chosen environment is listed with it, and exits 4.
    const missing = await run(['status', '--json'], { PAYORDER_ENV: 'stage', PAYORDER_PROFILE: 'shop-b' });
    expect(missing.exitCode).toBe(4);
    expect(JSON.parse(missing.stderr).error.hint).toBe('payorder login --env stage --profile shop-b');

    const text = await runInProcess(['status', '--env', 'sandbox'], {
      env: e2e.env({ NO_COLOR: '1' }),
      stdoutIsTTY: true,
    });
    expect(text.exitCode, text.stderr).toBe(0);
    const headings = text.stdout.split('\n').filter((line) => /^\S/.test(line) && !line.startsWith('store'));
    expect(headings).toEqual(['sandbox (current)', 'sandbox, profile shop-b']);
    expect(text.stdout).toContain(`logged in as ${SHOP_B.username}, client id ${SHOP_B.clientId}`);
  });

  it('logout of one profile leaves the others; a profile logged out of everything is gone', async () => {
    await e2e.login('sandbox', { args: ['--insecure-storage'] });
    await loginB();
    const out = await run(['logout', '--env', 'sandbox', '--profile', 'shop-b']);
    expect(out.exitCode, out.stderr).toBe(0);
    expect(out.stderr).toBe('Logged out of sandbox (profile shop-b)\n');
    expect(e2e.store().profiles).toBeUndefined();
    expect(e2e.store().environments?.sandbox?.credentials).toEqual(SHOP);
    expect((await run(ORDER)).exitCode).toBe(0);

    await loginB();
    expect((await run(['logout', '--all'])).stderr).toBe('Logged out of sandbox\n');
    expect(e2e.store().environments?.sandbox?.credentials).toBeUndefined();
    const stillB = await run([...ORDER, '--profile', 'shop-b']);
    expect(stillB.exitCode, stillB.stderr).toBe(0);
    expect(await owners()).toEqual([SHOP.username, SHOP_B.username]);
  });

  it('a profile uses the stored addresses, or its own when its login was given them', async () => {
    // Without the sandbox's address in the environment: the stored addresses are what is used.
    const stored = cliFor({ configDir: e2e.dir });
    const url = e2e.sb.url;
    const own = await stored(
      [...loginArgs('sandbox', '--profile', 'shop-b', '--auth-url', url, '--checkout-url', url)],
      { input: SECRET },
    );
    expect(own.exitCode, own.stderr).toBe(0);
    const status = JSON.parse((await stored(['status', '--env', 'sandbox', '--json'])).stdout);
    expect(status.environments.map((s: any) => [s.profile, s.addresses.v2.auth])).toEqual([
      ['default', SANDBOX_DEFAULT_URL],
      ['shop-b', url],
    ]);
    expect((await stored([...ORDER, '--profile', 'shop-b'])).exitCode).toBe(0);

    // Addresses set with config are the default profile's, and every profile without its own uses them.
    for (const kind of ['auth', 'checkout'])
      expect((await stored(['config', 'set', `sandbox.v2.${kind}-url`, url])).exitCode).toBe(0);
    const other = await stored([...loginArgs('sandbox', '--profile', 'shop-c')], { input: SECRET });
    expect(other.exitCode, other.stderr).toBe(0);
    expect((await stored([...ORDER, '--profile', 'shop-c'])).exitCode).toBe(0);
    expect(e2e.store().profiles?.['shop-c']?.environments?.sandbox?.addresses).toBeUndefined();
  });

  it("a profile's own addresses are a pair: never one of its own with the default profile's other", async () => {
    const stored = cliFor({ configDir: e2e.dir });
    const url = e2e.sb.url;
    const other = 'http://127.0.0.1:9';
    const first = await stored([...loginArgs('sandbox', '--auth-url', url, '--checkout-url', url)], {
      input: SECRET,
    });
    expect(first.exitCode, first.stderr).toBe(0);
    await call(url, 'DELETE', '/_sandbox/journal');
    // One address alone for a profile that has none: refused, nothing sent.
    const alone = await stored([...loginArgs('sandbox', '--profile', 'shop-b', '--auth-url', other)], {
      input: SECRET,
    });
    expect(alone.exitCode).toBe(EXIT.usage);
    expect(alone.stderr).toContain(
      'error: --auth-url and --checkout-url go together for profile shop-b: give --checkout-url too',
    );
    expect(await journal(e2e.sb.url)).toHaveLength(0);
    // A store that holds one own address (written by hand): the profile is not used with the other
    // address borrowed from the default profile; the order is refused before any token is asked for.
    const data = e2e.store();
    data.profiles = {
      'shop-b': { environments: { sandbox: { addresses: { v2: { auth: other } } } } },
    } as typeof data.profiles;
    writeFileSync(e2e.storeFile(), JSON.stringify(data), { mode: 0o600 });
    const order = await stored([...ORDER, '--profile', 'shop-b']);
    expect(order.exitCode).toBe(EXIT.usage);
    expect(order.stderr).toContain(
      'error: profile shop-b has its own addresses for sandbox v2 but no checkout address',
    );
    expect(await journal(e2e.sb.url)).toHaveLength(0);
  });

  it("migrate-check: --config checks every profile's logins, --live uses the chosen profile's", async () => {
    await e2e.login('sandbox', { args: ['--insecure-storage'] });
    await loginB('--api', 'v1');
    const config = await run(['migrate-check', '--config', '--json']);
    expect(JSON.parse(config.stdout).findings).toMatchObject([
      {
        rule: 'PO302',
        message: 'sandbox (profile shop-b) uses API v1 by default',
        location: { pointer: '/profiles/shop-b/environments/sandbox' },
        fix: 'payorder login --env sandbox --profile shop-b --api v2',
      },
    ]);

    const before = (await journal(e2e.sb.url, 'token')).length;
    const live = await run(['migrate-check', '--live', 'sandbox', '--profile', 'shop-b', '--json']);
    expect(live.exitCode, live.stderr).toBe(0);
    expect(JSON.parse(live.stdout).findings[0]).toMatchObject({
      rule: 'PO303',
      location: { pointer: '/profiles/shop-b/environments/sandbox' },
    });
    const requests = await journal(e2e.sb.url, 'token');
    expect(requests.slice(before).map((entry) => entry.body.username)).toEqual([SHOP_B.username]);

    const bad = await run(['migrate-check', '--live', 'sandbox', '--profile', 'Shop B']);
    expect(bad.exitCode).toBe(2);
    expect((await journal(e2e.sb.url, 'token')).length).toBe(before + 1);
  });

  it.each([
    [['--profile', 'Shop B'], {}, '--profile: "Shop B" is not a profile name'],
    [['--profile', '../shop'], {}, '--profile: "../shop" is not a profile name'],
    [['--profile', ''], {}, '--profile: "" is not a profile name'],
    [[], { PAYORDER_PROFILE: 'shop/b' }, 'PAYORDER_PROFILE: "shop/b" is not a profile name'],
    [['--profile', 'a'.repeat(33)], {}, `--profile: "${'a'.repeat(33)}" is not a profile name`],
  ])(
    'a name against the rule (%j %j) is refused in one line, exit 2, nothing sent',
    async (flags, env, message) => {
      const rule = 'use 1 to 32 lowercase letters, digits, "-" or "_", starting with a letter or digit';
      for (const command of [
        [...ORDER, ...flags],
        [...loginArgs('sandbox'), ...flags],
        ['order', 'get', 'x', '--env', 'sandbox', ...flags],
        ['token', '--env', 'sandbox', ...flags],
        ['status', ...flags],
        ['logout', '--all', ...flags],
      ]) {
        const result = await e2e.run(command, { env, input: SECRET });
        expect([result.exitCode, result.stderr], command.join(' ')).toEqual([
          2,
          `error: ${message}; ${rule}\n`,
        ]);
      }
      expect(await journal(e2e.sb.url)).toEqual([]);
    },
  );
});

/** What reached the sandbox after the logins: anything but the token requests they made. */
async function routesAfterLogin(): Promise<string[]> {
  return (await journal(e2e.sb.url)).filter((entry) => entry.route !== 'token').map((entry) => entry.path);
}

describe('the client secrets of two profiles with one client id in the keychain', () => {
  /** A keychain held in a map, shared by every run of the test. */
  const keychainOf = (entries: Map<string, string>): KeychainAccess => ({
    keychain: {
      read: async (account) => entries.get(account),
      write: async (account, secret) => {
        entries.set(account, secret);
      },
      remove: async (account) => entries.delete(account),
    },
  });

  it('each keeps its own entry (ENV:CLIENT_ID for the default), and logout of one leaves the other', async () => {
    const entries = new Map<string, string>();
    const runWith = (args: string[], options: { input?: string; now?: string } = {}) =>
      runInProcess(args, {
        env: e2e.env(options.now ? { PAYORDER_NOW: options.now } : {}),
        stdin: options.input,
        keychain: keychainOf(entries),
      });
    for (const profile of ['default', 'shop-b']) {
      const result = await runWith([...loginArgs('sandbox'), '--profile', profile], { input: SECRET });
      expect(result.exitCode, result.stderr).toBe(0);
      expect(result.stderr).toContain('the client secret in the OS keychain');
    }
    expect(Object.fromEntries(entries)).toEqual({
      [`sandbox:${SHOP.clientId}`]: SECRET,
      [`shop-b/sandbox:${SHOP.clientId}`]: SECRET,
    });
    expect(readFileSync(e2e.storeFile(), 'utf8')).not.toContain(SECRET);

    const out = await runWith(['logout', '--env', 'sandbox', '--profile', 'shop-b']);
    expect(out.exitCode, out.stderr).toBe(0);
    expect([...entries.keys()]).toEqual([`sandbox:${SHOP.clientId}`]);

    // Long after the cached token expired: the default profile renews with its secret from the keychain.
    const later = await runWith(ORDER, { now: '2027-06-01T00:00:00Z' });
    expect(later.exitCode, later.stderr).toBe(0);
  });
});

describe('a store written before profiles existed', () => {
  const install = () => {
    copyFileSync(FIXTURE, e2e.storeFile());
    chmodSync(e2e.storeFile(), 0o600);
  };

  it('is the default profile: status, orders and token renewal work as before', async () => {
    install();
    const status = await run(['status', '--env', 'sandbox', '--json']);
    expect(status.exitCode, status.stderr).toBe(0);
    const report = JSON.parse(status.stdout);
    expect(report.profiles).toEqual(['default']);
    expect(report.environments).toMatchObject([
      {
        profile: 'default',
        env: 'sandbox',
        logged_in: true,
        username: SHOP.username,
        secret_storage: 'file',
      },
    ]);

    const created = await run(ORDER);
    expect(created.exitCode, created.stderr).toBe(0);
    // A new token was cached in the default profile (the expired one dropped); no named profile appeared.
    const store = e2e.store();
    expect(store.profiles).toBeUndefined();
    expect(Object.values(store.environments?.sandbox?.tokens ?? {}).map((t) => t.clientId)).toEqual([
      SHOP.clientId,
    ]);
    expect(store.environments?.sandbox?.credentials).toEqual(SHOP);
    expect(store.defaults).toEqual({ output: 'json' });
  });

  it('gains a named profile beside it without changing what the default profile holds', async () => {
    install();
    const before = JSON.parse(readFileSync(FIXTURE, 'utf8'));
    await loginB();
    const store = e2e.store();
    expect(store.environments).toEqual(before.environments);
    expect(Object.keys(store.profiles ?? {})).toEqual(['shop-b']);
  });
});
