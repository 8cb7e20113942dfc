import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TEST_ACCOUNT } from '../../src/sandbox/accounts.js';
import { startSandbox } from '../../src/sandbox/server.js';
import type { CachedToken } from '../../src/store/profile-data.js';
import { SHOP, tempDir } from '../helpers/cli.js';
import { SHOP_ENV, useE2E } from '../helpers/e2e.js';
import { call, createOrder, journal, routesReached, sandboxOrders } from '../helpers/sandbox.js';
import { modeOf } from '../store/store-folder.js';

const e2e = useE2E();
const ttlMs = () => e2e.sb.sandbox.core.tokenTtlSeconds * 1000;

/** The v2 token cached for SHOP and the sandbox at `url` (the test file's sandbox by default). */
const cached = (url = e2e.sb.url) => e2e.cachedToken('v2', url);

/** Logs SHOP in to the sandbox and creates an order with the cached token; returns its uuid. */
async function loginAndOrder(): Promise<string> {
  await e2e.login();
  return (await createOrder(e2e.sb.url, cached().accessToken)).uuid;
}

describe('tokens', () => {
  it('are reused until shortly before expiry, then renewed silently', async () => {
    const uuid = await loginAndOrder();
    const first = cached();
    expect((await e2e.run(['order', 'get', uuid, '--env', 'sandbox'])).exitCode).toBe(0);
    expect(await journal(e2e.sb.url, 'token')).toHaveLength(1);

    // 61 s before expiry by payorder's clock: just outside the renewal margin, reused.
    const outside = new Date(Date.parse(first.expiresAt) - 61_000);
    await call(e2e.sb.url, 'POST', '/_sandbox/clock', { now: outside.toISOString() });
    const reused = await e2e.run(['order', 'get', uuid, '--env', 'sandbox'], {
      env: { PAYORDER_NOW: outside.toISOString() },
    });
    expect(reused.exitCode, reused.stderr).toBe(0);
    expect(await journal(e2e.sb.url, 'token')).toHaveLength(1);

    // 30 s before expiry: inside the renewal margin.
    const later = new Date(Date.parse(first.expiresAt) - 30_000);
    await call(e2e.sb.url, 'POST', '/_sandbox/clock', { now: later.toISOString() });
    const result = await e2e.run(['order', 'get', uuid, '--env', 'sandbox'], {
      env: { PAYORDER_NOW: later.toISOString() },
    });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).toBe('');
    expect(await journal(e2e.sb.url, 'token')).toHaveLength(2);
    const renewed = cached();
    expect(renewed.accessToken).not.toBe(first.accessToken);
    expect(renewed.expiresAt).toBe(new Date(later.getTime() + ttlMs()).toISOString());
  });

  it('a rehearsal of another date (PAYORDER_NOW) does not leave its clock in the cache: the real clock does not use its token', async () => {
    const uuid = await loginAndOrder();
    await call(e2e.sb.url, 'DELETE', '/_sandbox/journal');
    const rehearsed = new Date(Date.now() + 35 * 86_400_000).toISOString();
    const rehearsal = await e2e.run(['order', 'get', uuid, '--env', 'sandbox'], {
      env: { PAYORDER_NOW: rehearsed },
    });
    expect(rehearsal.exitCode, rehearsal.stderr).toBe(0);
    // Two days later, on the real clock: the service refuses that token by now.
    await call(e2e.sb.url, 'POST', '/_sandbox/clock', { advance: 2 * 86_400 });
    await call(e2e.sb.url, 'DELETE', '/_sandbox/journal');
    const status = await e2e.run(['status', '--env', 'sandbox', '--json']);
    expect(JSON.parse(status.stdout).environments[0].tokens.v2).toBeNull();
    const result = await e2e.run(['order', 'get', uuid, '--env', 'sandbox', '--field', 'uuid']);
    expect(result).toMatchObject({ exitCode: 0, stdout: `${uuid}\n` });
    expect(await routesReached(e2e.sb.url)).toEqual(['token 200', 'lookup 200']);
    // The token the real clock got is the one kept, on the real clock.
    expect(cached().rehearsal).toBeUndefined();
    expect(Date.parse(cached().expiresAt)).toBeLessThan(Date.now() + ttlMs() + 60_000);
  });

  it('a 403 explicit deny (expired) renews once and repeats the request once', async () => {
    const uuid = await loginAndOrder();
    const first = cached();
    await call(e2e.sb.url, 'DELETE', '/_sandbox/journal');
    await call(e2e.sb.url, 'POST', '/_sandbox/clock', { advance: 86_401 });
    const result = await e2e.run(['order', 'get', uuid, '--env', 'sandbox', '--json']);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout).uuid).toBe(uuid);
    expect(await routesReached(e2e.sb.url)).toEqual(['lookup 403', 'token 200', 'lookup 200']);
    expect(cached().accessToken).not.toBe(first.accessToken);
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
    const later = new Date(Date.now() + 2 * 86_400_000).toISOString();
    await call(e2e.sb.url, 'POST', '/_sandbox/clock', { now: later });
    const env = { PAYORDER_NOW: later };
    // Separate processes: what is shared is the store and its lock, not anything in memory.
    const runs = Array.from({ length: 16 }, () =>
      e2e.run(['order', 'get', uuid, '--env', 'sandbox', '--json'], { env, spawn: true }),
    );
    runs.splice(8, 0, e2e.run(['login', '--env', 'stage'], { env: { ...env, ...SHOP_ENV }, spawn: true }));
    const results = await Promise.all(runs);
    for (const result of results) expect(result.exitCode, result.stderr).toBe(0);
    // One renewal for the sandbox, one token request for the stage login.
    expect((await journal(e2e.sb.url, 'token')).map((t) => t.version)).toEqual(['v2', 'v2']);
    expect((await journal(e2e.sb.url, 'lookup')).map((e) => e.status)).toEqual(Array(16).fill(200));
    const data = e2e.store();
    expect(data.environments?.stage?.credentials).toEqual(SHOP);
    expect(data.environments?.sandbox?.credentials).toEqual(SHOP);
    expect(cached().expiresAt).toBe(new Date(Date.parse(later) + ttlMs()).toISOString());
  });

  it('a token cached for one auth address is never sent to another', async () => {
    const uuid = await loginAndOrder();
    const first = cached();
    const other = await startSandbox({ port: 0, accounts: [TEST_ACCOUNT, SHOP] });
    try {
      await call(e2e.sb.url, 'DELETE', '/_sandbox/journal');
      const elsewhere = await e2e.run(
        [
          'order',
          'create',
          '--env',
          'sandbox',
          '--amount',
          '2.50',
          '--description',
          'Elsewhere',
          '--success',
          'https://s.example/ok',
          '--fail',
          'https://s.example/ko',
          '--json',
        ],
        { env: { PAYORDER_AUTH_URL: other.url, PAYORDER_CHECKOUT_URL: other.url } },
      );
      expect(elsewhere.exitCode, elsewhere.stderr).toBe(0);
      // The other service was asked for a token of its own, and accepted it (a token signed by the
      // first sandbox is refused there with 401).
      expect(await routesReached(other.url)).toEqual(['token 200', 'checkout 200']);
      expect(await routesReached(e2e.sb.url)).toEqual([]);
      const second = cached(other.url);
      expect(await other.core.tokens.verify(second.accessToken)).toEqual({
        ok: true,
        claims: { sub: SHOP.username, client_id: SHOP.clientId, exp: expect.any(Number) },
      });
      expect(await other.core.tokens.verify(first.accessToken)).toEqual({ ok: false, reason: 'invalid' });

      // The first sandbox's token is still cached beside it and used without a new token request.
      expect(cached()).toEqual(first);
      const back = await e2e.run(['order', 'get', uuid, '--env', 'sandbox', '--json']);
      expect(back.exitCode, back.stderr).toBe(0);
      expect(JSON.parse(back.stdout).uuid).toBe(uuid);
      expect(await routesReached(e2e.sb.url)).toEqual(['lookup 200']);
      expect(await routesReached(other.url)).toEqual(['token 200', 'checkout 200']);
    } finally {
      await other.close();
    }
  });
});

