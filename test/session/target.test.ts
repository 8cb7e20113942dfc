import { describe, expect, it } from 'vitest';
import { SANDBOX_DEFAULT_URL } from '../../src/contract/environments.js';
import { PATHS, PREFIX, V1_SUNSET } from '../../src/contract/versions.js';
import { checkSunset, configKey, resolveTarget, type TargetFlags } from '../../src/session/target.js';
import type { StoreData } from '../../src/store/profile-data.js';
import { type TestContextOptions, testContext } from '../helpers/context.js';
import { refusal } from '../helpers/refusal.js';

const STORED_AUTH = 'https://auth.stored.example.com';
const STORED_CHECKOUT = 'https://checkout.stored.example.com';

/** A store with a default environment and version, and a stage profile with its own version and addresses. */
const STORE: StoreData = {
  defaults: { env: 'sandbox', api: 'v2' },
  environments: {
    stage: { api: 'v1', addresses: { v1: { auth: STORED_AUTH, checkout: STORED_CHECKOUT } } },
    sandbox: {},
  },
};

/** Addresses for one run, for the tests about something else: no environment but the sandbox has built-in ones. */
const ADDRESSES = {
  PAYORDER_AUTH_URL: 'https://a.example.com',
  PAYORDER_CHECKOUT_URL: 'https://c.example.com',
};

// Before the v1 sunset, so that a v1 target resolves (with its warning).
const BEFORE_SUNSET = new Date('2026-06-01T12:00:00Z');

function resolve(
  flags: TargetFlags,
  data: StoreData,
  env: Record<string, string> = {},
  options: TestContextOptions = {},
) {
  const test = testContext({ now: BEFORE_SUNSET, env, ...options });
  return { target: resolveTarget(test.ctx, flags, data), stderr: test.stderr };
}

