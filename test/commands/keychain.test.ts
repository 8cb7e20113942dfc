/**
 * The client secret in the OS keychain, for real: payorder runs as its own process against a Secret
 * Service (gnome-keyring in a D-Bus session of the test's), and the test reads the keychain back
 * with the addon. Without a keychain, the secret goes to the file with one warning.
 */
import { readFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type CliOptions, SECRET, SHOP, tempDir } from '../helpers/cli.js';
import { runInProcess } from '../helpers/context.js';
import { loginArgs, useE2E } from '../helpers/e2e.js';
import { addonProbe, KEYRING_TOOLS, type Keyring, startKeyring } from '../helpers/keyring.js';
import { journal } from '../helpers/sandbox.js';
import { describeWithTools } from '../helpers/tools.js';

const e2e = useE2E();

/** payorder's keychain entry for SHOP's sandbox login (service payorder). */
const ACCOUNT = `sandbox:${SHOP.clientId}`;
const IN_KEYCHAIN = { username: SHOP.username, clientId: SHOP.clientId, secretIn: 'keychain' };
/** Long after any token the tests get has expired: a command must renew its token. */
const LATER = '2027-06-01T00:00:00Z';

const storeText = () => readFileSync(e2e.storeFile(), 'utf8');
const warnings = (stderr: string) => stderr.match(/^warning: .*$/gm) ?? [];

async function statusOf(run: (args: string[], options?: CliOptions) => Promise<{ stdout: string }>) {
  const result = await run(['status', '--env', 'sandbox', '--json']);
  return JSON.parse(result.stdout).environments[0];
}

describeWithTools(KEYRING_TOOLS, 'the client secret in the OS keychain (Secret Service)', () => {
  let keyring: Keyring;
  beforeAll(async () => {
    keyring = await startKeyring(tempDir('payorder-keyring-'));
  }, 60_000);
  afterAll(() => keyring?.stop());
  afterEach(() => keyring.remove(ACCOUNT));

  /** The built CLI in a process of its own, in the keyring's D-Bus session. */
  const run = (args: string[], options: CliOptions = {}) =>
    e2e.run(args, {
      ...options,
      spawn: true,
      env: { DBUS_SESSION_BUS_ADDRESS: keyring.address, ...options.env },
    });
  const login = async (...extra: string[]) => {
    const result = await run(loginArgs('sandbox', ...extra), { input: SECRET });
    expect(result.exitCode, result.stderr).toBe(0);
    return result;
  };

  it('login puts it in the keychain and not in the file; status says so; a renewal reads it; logout removes it', async () => {
    const result = await login();
    expect(warnings(result.stderr)).toEqual([]);
    expect(result.stderr).toContain('the client secret in the OS keychain');
    expect(e2e.store().environments?.sandbox?.credentials).toEqual(IN_KEYCHAIN);
    expect(storeText()).not.toContain(SECRET);
    expect(await keyring.read(ACCOUNT)).toBe(SECRET);

    expect(await statusOf(run)).toMatchObject({ logged_in: true, secret_storage: 'keychain' });
    // status reads where the secret is from the store: in process, on a terminal, it shows the text.
    const text = await runInProcess(['status', '--env', 'sandbox'], {
      env: e2e.env({ NO_COLOR: '1' }),
      stdoutIsTTY: true,
    });
    expect(text.stdout).toContain('(from store; client secret in the OS keychain)');

    // The cached token has expired by then: the token request needs the secret, from the keychain.
    const before = (await journal(e2e.sb.url, 'token')).length;
    const renewed = await run(['token', '--env', 'sandbox', '--debug'], {
      env: { PAYORDER_NOW: LATER },
      printsToken: true,
    });
    expect(renewed.exitCode, renewed.stderr).toBe(0);
    // The trace shows the token request with the secret read from the keychain masked (and the run
    // checks that it appears nowhere).
    expect(renewed.stderr).toContain('"client_secret_id":"***"');
    const tokens = (await journal(e2e.sb.url, 'token')).slice(before);
    expect(tokens.map((entry) => entry.status)).toEqual([200]);

    const logout = await run(['logout', '--env', 'sandbox']);
    expect([logout.exitCode, logout.stderr]).toEqual([0, 'Logged out of sandbox\n']);
    expect(await keyring.read(ACCOUNT)).toBe(null);
    expect(e2e.store().environments?.sandbox?.credentials).toBeUndefined();
  });

  it('a secret in the file moves to the keychain at the next login', async () => {
    const insecure = await login('--insecure-storage');
    expect(warnings(insecure.stderr)).toEqual([]);
    expect(e2e.store().environments?.sandbox?.credentials).toEqual(SHOP);
    expect(await keyring.read(ACCOUNT)).toBe(null);
    expect((await statusOf(run)).secret_storage).toBe('file');

    await login();
    expect(e2e.store().environments?.sandbox?.credentials).toEqual(IN_KEYCHAIN);
    expect(storeText()).not.toContain(SECRET);
    expect(await keyring.read(ACCOUNT)).toBe(SECRET);
    expect((await statusOf(run)).secret_storage).toBe('keychain');
  });

  it('--insecure-storage keeps it in the file, and removes the entry of an earlier keychain login', async () => {
    await login();
    expect(await keyring.read(ACCOUNT)).toBe(SECRET);
    await login('--insecure-storage');
    expect(e2e.store().environments?.sandbox?.credentials).toEqual(SHOP);
    expect(await keyring.read(ACCOUNT)).toBe(null);
  });

  it('a renewal without the entry, or without the keychain, is an auth error that says what to do', async () => {
    await login();
    const noBus = await run(['token', '--env', 'sandbox'], {
      env: { PAYORDER_NOW: LATER, DBUS_SESSION_BUS_ADDRESS: undefined },
    });
    expect(noBus.exitCode).toBe(4);
    expect(noBus.stderr).toContain(
      'error: the client secret of sandbox is in the OS keychain, which cannot be read',
    );
    expect(noBus.stderr).toContain('hint: unlock the keychain and run the command again, or log in again');

    await keyring.remove(ACCOUNT);
    const gone = await run(['token', '--env', 'sandbox'], { env: { PAYORDER_NOW: LATER } });
    expect(gone.exitCode).toBe(4);
    expect(gone.stderr).toContain(
      `error: the client secret of sandbox is missing from the OS keychain (service payorder, account ${ACCOUNT})`,
    );
    expect(gone.stderr).toContain('hint: log in again: payorder login --env sandbox');
  });

  it('a command with a usable cached token does not open the keychain', async () => {
    await login();
    const watch = addonProbe(tempDir('payorder-probe-')).watch();
    const result = await run(['token', '--env', 'sandbox'], { env: watch.env, printsToken: true });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(watch.loaded()).toEqual([]);
  });

  it('two profiles with one client id keep an entry each, and logout of one leaves the other', async () => {
    const named = `shop-b/${ACCOUNT}`;
    try {
      await login();
      await login('--profile', 'shop-b');
      expect(await keyring.read(ACCOUNT)).toBe(SECRET);
      expect(await keyring.read(named)).toBe(SECRET);
      expect(storeText()).not.toContain(SECRET);

      const out = await run(['logout', '--env', 'sandbox', '--profile', 'shop-b']);
      expect(out.exitCode, out.stderr).toBe(0);
      expect(await keyring.read(named)).toBe(null);
      expect(await keyring.read(ACCOUNT)).toBe(SECRET);
      // The default profile still renews its token with the secret from its own entry.
      const later = await run(['token', '--env', 'sandbox'], {
        env: { PAYORDER_NOW: LATER },
        printsToken: true,
      });
      expect(later.exitCode, later.stderr).toBe(0);
    } finally {
      await keyring.remove(named);
    }
  });
});