describe('a restarted service (a new signing key)', () => {
  it('refuses the cached token with 401: renewed from the stored login and repeated, no new login needed', async () => {
    const stateFile = join(tempDir(), 'sandbox-state.ndjson');
    const accounts = [TEST_ACCOUNT, SHOP];
    const first = await startSandbox({ port: 0, accounts, stateFile });
    const env = { PAYORDER_AUTH_URL: first.url, PAYORDER_CHECKOUT_URL: first.url };
    const ORDER = [
      '--description',
      'Tea',
      '--success',
      'https://s.example/ok',
      '--fail',
      'https://s.example/ko',
    ];
    let uuid: string;
    let before: CachedToken;
    try {
      await e2e.login('sandbox', { env });
      const created = await e2e.run(['order', 'create', '--env', 'sandbox', '--amount', '1', ...ORDER], {
        env,
      });
      expect(created.exitCode, created.stderr).toBe(0);
      uuid = JSON.parse(created.stdout).uuid;
      before = cached(first.url);
    } finally {
      await first.close();
    }
    // The same address, the same accounts and orders (the state file), a new key: a restart.
    const second = await startSandbox({ port: first.port, accounts, stateFile });
    try {
      expect(second.url).toBe(first.url);
      expect(await second.core.tokens.verify(before.accessToken)).toEqual({ ok: false, reason: 'invalid' });
      const looked = await e2e.run(['order', 'get', uuid, '--env', 'sandbox', '--json'], { env });
      expect(looked.exitCode, looked.stderr).toBe(0);
      expect(looked.stderr).toBe('');
      expect(JSON.parse(looked.stdout).uuid).toBe(uuid);
      expect(await routesReached(second.url)).toEqual(['lookup 401', 'token 200', 'lookup 200']);
      const renewed = cached(second.url);
      expect(renewed.accessToken).not.toBe(before.accessToken);
      expect(await second.core.tokens.verify(renewed.accessToken)).toMatchObject({ ok: true });

      // The renewed token is stored: the next command uses it without a token request.
      await call(second.url, 'DELETE', '/_sandbox/journal');
      const created = await e2e.run(['order', 'create', '--env', 'sandbox', '--amount', '2', ...ORDER], {
        env,
      });
      expect(created.exitCode, created.stderr).toBe(0);
      expect(await routesReached(second.url)).toEqual(['checkout 200']);
    } finally {
      await second.close();
    }
  });

  it('an order created right after a restart is sent twice at most: 401, token, 200', async () => {
    const accounts = [TEST_ACCOUNT, SHOP];
    const first = await startSandbox({ port: 0, accounts });
    const env = { PAYORDER_AUTH_URL: first.url, PAYORDER_CHECKOUT_URL: first.url };
    try {
      await e2e.login('sandbox', { env });
    } finally {
      await first.close();
    }
    const second = await startSandbox({ port: first.port, accounts });
    try {
      const created = await e2e.run(
        [
          'order',
          'create',
          '--env',
          'sandbox',
          '--amount',
          '3',
          '--description',
          'Tea',
          '--success',
          'https://s.example/ok',
          '--fail',
          'https://s.example/ko',
        ],
        { env },
      );
      expect(created.exitCode, created.stderr).toBe(0);
      expect(await routesReached(second.url)).toEqual(['checkout 401', 'token 200', 'checkout 200']);
      expect(await sandboxOrders(second.url)).toHaveLength(1);
    } finally {
      await second.close();
    }
  });
});

