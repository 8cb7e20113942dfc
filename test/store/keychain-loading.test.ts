/**
 * The keychain addon is a native module: loading it costs start-up time, so only the code that
 * writes, reads or removes a client secret loads it. Every run here has a D-Bus address (one that
 * nothing answers), so it is payorder's laziness, not a missing bus, that keeps the addon unloaded;
 * login, which must load it, shows that the probe sees it when it is loaded.
 */
import { describe, expect, it } from 'vitest';
import { SECRET, SHOP, tempDir } from '../helpers/cli.js';
import { loginArgs, useE2E } from '../helpers/e2e.js';
import { addonProbe } from '../helpers/keyring.js';

const e2e = useE2E();

/** Runs the built CLI in a process of its own, and says what it loaded of the keychain addon. */
async function probed(args: string[], options: { input?: string; printsToken?: boolean } = {}) {
  const dir = tempDir('payorder-probe-');
  const watch = addonProbe(dir).watch();
  const result = await e2e.run(args, {
    ...options,
    spawn: true,
    env: { ...watch.env, DBUS_SESSION_BUS_ADDRESS: `unix:path=${dir}/no-bus` },
  });
  return { ...result, loaded: watch.loaded() };
}

describe('the keychain addon is loaded only when a secret is written, read or removed', () => {
  it.each([
    [['--help'], 0],
    [['order', 'get', '--help'], 0],
    [['login', '--help'], 0],
    [['status'], 4],
    [['order', 'create', '--env', 'sandbox', '--amount', '1', '--description', 'x', '--dry-run'], 0],
  ])('payorder %s does not load it', async (args, exitCode) => {
    const result = await probed([
      ...args,
      ...(args.includes('--dry-run')
        ? ['--success', 'https://a.example', '--fail', 'https://a.example']
        : []),
    ]);
    expect(result.exitCode, result.stderr).toBe(exitCode);
    expect(result.loaded).toEqual([]);
  });

  it('login loads it (and, with no keychain answering, stores the secret in the file); a cached token does not', async () => {
    const login = await probed(loginArgs('sandbox'), { input: SECRET });
    expect(login.exitCode, login.stderr).toBe(0);
    expect(login.loaded).not.toEqual([]);
    expect(login.stderr.match(/^warning: /gm)).toHaveLength(1);
    expect(e2e.store().environments?.sandbox?.credentials).toEqual(SHOP);

    for (const args of [
      ['status', '--env', 'sandbox'],
      ['token', '--env', 'sandbox'],
    ]) {
      const result = await probed(args, { printsToken: true });
      expect(result.exitCode, result.stderr).toBe(0);
      expect(result.loaded, args.join(' ')).toEqual([]);
    }
  });
});
