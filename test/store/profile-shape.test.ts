/**
 * A store of the wrong shape (a hand edit, a damaged file) is an error naming the path and the spot
 * that is wrong, never a crash or a write that drops what the file held; keys payorder does not
 * know are kept.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { SHOP } from '../helpers/cli.js';
import { runInProcess } from '../helpers/context.js';
import { expectConfigError, expectShownError, failureOf, STORED, storeFolder } from './store-folder.js';

describe('a store of the wrong shape is an error naming the path and what is wrong', () => {
  const login = STORED.environments.stage;
  const SHAPES: [string, unknown, string][] = [
    ['environments is an array', { environments: [1, 2] }, 'environments must be an object, not an array'],
    ['defaults is a string', { defaults: 'x' }, 'defaults must be an object, not a string'],
    ['the store is an array', [STORED], 'the store must be an object, not an array'],
    ['the store is null', null, 'the store must be an object, not null'],
    [
      'credentials lack a field',
      {
        environments: {
          stage: { ...login, credentials: { username: SHOP.username, clientId: SHOP.clientId } },
        },
      },
      'environments.stage.credentials.clientSecretId is missing',
    ],
    [
      'the secret is said to be elsewhere than the keychain',
      { environments: { stage: { ...login, credentials: { ...SHOP, secretIn: 'vault' } } } },
      'environments.stage.credentials.secretIn must be one of keychain',
    ],
    [
      'a credential is not a string',
      { environments: { stage: { ...login, credentials: { ...SHOP, clientSecretId: 42 } } } },
      'environments.stage.credentials.clientSecretId must be a string, not a number',
    ],
    [
      'a credential is empty',
      { environments: { stage: { ...login, credentials: { ...SHOP, username: '' } } } },
      'environments.stage.credentials.username must not be empty',
    ],
    [
      'an environment is not an object',
      { environments: { stage: 'on' } },
      'environments.stage must be an object, not a string',
    ],
    [
      'an address is not a string',
      { environments: { stage: { addresses: { v2: { auth: ['https://a.example'] } } } } },
      'environments.stage.addresses.v2.auth must be a string, not an array',
    ],
    [
      'default-output is no output format',
      { defaults: { output: 'xml' } },
      'defaults.output must be one of table, json, ndjson, tsv',
    ],
    [
      'a cached token lacks its expiry',
      {
        environments: {
          stage: {
            ...login,
            tokens: { 'v2 https://auth.shop.example': { accessToken: 'x', clientId: 'c' } },
          },
        },
      },
      'environments.stage.tokens["v2 https://auth.shop.example"].expiresAt is missing',
    ],
    [
      "a named profile's login lacks a field",
      { profiles: { 'shop-b': { environments: { stage: { credentials: { username: SHOP.username } } } } } },
      'profiles.shop-b.environments.stage.credentials.clientId is missing',
    ],
    [
      'a named profile is not an object',
      { profiles: { 'shop-b': 'x' } },
      'profiles.shop-b must be an object, not a string',
    ],
    [
      'a profile name --profile could never select',
      { profiles: { 'Shop B': { environments: {} } } },
      'profiles["Shop B"] is not a profile name; use 1 to 32 lowercase letters, digits, "-" or "_", starting with a letter or digit',
    ],
  ];

  it.each(SHAPES)('%s: read() and update() refuse it; nothing is written', async (_, content, problem) => {
    const folder = storeFolder(content);
    const before = readFileSync(folder.file, 'utf8');
    expectConfigError(await failureOf(() => folder.store().read()), folder.file, problem);
    const change = vi.fn();
    expectConfigError(await failureOf(() => folder.store().update(change)), folder.file, problem);
    expect(change).not.toHaveBeenCalled();
    expect(readFileSync(folder.file, 'utf8')).toBe(before);
  });

  it.each(SHAPES)(
    '%s: config set exits 2 with that error, not an unexpected failure',
    async (_, content, problem) => {
      const folder = storeFolder(content);
      const before = readFileSync(folder.file, 'utf8');
      expectShownError(
        await runInProcess(['config', 'set', 'default-output', 'table'], { env: folder.env }),
        2,
        folder.file,
        problem,
      );
      expect(readFileSync(folder.file, 'utf8')).toBe(before);
    },
  );

  it('a login whose secret is in the keychain has none in the file', async () => {
    const inKeychain = { username: SHOP.username, clientId: SHOP.clientId, secretIn: 'keychain' };
    const folder = storeFolder({ environments: { stage: { ...login, credentials: inKeychain } } });
    expect(folder.store().read().environments?.stage?.credentials).toEqual(inKeychain);
  });

  it('keys payorder does not know are kept (a newer payorder may have written them)', async () => {
    const folder = storeFolder({
      ...STORED,
      future: { x: 1 },
      environments: { stage: { ...STORED.environments.stage, extra: true } },
    });
    await folder.store().update((data) => {
      data.defaults = { output: 'tsv' };
    });
    const written = JSON.parse(readFileSync(folder.file, 'utf8'));
    expect(written.future).toEqual({ x: 1 });
    expect(written.environments.stage.extra).toBe(true);
    expect(written.environments.stage.credentials).toEqual(SHOP);
  });
});