describe('a client secret in a store others can read', () => {
  const STORED = { environments: { sandbox: { credentials: SHOP } } };
  const exposed = (by: string, file: string, folder: string) =>
    `warning: the payorder store ${e2e.storeFile()} holds the client secret and is readable by ${by} (mode ${file} in a folder of mode ${folder}): make it private (chmod 600 ${e2e.storeFile()}) and rotate the secret, which may have been read\n`;

  /** A store holding SHOP's secret, with these modes. */
  function exposedStore(file: string, folder: string) {
    writeFileSync(e2e.storeFile(), JSON.stringify(STORED));
    chmodSync(e2e.storeFile(), Number.parseInt(file, 8));
    chmodSync(e2e.dir, Number.parseInt(folder, 8));
  }

  it.each([
    ['0644', '0755', 'others'],
    ['0640', '0750', 'its group'],
    ['0644', '0710', 'its group'],
  ])(
    'a %s store in a %s folder: the token request warns; payorder writes it back 0600',
    async (file, folder, by) => {
      exposedStore(file, folder);
      const result = await e2e.run(['token', '--env', 'sandbox'], { printsToken: true });
      expect(result.exitCode, result.stderr).toBe(0);
      expect(result.stderr).toBe(exposed(by, file, folder));
      expect(modeOf(e2e.storeFile())).toBe('600');
      expect(await journal(e2e.sb.url, 'token')).toHaveLength(1);
    },
  );

  it('a 0644 store in a 0700 folder is read by no one else: no warning', async () => {
    exposedStore('0644', '0700');
    const result = await e2e.run(['token', '--env', 'sandbox'], { printsToken: true });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).toBe('');
  });

  it('no warning when the secret is not read from it: credentials from the variables', async () => {
    exposedStore('0644', '0755');
    const result = await e2e.run(['token', '--env', 'sandbox'], { env: SHOP_ENV, printsToken: true });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).toBe('');
  });
});
