import { describe, expect, it } from 'vitest';
import type { Target } from '../../src/api/service.js';
import type { Credentials } from '../../src/contract/token.js';
import { TEST_ACCOUNT } from '../../src/sandbox/accounts.js';
import {
  cachedToken,
  isUsable,
  RENEW_EARLY_MS,
  rememberToken,
  tokenKey,
} from '../../src/session/token-cache.js';
import type { CachedToken, StoreData } from '../../src/store/profile-data.js';

const NOW = new Date('2026-06-01T12:00:00Z');
const TARGET: Target = {
  profile: 'default',
  env: 'stage',
  version: 'v2',
  authBase: 'https://auth.stage.example.com',
  checkoutBase: 'https://checkout.stage.example.com',
};
const issued = (accessToken: string, expiresIn = 3600) => ({ accessToken, expiresIn, tokenType: 'Bearer' });
const expiringIn = (ms: number, accessToken = 'cached'): CachedToken => ({
  accessToken,
  expiresAt: new Date(NOW.getTime() + ms).toISOString(),
  clientId: TEST_ACCOUNT.clientId,
});

describe('tokenKey and cachedToken', () => {
  it('the key is the version, addresses, username and client id', () => {
    expect(tokenKey(TARGET, TEST_ACCOUNT)).toBe(
      ['v2', TARGET.authBase, TARGET.checkoutBase, TEST_ACCOUNT.username, TEST_ACCOUNT.clientId].join(' '),
    );
  });

  it('finds a token for the same target and credentials, whatever the secret', () => {
    const data: StoreData = {};
    const token = rememberToken(data, TARGET, TEST_ACCOUNT, issued('t1'), NOW);
    expect(cachedToken(data, TARGET, TEST_ACCOUNT)).toEqual(token);
    const rotated: Credentials = { ...TEST_ACCOUNT, clientSecretId: 'rotated' };
    expect(cachedToken(data, TARGET, rotated)).toEqual(token);
  });

  it.each<[string, Partial<Target>, Partial<Credentials>]>([
    ['environment', { env: 'production' }, {}],
    ['API version', { version: 'v1' }, {}],
    ['auth address', { authBase: 'https://auth.elsewhere.example.com' }, {}],
    ['auth address path', { authBase: `${TARGET.authBase}/tenant-b` }, {}],
    ['checkout address', { checkoutBase: 'https://other.example.com' }, {}],
    ['username', {}, { username: 'someone-else' }],
    ['client id', {}, { clientId: 'other-client' }],
  ])('a token cached for another %s is not used', (_, target, credentials) => {
    const data: StoreData = {};
    rememberToken(data, TARGET, TEST_ACCOUNT, issued('t1'), NOW);
    expect(cachedToken(data, { ...TARGET, ...target }, { ...TEST_ACCOUNT, ...credentials })).toBeUndefined();
  });

  it('keeps one token per auth address side by side', () => {
    const other = { ...TARGET, authBase: 'https://auth.elsewhere.example.com' };
    const data: StoreData = {};
    rememberToken(data, TARGET, TEST_ACCOUNT, issued('first'), NOW);
    rememberToken(data, other, TEST_ACCOUNT, issued('second'), NOW);
    expect(cachedToken(data, TARGET, TEST_ACCOUNT)?.accessToken).toBe('first');
    expect(cachedToken(data, other, TEST_ACCOUNT)?.accessToken).toBe('second');
  });

  it.each([
    ['a line break', { accessToken: 'abc\r\nX-Injected: 1', expiresAt: '2026-06-02T12:00:00.000Z' }],
    ['a space', { accessToken: 'abc def', expiresAt: '2026-06-02T12:00:00.000Z' }],
    ['an empty token', { accessToken: '', expiresAt: '2026-06-02T12:00:00.000Z' }],
    ['an expiry that is no date', { accessToken: 'abc', expiresAt: 'Invalid Date' }],
  ])('ignores an entry with %s, and the next renewal drops it', (_, entry) => {
    const data = {
      environments: {
        stage: { tokens: { [tokenKey(TARGET, TEST_ACCOUNT)]: entry, 'v1 other': entry } },
      },
    } as unknown as StoreData;
    expect(cachedToken(data, TARGET, TEST_ACCOUNT)).toBeUndefined();
    const token = rememberToken(data, TARGET, TEST_ACCOUNT, issued('new'), NOW);
    expect(data.environments?.stage?.tokens).toEqual({ [tokenKey(TARGET, TEST_ACCOUNT)]: token });
  });

  it('ignores an entry without an access token or expiry', () => {
    const data = {
      environments: { stage: { tokens: { [tokenKey(TARGET, TEST_ACCOUNT)]: { accessToken: 'x' } } } },
    } as unknown as StoreData;
    expect(cachedToken(data, TARGET, TEST_ACCOUNT)).toBeUndefined();
  });
});

describe('isUsable, by the clock', () => {
  it('renews 60 s before the expiry the service gave', () => {
    expect(RENEW_EARLY_MS).toBe(60_000);
  });

  it.each([
    [3_600_000, true],
    [60_001, true],
    [60_000, false],
    [30_000, false],
    [0, false],
    [-1_000, false],
  ])('a token expiring in %i ms: usable %s', (ms, usable) => {
    expect(isUsable(expiringIn(ms), NOW)).toBe(usable);
  });

  it('no token is not usable', () => {
    expect(isUsable(undefined, NOW)).toBe(false);
  });
});

describe('rememberToken', () => {
  it('stores the token under its key with its expiry from the clock and the client id', () => {
    const data: StoreData = {};
    const token = rememberToken(data, TARGET, TEST_ACCOUNT, issued('t1', 86_400), NOW);
    expect(token).toEqual({
      accessToken: 't1',
      expiresAt: '2026-06-02T12:00:00.000Z',
      clientId: TEST_ACCOUNT.clientId,
    });
    expect(data).toEqual({
      environments: { stage: { tokens: { [tokenKey(TARGET, TEST_ACCOUNT)]: token } } },
    });
  });

  it('drops expired entries, keeps live ones (even inside the renewal margin) and the rest of the profile', () => {
    const live = expiringIn(3_600_000, 'live');
    const renewing = expiringIn(30_000, 'renewing');
    const data: StoreData = {
      environments: {
        stage: {
          credentials: TEST_ACCOUNT,
          tokens: {
            'v1 gone': expiringIn(-1, 'gone'),
            'v1 now': expiringIn(0, 'now'),
            'v1 live': live,
            'v1 renewing': renewing,
          },
        },
      },
    };
    const token = rememberToken(data, TARGET, TEST_ACCOUNT, issued('new'), NOW);
    expect(data.environments?.stage).toEqual({
      credentials: TEST_ACCOUNT,
      tokens: { 'v1 live': live, 'v1 renewing': renewing, [tokenKey(TARGET, TEST_ACCOUNT)]: token },
    });
  });

  it('replaces the token of the same key', () => {
    const data: StoreData = {};
    rememberToken(data, TARGET, TEST_ACCOUNT, issued('old'), NOW);
    rememberToken(data, TARGET, TEST_ACCOUNT, issued('new'), NOW);
    expect(Object.values(data.environments?.stage?.tokens ?? {}).map((t) => t.accessToken)).toEqual(['new']);
  });
});