/** Lets the captured stderr deliver what was written. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('the environment', () => {
  it.each<[string, TargetFlags, Record<string, string>, StoreData, string]>([
    ['--env wins over everything', { env: 'production' }, { PAYORDER_ENV: 'sandbox' }, STORE, 'production'],
    ['PAYORDER_ENV wins over the stored default', {}, { PAYORDER_ENV: 'stage' }, STORE, 'stage'],
    ['the stored default', {}, {}, STORE, 'sandbox'],
    ['the built-in default is stage', {}, {}, {}, 'stage'],
    ['"test" is stage', { env: 'TEST' }, {}, {}, 'stage'],
  ])('%s', (_, flags, env, data, expected) => {
    expect(resolve(flags, data, { ...ADDRESSES, ...env }).target.env).toBe(expected);
  });

  it.each([
    [{ env: 'qa' }, {}, '--env: unknown environment "qa"; choose one of production, stage, test, sandbox'],
    [
      {},
      { PAYORDER_ENV: 'qa' },
      'PAYORDER_ENV: unknown environment "qa"; choose one of production, stage, test, sandbox',
    ],
  ])('an unknown name is a usage error naming where it came from', (flags, env, message) => {
    const error = refusal(() => resolve(flags, {}, env));
    expect([error.kind, error.exitCode, error.message]).toEqual(['usage', 2, message]);
  });
});

describe('the API version', () => {
  it.each<[string, TargetFlags, Record<string, string>, StoreData, string]>([
    ['--api wins over everything', { env: 'stage', api: 'v2' }, { PAYORDER_API: 'v1' }, STORE, 'v2'],
    ['PAYORDER_API wins over the profile', { env: 'stage' }, { PAYORDER_API: 'V2' }, STORE, 'v2'],
    ['the profile (chosen at login) wins over the stored default', { env: 'stage' }, {}, STORE, 'v1'],
    ['the stored default', { env: 'stage' }, {}, { defaults: { api: 'v1' } }, 'v1'],
    ['the built-in default is v2', { env: 'stage' }, {}, {}, 'v2'],
  ])('%s', (_, flags, env, data, expected) => {
    expect(resolve(flags, data, { ...ADDRESSES, ...env }).target.version).toBe(expected);
  });

  it('an unknown version is a usage error naming where it came from', () => {
    const error = refusal(() => resolve({ env: 'sandbox' }, {}, { PAYORDER_API: 'v3' }));
    expect([error.exitCode, error.message]).toEqual([
      2,
      'PAYORDER_API: unknown API version "v3"; choose v1 or v2',
    ]);
  });
});

describe('the addresses', () => {
  it('PAYORDER_AUTH_URL and PAYORDER_CHECKOUT_URL win over the stored ones', () => {
    const { target } = resolve({ env: 'stage' }, STORE, {
      PAYORDER_AUTH_URL: 'https://auth.override.example.com',
      PAYORDER_CHECKOUT_URL: 'https://checkout.override.example.com',
    });
    expect(target).toEqual({
      profile: 'default',
      env: 'stage',
      version: 'v1',
      authBase: 'https://auth.override.example.com',
      checkoutBase: 'https://checkout.override.example.com',
      impliedVersion: 'v1',
      envByDefault: false,
    });
  });

  it('each variable overrides only its own address', () => {
    const { target } = resolve({ env: 'stage' }, STORE, {
      PAYORDER_AUTH_URL: 'https://auth.override.example.com',
    });
    expect([target.authBase, target.checkoutBase]).toEqual([
      'https://auth.override.example.com',
      STORED_CHECKOUT,
    ]);
  });

  it("the stored profile's addresses, for its version only", () => {
    expect(resolve({ env: 'stage' }, STORE).target).toEqual({
      profile: 'default',
      env: 'stage',
      version: 'v1',
      authBase: STORED_AUTH,
      checkoutBase: STORED_CHECKOUT,
      impliedVersion: 'v1',
      envByDefault: false,
    });
    const error = refusal(() => resolve({ env: 'stage', api: 'v2' }, STORE));
    expect([error.kind, error.exitCode, error.message, error.details.field, error.details.hint]).toEqual([
      'config',
      2,
      'no auth address is configured for stage v2',
      configKey('stage', 'v2', 'auth'),
      `set it with: payorder config set ${configKey('stage', 'v2', 'auth')} https://… (or PAYORDER_AUTH_URL for one run)`,
    ]);
  });

  it('the built-in default exists for the sandbox only', () => {
    expect(resolve({ env: 'sandbox' }, {}).target).toEqual({
      profile: 'default',
      env: 'sandbox',
      version: 'v2',
      authBase: SANDBOX_DEFAULT_URL,
      checkoutBase: SANDBOX_DEFAULT_URL,
      impliedVersion: 'v2',
      envByDefault: false,
    });
    const error = refusal(() =>
      resolve({ env: 'production' }, {}, { PAYORDER_AUTH_URL: 'https://a.example.com' }),
    );
    expect([error.message, error.details.field]).toEqual([
      'no checkout address is configured for production v2',
      configKey('production', 'v2', 'checkout'),
    ]);
  });
});

describe('the v1 sunset, by the context clock', () => {
  async function warning(now: string): Promise<string> {
    const { ctx, stderr } = testContext({ now: new Date(now) });
    checkSunset(ctx, 'v1');
    await settle();
    return stderr();
  }

  it.each([
    ['2026-06-01T12:00:00Z', '213 days left'],
    ['2026-12-01T09:00:00Z', '30 days left'],
    ['2026-12-30T23:59:59Z', '1 day left'],
    ['2026-12-31T00:00:00Z', 'today is its last day'],
    ['2026-12-31T23:59:59Z', 'today is its last day'],
  ])('at %s: %s', async (now, left) => {
    expect(await warning(now)).toBe(
      `warning: API v1 is deprecated and is switched off on ${V1_SUNSET} (${left}); move to --api v2 (see payorder migrate-check)\n`,
    );
  });

  it('warns once per run, and never about v2', async () => {
    const { ctx, stderr } = testContext({ now: BEFORE_SUNSET });
    checkSunset(ctx, 'v2');
    checkSunset(ctx, 'v1');
    checkSunset(ctx, 'v1');
    await settle();
    expect(stderr().match(/warning:/g)).toEqual(['warning:']);
  });

  it('refuses v1 from the day after the sunset, and resolving a v1 target with it', () => {
    const { ctx } = testContext({ now: new Date('2027-01-01T00:00:00Z') });
    const error = refusal(() => checkSunset(ctx, 'v1'));
    expect([error.kind, error.exitCode, error.message, error.details.hint]).toEqual([
      'usage',
      2,
      `API v1 was switched off on ${V1_SUNSET}; use --api v2`,
      'payorder migrate-check shows what an integration must change for v2',
    ]);
    expect(() => checkSunset(ctx, 'v2')).not.toThrow();
    expect(
      refusal(() => resolve({ env: 'sandbox', api: 'v1' }, {}, {}, { now: new Date('2027-01-01T00:00:00Z') }))
        .message,
    ).toBe(`API v1 was switched off on ${V1_SUNSET}; use --api v2`);
  });

  it('a v1 target resolves with the warning on stderr', async () => {
    const { target, stderr } = resolve({ env: 'sandbox', api: 'v1' }, {});
    await settle();
    expect(target.version).toBe('v1');
    expect(stderr()).toContain('(213 days left)');
  });

  it('PAYORDER_NOW sets the clock when the test gives none', async () => {
    const { ctx, stderr } = testContext({ env: { PAYORDER_NOW: '2026-12-31T09:00:00Z' } });
    checkSunset(ctx, 'v1');
    await settle();
    expect(stderr()).toContain('(today is its last day)');
  });
});

describe('addresses break the base-address rule: refused naming where they came from', () => {
  it.each([
    ['PAYORDER_AUTH_URL', `https://auth.example${PREFIX.v2}`, `give the base address without "${PREFIX.v2}"`],
    [
      'PAYORDER_AUTH_URL',
      `https://auth.example${PATHS.token('v1')}`,
      `give the base address without "${PREFIX.v1}"`,
    ],
    [
      'PAYORDER_CHECKOUT_URL',
      `https://checkout.example${PATHS.checkout('v2')}`,
      `give the base address without "${PREFIX.v2}"`,
    ],
    [
      'PAYORDER_CHECKOUT_URL',
      'http:checkout.example',
      'must be an absolute http(s) URL like https://host/path',
    ],
  ])('%s=%s', (name, value, rule) => {
    const error = refusal(() => resolve({ env: 'sandbox' }, {}, { ...ADDRESSES, [name]: value }));
    expect([error.kind, error.exitCode, error.details.field]).toEqual(['usage', 2, name]);
    expect(error.message).toMatch(new RegExp(`^${name}: `));
    expect(error.message).toContain(rule);
  });

  it('a password in PAYORDER_AUTH_URL is refused and not repeated', () => {
    const error = refusal(() =>
      resolve({ env: 'sandbox' }, {}, { ...ADDRESSES, PAYORDER_AUTH_URL: 'https://u:pw-9f2c@a.example.com' }),
    );
    expect(error.message).toBe(
      'PAYORDER_AUTH_URL: must not contain a user name or password; payorder sends credentials itself',
    );
  });

  it('a stored address edited by hand is checked too, naming its config key', () => {
    const data: StoreData = {
      environments: {
        stage: { addresses: { v2: { auth: 'https://auth.example/v2/api', checkout: STORED_CHECKOUT } } },
      },
    };
    const error = refusal(() => resolve({ env: 'stage', api: 'v2' }, data));
    expect([error.exitCode, error.details.field]).toEqual([2, 'stage.v2.auth-url']);
    expect(error.message).toMatch(/^stage\.v2\.auth-url: give the base address without "\/v2\/api"/);
  });

  it('the variable wins even over a good stored address, and is checked', () => {
    const error = refusal(() =>
      resolve({ env: 'stage' }, STORE, { PAYORDER_AUTH_URL: 'https://a.example/1' }),
    );
    expect(error.details.field).toBe('PAYORDER_AUTH_URL');
  });
});
