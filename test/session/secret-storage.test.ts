/**
 * Where a login's secret goes, how it is read back and removed, against a keychain of the test's:
 * one that works, one that refuses, and none at all. The real keychain is tested end to end in
 * test/commands/keychain.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { CliError } from '../../src/errors.js';
import { forgetSecret, storedSecret, storeSecret } from '../../src/session/secret-storage.js';
import type { KeychainAccess } from '../../src/store/keychain.js';
import type { ProfileEnv } from '../../src/store/profile-data.js';
import { SECRET, SHOP } from '../helpers/cli.js';
import { testContext } from '../helpers/context.js';

const FILE = '/config/payorder/config.json';
const STAGE: ProfileEnv = { profile: 'default', env: 'stage' };
const ACCOUNT = `stage:${SHOP.clientId}`;

/** A keychain held in a map; `refuse` makes every call fail with that message. */
function fakeKeychain(entries = new Map<string, string>(), refuse?: string): KeychainAccess {
  const check = () => {
    if (refuse) throw new Error(`${refuse}\nsecond line`);
  };
  return {
    keychain: {
      read: async (account) => {
        check();
        return entries.get(account);
      },
      write: async (account, secret) => {
        check();
        entries.set(account, secret);
      },
      remove: async (account) => {
        check();
        return entries.delete(account);
      },
    },
  };
}

const NONE: KeychainAccess = { unreachable: 'no keychain here' };

describe('storeSecret', () => {
  it('puts the secret in a keychain that works: the profile keeps no secret, nothing is said', async () => {
    const entries = new Map<string, string>();
    const { ctx, stderr } = testContext({ keychain: fakeKeychain(entries) });
    const kept = await storeSecret(ctx, STAGE, SHOP, { insecure: false, file: FILE });
    expect(kept).toEqual({
      stored: { username: SHOP.username, clientId: SHOP.clientId, secretIn: 'keychain' },
      storage: 'keychain',
    });
    expect([...entries]).toEqual([[ACCOUNT, SECRET]]);
    expect(stderr()).toBe('');
  });

  it.each([
    ['no keychain', NONE, 'no keychain here'],
    ['a keychain that refuses', fakeKeychain(new Map(), 'Secret Service: locked'), 'Secret Service: locked'],
  ])('%s: the file, and one warning line saying why and where', async (_, access, why) => {
    const { ctx, stderr } = testContext({ keychain: access });
    const kept = await storeSecret(ctx, STAGE, SHOP, { insecure: false, file: FILE });
    expect(kept).toEqual({ stored: SHOP, storage: 'file' });
    expect(stderr()).toBe(
      `warning: the OS keychain cannot be used (${why}); the client secret is stored in the 0600 file ${FILE} (--insecure-storage chooses the file without this warning)\n`,
    );
  });

  it('--insecure-storage: the file, the keychain untouched, nothing said', async () => {
    const entries = new Map([['stage:other-client', 'other']]);
    const { ctx, stderr } = testContext({ keychain: fakeKeychain(entries) });
    const kept = await storeSecret(ctx, STAGE, SHOP, { insecure: true, file: FILE });
    expect(kept).toEqual({ stored: SHOP, storage: 'file' });
    expect([...entries]).toEqual([['stage:other-client', 'other']]);
    expect(stderr()).toBe('');
  });

  it('removes the keychain entry of the login it replaces, unless it overwrote it', async () => {
    const previous = { username: 'old', clientId: 'old-client', secretIn: 'keychain' as const };
    const entries = new Map([
      ['stage:old-client', 'old-secret'],
      [ACCOUNT, 'earlier'],
    ]);
    const { ctx } = testContext({ keychain: fakeKeychain(entries) });
    await storeSecret(ctx, STAGE, SHOP, { insecure: false, previous, file: FILE });
    expect([...entries]).toEqual([[ACCOUNT, SECRET]]);

    const same = { username: SHOP.username, clientId: SHOP.clientId, secretIn: 'keychain' as const };
    await storeSecret(ctx, STAGE, SHOP, { insecure: true, previous: same, file: FILE });
    expect([...entries]).toEqual([]);
  });
});

