/**
 * The PAYORDER_ variables: a value that breaks its rule stops every command before anything is
 * sent, naming the variable; the three credential variables are used all together or not at all,
 * never completed from (or silently replaced by) the stored login.
 */
import { describe, expect, it } from 'vitest';
import { CREDENTIAL_VARIABLES } from '../src/session/credentials.js';
import { variableProblem } from '../src/variables.js';
import { SHOP } from './helpers/cli.js';
import { SHOP_ENV, useE2E } from './helpers/e2e.js';
import { call, createOrder, journal, tokenFor } from './helpers/sandbox.js';

describe('variableProblem', () => {
  it.each([
    {},
    { PAYORDER_TIMEOUT: '30', PAYORDER_DEBUG: '1', PAYORDER_NOW: '2026-12-31T10:00:00Z' },
    { PAYORDER_TIMEOUT: '0.5', PAYORDER_DEBUG: 'true', PAYORDER_NOW: '2026-12-31' },
    { PAYORDER_TIMEOUT: '3600', PAYORDER_DEBUG: '0' },
    { PAYORDER_DEBUG: 'false' },
    { PAYORDER_TIMEOUT: '', PAYORDER_DEBUG: '', PAYORDER_NOW: '' },
  ])('%j is fine', (env) => {
    expect(variableProblem(env)).toBeUndefined();
  });

  it.each([
    ['PAYORDER_TIMEOUT', 'abc', 'must be a number of seconds from 0 to 3600 (e.g. 30), got "abc"'],
    ['PAYORDER_TIMEOUT', '0', 'must be a number of seconds from 0 to 3600 (e.g. 30), got "0"'],
    ['PAYORDER_TIMEOUT', '-1', 'got "-1"'],
    ['PAYORDER_TIMEOUT', '3601', 'got "3601"'],
    ['PAYORDER_TIMEOUT', '1e3', 'got "1e3"'],
    ['PAYORDER_TIMEOUT', '30s', 'got "30s"'],
    ['PAYORDER_TIMEOUT', ' 30', 'got " 30"'],
    ['PAYORDER_DEBUG', 'yes', 'must be 1 (or true) to trace, 0 (or false) not to, got "yes"'],
    ['PAYORDER_DEBUG', 'TRUE', 'got "TRUE"'],
    ['PAYORDER_DEBUG', '2', 'got "2"'],
    [
      'PAYORDER_NOW',
      'nonsense',
      'must be an ISO date like 2026-12-31 or 2026-12-31T12:00:00Z, got "nonsense"',
    ],
    [
      'PAYORDER_NOW',
      'tomorrow',
      'must be an ISO date like 2026-12-31 or 2026-12-31T12:00:00Z, got "tomorrow"',
    ],
  ])('%s=%j names the variable and the rule', (name, value, rule) => {
    const problem = variableProblem({ [name]: value });
    expect(problem).toMatch(new RegExp(`^${name}: `));
    expect(problem).toContain(rule);
  });

  it('the first bad variable is the one named', () => {
    expect(variableProblem({ PAYORDER_NOW: 'x', PAYORDER_DEBUG: 'yes', PAYORDER_TIMEOUT: 'abc' })).toMatch(
      /^PAYORDER_TIMEOUT: /,
    );
    expect(variableProblem({ PAYORDER_NOW: 'x', PAYORDER_DEBUG: 'yes' })).toMatch(/^PAYORDER_DEBUG: /);
  });

  // Date.parse reads far more than ISO dates ("1" is 2001-01-01, "2026-02-30" rolls over to
  // 2026-03-02): both would silently move payorder's clock, so only real ISO dates are taken.
  it.each(['1', '2026-02-30', 'Dec 25'])('PAYORDER_NOW=%j is not an ISO date: refused', (value) => {
    expect(variableProblem({ PAYORDER_NOW: value })).toMatch(/^PAYORDER_NOW: /);
  });
});

const e2e = useE2E();
const ORDER = ['--description', 'Tea', '--success', 'https://s.example/ok', '--fail', 'https://s.example/ko'];