describe('without a keychain, the secret goes to the file, with one warning', () => {
  const run = (args: string[], options: CliOptions = {}) => e2e.run(args, { ...options, spawn: true });

  it('no D-Bus session: the file, one warning naming why and where', async () => {
    const result = await run(loginArgs('sandbox'), { input: SECRET });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(warnings(result.stderr)).toEqual([
      `warning: the OS keychain cannot be used (no D-Bus session for Secret Service: DBUS_SESSION_BUS_ADDRESS is not set); the client secret is stored in the 0600 file ${e2e.storeFile()} (--insecure-storage chooses the file without this warning)`,
    ]);
    expect(e2e.store().environments?.sandbox?.credentials).toEqual(SHOP);
    expect(await statusOf(run)).toMatchObject({ logged_in: true, secret_storage: 'file' });

    const logout = await run(['logout', '--env', 'sandbox']);
    expect([logout.exitCode, logout.stderr]).toEqual([0, 'Logged out of sandbox\n']);
  });

  it('a D-Bus address that nothing answers: the file, one warning', async () => {
    const dir = tempDir('payorder-no-bus-');
    const result = await run(loginArgs('sandbox', '--json'), {
      input: SECRET,
      env: { DBUS_SESSION_BUS_ADDRESS: `unix:path=${dir}/no-bus` },
    });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(warnings(result.stderr)).toHaveLength(1);
    expect(warnings(result.stderr)[0]).toMatch(
      /^warning: the OS keychain cannot be used \(.+\); the client secret is stored in the 0600 file /,
    );
    expect(JSON.parse(result.stdout).secret_storage).toBe('file');
    expect(e2e.store().environments?.sandbox?.credentials).toEqual(SHOP);
  });

  it('--insecure-storage: the file, without a warning', async () => {
    const result = await run(loginArgs('sandbox', '--insecure-storage'), { input: SECRET });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(warnings(result.stderr)).toEqual([]);
    expect(e2e.store().environments?.sandbox?.credentials).toEqual(SHOP);
  });
});