describe('storedSecret', () => {
  it('a secret in the file is used as it is, without opening the keychain', async () => {
    const { ctx } = testContext({ keychain: fakeKeychain(new Map(), 'must not be opened') });
    expect(await storedSecret(ctx, STAGE, SHOP)).toBe(SECRET);
  });

  it('a secret in the keychain is read from it', async () => {
    const { ctx } = testContext({ keychain: fakeKeychain(new Map([[ACCOUNT, SECRET]])) });
    expect(await storedSecret(ctx, STAGE, { clientId: SHOP.clientId })).toBe(SECRET);
  });

  it.each([
    [
      'no keychain',
      NONE,
      'the client secret of stage is in the OS keychain, which cannot be read: no keychain here',
      "unlock the keychain and run the command again, or log in again: payorder login --env stage (--insecure-storage keeps the secret in the store's file)",
    ],
    [
      'a keychain that refuses',
      fakeKeychain(new Map(), 'locked'),
      'the client secret of stage is in the OS keychain, which cannot be read: locked',
      "unlock the keychain and run the command again, or log in again: payorder login --env stage (--insecure-storage keeps the secret in the store's file)",
    ],
    [
      'no entry',
      fakeKeychain(),
      `the client secret of stage is missing from the OS keychain (service payorder, account ${ACCOUNT})`,
      'log in again: payorder login --env stage',
    ],
  ])('%s: an auth error (exit 4) saying what to do', async (_, access, message, hint) => {
    const { ctx } = testContext({ keychain: access });
    const error = await storedSecret(ctx, STAGE, { clientId: SHOP.clientId }).catch((e) => e);
    expect(error).toBeInstanceOf(CliError);
    expect([error.message, error.details.hint, error.exitCode]).toEqual([message, hint, 4]);
  });
});

describe('forgetSecret', () => {
  it('removes the entry; a keychain login whose entry cannot be removed is named in a warning', async () => {
    const entries = new Map([[ACCOUNT, SECRET]]);
    const inKeychain = { username: SHOP.username, clientId: SHOP.clientId, secretIn: 'keychain' as const };
    const works = testContext({ keychain: fakeKeychain(entries) });
    await forgetSecret(works.ctx, STAGE, inKeychain);
    expect([...entries]).toEqual([]);
    expect(works.stderr()).toBe('');

    const refuses = testContext({ keychain: fakeKeychain(new Map(), 'locked') });
    await forgetSecret(refuses.ctx, STAGE, inKeychain);
    expect(refuses.stderr()).toBe(
      `warning: the client secret of stage stays in the OS keychain (service payorder, account ${ACCOUNT}), which cannot be changed: locked; remove it there\n`,
    );
  });

  it('a login kept in the file: a leftover entry goes, and no keychain is no warning', async () => {
    const entries = new Map([[ACCOUNT, 'leftover']]);
    const works = testContext({ keychain: fakeKeychain(entries) });
    await forgetSecret(works.ctx, STAGE, SHOP);
    expect([...entries]).toEqual([]);
    const none = testContext({ keychain: NONE });
    await forgetSecret(none.ctx, STAGE, SHOP);
    expect(none.stderr()).toBe('');
  });
});

describe('the keychain entries of profiles', () => {
  const SHOP_B: ProfileEnv = { profile: 'shop-b', env: 'stage' };
  const inKeychain = { username: SHOP.username, clientId: SHOP.clientId, secretIn: 'keychain' as const };

  it('two profiles with one client id keep a secret each; the default keeps its ENV:CLIENT_ID entry', async () => {
    const entries = new Map<string, string>();
    const { ctx } = testContext({ keychain: fakeKeychain(entries) });
    await storeSecret(ctx, STAGE, SHOP, { insecure: false, file: FILE });
    await storeSecret(
      ctx,
      SHOP_B,
      { ...SHOP, clientSecretId: 'secret-of-b' },
      { insecure: false, file: FILE },
    );
    expect(Object.fromEntries(entries)).toEqual({
      [ACCOUNT]: SECRET,
      [`shop-b/stage:${SHOP.clientId}`]: 'secret-of-b',
    });
    expect(await storedSecret(ctx, STAGE, { clientId: SHOP.clientId })).toBe(SECRET);
    expect(await storedSecret(ctx, SHOP_B, { clientId: SHOP.clientId })).toBe('secret-of-b');

    // A new login of one profile replaces its own entry only, and forgetting one leaves the other.
    await storeSecret(
      ctx,
      SHOP_B,
      { ...SHOP, clientSecretId: 'new-b' },
      { insecure: false, previous: inKeychain, file: FILE },
    );
    expect(entries.get(ACCOUNT)).toBe(SECRET);
    await forgetSecret(ctx, SHOP_B, inKeychain);
    expect(Object.fromEntries(entries)).toEqual({ [ACCOUNT]: SECRET });
  });

  it("a named profile's missing entry says which profile and how to log it in again", async () => {
    const { ctx } = testContext({ keychain: fakeKeychain() });
    const error = await storedSecret(ctx, SHOP_B, { clientId: SHOP.clientId }).catch((e) => e);
    expect([error.message, error.details.hint]).toEqual([
      `the client secret of stage (profile shop-b) is missing from the OS keychain (service payorder, account shop-b/stage:${SHOP.clientId})`,
      'log in again: payorder login --env stage --profile shop-b',
    ]);
  });
});