/** Logs SHOP in (a stored login with a cached token), creates one order of SHOP's, clears the journal. */
async function storedLogin(): Promise<string> {
  await e2e.login();
  const { uuid } = await createOrder(e2e.sb.url, await tokenFor(e2e.sb.url, 'v2', SHOP));
  await call(e2e.sb.url, 'DELETE', '/_sandbox/journal');
  return uuid;
}

/** Commands that would send something with the stored login. */
const commands = (uuid: string) => [
  ['order', 'create', '--env', 'sandbox', '--amount', '1', ...ORDER],
  ['order', 'get', uuid, '--env', 'sandbox'],
  ['order', 'get', uuid, '--env', 'sandbox', '--debug'],
  ['token', '--env', 'sandbox'],
];

describe('a bad variable stops any command before anything is sent', () => {
  it.each([
    ['PAYORDER_TIMEOUT', 'abc'],
    ['PAYORDER_DEBUG', 'yes'],
    ['PAYORDER_NOW', 'nonsense'],
  ])('%s=%s → exit 2 naming it, nothing sent', async (name, value) => {
    const uuid = await storedLogin();
    for (const args of commands(uuid)) {
      const result = await e2e.run(args, { env: { [name]: value }, printsToken: true });
      expect(result.exitCode, args.join(' ')).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(new RegExp(`^error: ${name}: .*got "${value}"\\n`));
      expect(result.stderr).not.toContain('[debug]');
    }
    expect(await journal(e2e.sb.url)).toEqual([]);
  });
});

/** Every way to set one or two of the three credential variables. */
const PARTIAL = [
  ['PAYORDER_USERNAME'],
  ['PAYORDER_CLIENT_ID'],
  ['PAYORDER_CLIENT_SECRET_ID'],
  ['PAYORDER_USERNAME', 'PAYORDER_CLIENT_ID'],
  ['PAYORDER_USERNAME', 'PAYORDER_CLIENT_SECRET_ID'],
  ['PAYORDER_CLIENT_ID', 'PAYORDER_CLIENT_SECRET_ID'],
] as const;

describe('credential variables: all three, or none', () => {
  it.each(PARTIAL.map((set) => [set.join(' + '), set] as const))(
    '%s without the rest → exit 2 naming the missing ones, the stored login not used',
    async (_, set) => {
      const uuid = await storedLogin();
      const env = Object.fromEntries(set.map((name) => [name, SHOP_ENV[name]]));
      const missing = CREDENTIAL_VARIABLES.filter((name) => !(set as readonly string[]).includes(name));
      for (const args of commands(uuid)) {
        const result = await e2e.run(args, { env, printsToken: true });
        expect(result.exitCode, args.join(' ')).toBe(2);
        expect(result.stdout).toBe('');
        const line = result.stderr.split('\n')[0];
        expect(line).toBe(
          `error: ${set.join(' and ')} ${set.length === 1 ? 'is' : 'are'} set but ${missing.join(' and ')} ${missing.length === 1 ? 'is' : 'are'} not`,
        );
        expect(result.stderr).toContain(
          'hint: set all three credential variables, or none to use the stored login',
        );
      }
      // Not one request: neither the stored token nor the stored credentials were used.
      expect(await journal(e2e.sb.url)).toEqual([]);
    },
  );

  it('all three set win over the stored login (another account)', async () => {
    expect((await e2e.run(['login', '--env', 'sandbox', '--no-input'])).exitCode).toBe(0);
    await call(e2e.sb.url, 'DELETE', '/_sandbox/journal');
    const result = await e2e.run(['order', 'create', '--env', 'sandbox', '--amount', '1', ...ORDER], {
      env: SHOP_ENV,
    });
    expect(result.exitCode, result.stderr).toBe(0);
    const orders = await e2e.orders();
    expect(orders.map((o: any) => o.owner)).toEqual([SHOP.username]);
    expect((await journal(e2e.sb.url, 'token'))[0].body.username).toBe(SHOP.username);
  });

  it('empty values count as not set: all three empty is the stored login', async () => {
    const uuid = await storedLogin();
    const result = await e2e.run(['order', 'get', uuid, '--env', 'sandbox', '--json'], {
      env: { PAYORDER_USERNAME: '', PAYORDER_CLIENT_ID: '', PAYORDER_CLIENT_SECRET_ID: '' },
    });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout).uuid).toBe(uuid);
  });
});
