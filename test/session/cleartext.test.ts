/**
 * Cleartext addresses: production and stage refuse http:// beyond this machine wherever an address
 * comes in (config set, login's flags, the PAYORDER_ variables, the store) and before anything is
 * sent; --allow-insecure-http or the config key of the same name allows it, warning each time. A
 * server of the test's own stands as the proxy that HTTP_PROXY names: what would travel in
 * cleartext to a remote address reaches it, so the test sees whether anything was sent.
 */
import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Target } from '../../src/api/service.js';
import { isLoopbackHost, parsedUrl } from '../../src/contract/urls.js';
import { isCleartext } from '../../src/session/cleartext.js';
import { openSession } from '../../src/session/session.js';
import { freshCli, orderFlags, SHOP, tempDir } from '../helpers/cli.js';
import { testContext } from '../helpers/context.js';
import { SHOP_ENV, useE2E } from '../helpers/e2e.js';
import { rejection } from '../helpers/refusal.js';
import { OPAQUE_TOKEN_ANSWER, serveHttp } from '../helpers/servers.js';

const e2e = useE2E();
const REMOTE = 'http://auth.payments.example.com';

const refusedLine = (field: string, env: string) =>
  `error: ${field}: ${env} needs https:// (http:// only to this machine: localhost, 127.0.0.0/8, ::1), or the client secret and tokens travel unencrypted`;

/** A proxy of the test's own that answers every request as a token service would, and lists what reached it. */
async function recordingProxy() {
  const asked: string[] = [];
  const url = await serveHttp(async (request, response) => {
    for await (const _ of request);
    asked.push(`${request.method} ${request.url}`);
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(OPAQUE_TOKEN_ANSWER));
  });
  return { asked, env: { HTTP_PROXY: url } };
}

describe('which addresses are cleartext', () => {
  it.each([
    'http://localhost:8080',
    'http://LOCALHOST',
    'http://127.0.0.1:4010',
    'http://127.200.3.4',
    'http://2130706433',
    'http://[::1]:4010',
  ])('%s is this machine', (url) => {
    expect(isLoopbackHost(parsedUrl(url).hostname)).toBe(true);
    expect(isCleartext('production', url)).toBe(false);
  });

  it.each([
    REMOTE,
    'http://127.0.0.1.example.com',
    'http://localhost.example.com',
    'http://10.0.0.1',
    'http://0.0.0.0',
    'http://[::ffff:127.0.0.1]',
  ])('%s is cleartext for production and stage, not for the sandbox', (url) => {
    expect(isCleartext('production', url)).toBe(true);
    expect(isCleartext('stage', url)).toBe(true);
    expect(isCleartext('sandbox', url)).toBe(false);
  });

  it('https:// is never cleartext', () => {
    expect(isCleartext('production', 'https://auth.payments.example.com')).toBe(false);
  });
});

describe('config set', () => {
  it.each([
    ['production', 'auth'],
    ['stage', 'checkout'],
    ['test', 'auth'],
  ])(
    '%s.v2.%s-url http://… beyond this machine: exit 2, one line and a pasteable hint; nothing stored',
    async (env, kind) => {
      const cli = freshCli();
      const key = `${env === 'test' ? 'stage' : env}.v2.${kind}-url`;
      const result = await cli(['config', 'set', `${env}.v2.${kind}-url`, `${REMOTE}/tenant`]);
      expect(result).toEqual({
        exitCode: 2,
        stdout: '',
        stderr:
          `${refusedLine(key, env === 'test' ? 'stage' : env)}\n` +
          `hint: use https: payorder config set ${key} https://auth.payments.example.com/tenant; or add --allow-insecure-http to send them unencrypted anyway\n`,
      });
      expect((await cli(['config', 'list', '--json'])).stdout).toBe('{}\n');
    },
  );

  it('https://, this machine over http://, and any sandbox address are stored without a word', async () => {
    const cli = freshCli();
    for (const [key, value] of [
      ['production.v2.auth-url', 'https://auth.payments.example.com'],
      ['production.v2.checkout-url', 'http://127.0.0.1:8443'],
      ['stage.v1.auth-url', 'http://localhost:8080'],
      ['stage.v1.checkout-url', 'http://[::1]:8080'],
      ['sandbox.v2.auth-url', 'http://sandbox.example:4010'],
    ] as const) {
      expect(await cli(['config', 'set', key, value])).toEqual({
        exitCode: 0,
        stdout: '',
        stderr: `${key} = ${value}\n`,
      });
    }
  });

  it('--allow-insecure-http, or the config key, stores it with a warning', async () => {
    const cli = freshCli();
    const flagged = await cli(['config', 'set', 'production.v2.auth-url', REMOTE, '--allow-insecure-http']);
    expect(flagged).toEqual({
      exitCode: 0,
      stdout: '',
      stderr:
        `warning: production.v2.auth-url is ${REMOTE}: production's client secret and tokens travel unencrypted (allowed by --allow-insecure-http)\n` +
        `production.v2.auth-url = ${REMOTE}\n`,
    });
    expect((await cli(['config', 'set', 'allow-insecure-http', 'TRUE'])).stderr).toBe(
      'allow-insecure-http = true\n',
    );
    const keyed = await cli(['config', 'set', 'stage.v2.auth-url', REMOTE]);
    expect(keyed.exitCode).toBe(0);
    expect(keyed.stderr).toContain('(allowed by allow-insecure-http true)');
    expect(JSON.parse((await cli(['config', 'list', '--json'])).stdout)).toMatchObject({
      'allow-insecure-http': 'true',
      'production.v2.auth-url': REMOTE,
      'stage.v2.auth-url': REMOTE,
    });
  });
});

describe('an address at the moment of use', () => {
  it('this machine over http:// is production-worthy: no refusal, no warning', async () => {
    const result = await e2e.run(['login', '--env', 'production', '--insecure-storage'], { env: SHOP_ENV });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).not.toContain('warning');
  });

  it.each([
    ['login', ['login', '--env', 'production']],
    ['token', ['token', '--env', 'stage']],
    ['order create', ['order', 'create', '--env', 'production', '--amount', '1.00', ...orderFlags()]],
    ['order get', ['order', 'get', '--env', 'stage', '6f1c2d3e-0000-4000-8000-000000000000']],
  ])('PAYORDER_AUTH_URL=http://… for %s: exit 2 naming the variable, nothing sent', async (_, args) => {
    const proxy = await recordingProxy();
    const env = args.includes('production') ? 'production' : 'stage';
    const result = await e2e.run(args, {
      env: {
        ...SHOP_ENV,
        ...proxy.env,
        PAYORDER_AUTH_URL: REMOTE,
        PAYORDER_CHECKOUT_URL: 'https://pay.example.com',
      },
    });
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `${refusedLine('PAYORDER_AUTH_URL', env)}\n` +
        'hint: use https: PAYORDER_AUTH_URL=https://auth.payments.example.com; or add --allow-insecure-http to send them unencrypted anyway\n',
    );
    expect(proxy.asked).toEqual([]);
  });

  it('login --checkout-url http://…: exit 2 naming the flag; nothing sent or stored', async () => {
    const proxy = await recordingProxy();
    const result = await e2e.run(
      [
        'login',
        '--env',
        'production',
        '--auth-url',
        'https://auth.payments.example.com',
        '--checkout-url',
        'http://pay.example.com',
      ],
      { env: { ...SHOP_ENV, ...proxy.env, PAYORDER_AUTH_URL: undefined, PAYORDER_CHECKOUT_URL: undefined } },
    );
    expect(result.exitCode).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe(refusedLine('--checkout-url', 'production'));
    expect(result.stderr).toContain('hint: use https: --checkout-url https://pay.example.com;');
    expect(proxy.asked).toEqual([]);
    expect((await e2e.run(['config', 'list', '--json'])).stdout).toBe('{}\n');
  });

  it.each([
    [
      'a stored address',
      {
        environments: {
          production: { credentials: SHOP, addresses: { v2: { auth: REMOTE, checkout: REMOTE } } },
        },
      },
      'production.v2.auth-url',
      'payorder config set production.v2.auth-url https://auth.payments.example.com',
    ],
    [
      "a profile's own address",
      {
        profiles: {
          'shop-b': {
            environments: {
              production: { credentials: SHOP, addresses: { v2: { auth: REMOTE, checkout: REMOTE } } },
            },
          },
        },
      },
      'the auth address of profile shop-b',
      'payorder login --env production --profile shop-b --auth-url https://auth.payments.example.com',
    ],
  ])('%s written by an older payorder is refused when used, nothing sent', async (_, store, field, fix) => {
    writeFileSync(e2e.storeFile(), JSON.stringify(store), { mode: 0o600 });
    const proxy = await recordingProxy();
    const profile = field.includes('shop-b') ? ['--profile', 'shop-b'] : [];
    const result = await e2e.run(['token', '--env', 'production', ...profile], {
      env: { ...proxy.env, PAYORDER_AUTH_URL: undefined, PAYORDER_CHECKOUT_URL: undefined },
    });
    expect(result.exitCode).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe(refusedLine(field, 'production'));
    expect(result.stderr).toContain(`hint: use https: ${fix};`);
    expect(proxy.asked).toEqual([]);
  });
});

describe('a session, the last look before anything is sent', () => {
  // Every command resolves its target through the checks above; a target built any other way is
  // still refused here.
  const target: Target = {
    profile: 'default',
    env: 'production',
    version: 'v2',
    authBase: 'https://auth.payments.example.com',
    checkoutBase: 'http://pay.payments.example.com',
  };

  it('refuses a cleartext address of a target, unless the user allowed it', async () => {
    const { ctx } = testContext({ env: { PAYORDER_CONFIG_DIR: tempDir() } });
    const error = await rejection(() => openSession(ctx, target, { credentials: SHOP }));
    expect([error.exitCode, error.message]).toEqual([
      2,
      refusedLine('the checkout address', 'production').slice(7),
    ]);
    ctx.flags.allowInsecureHttp = true;
    expect((await openSession(ctx, target, { credentials: SHOP })).target).toEqual(target);
  });
});

describe('allowing cleartext deliberately', () => {
  const remote = { PAYORDER_AUTH_URL: REMOTE, PAYORDER_CHECKOUT_URL: REMOTE };
  const warning = (field: string, by: string) =>
    `warning: ${field} is ${REMOTE}: production's client secret and tokens travel unencrypted (allowed by ${by})\n`;

  it('--allow-insecure-http: the login goes through, with a warning per address', async () => {
    const proxy = await recordingProxy();
    const result = await e2e.run(['login', '--env', 'production', '--allow-insecure-http'], {
      env: { ...SHOP_ENV, ...proxy.env, ...remote },
    });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).toContain(
      warning('PAYORDER_AUTH_URL', '--allow-insecure-http') +
        warning('PAYORDER_CHECKOUT_URL', '--allow-insecure-http'),
    );
    expect(proxy.asked).toEqual([`POST ${REMOTE}/v2/api/auth/token`]);
  });

  it('the config key: every command that uses the address warns, even with --quiet', async () => {
    const proxy = await recordingProxy();
    const env = { ...SHOP_ENV, ...proxy.env, ...remote };
    expect((await e2e.run(['config', 'set', 'allow-insecure-http', 'true'])).exitCode).toBe(0);
    for (const quiet of [[], ['--quiet']]) {
      const result = await e2e.run(['token', '--env', 'production', ...quiet], { env, printsToken: true });
      expect(result.exitCode, result.stderr).toBe(0);
      expect(result.stderr).toBe(
        warning('PAYORDER_AUTH_URL', 'allow-insecure-http true') +
          warning('PAYORDER_CHECKOUT_URL', 'allow-insecure-http true'),
      );
    }
    expect((await e2e.run(['config', 'set', 'allow-insecure-http', 'false'])).exitCode).toBe(0);
    expect((await e2e.run(['token', '--env', 'production'], { env })).exitCode).toBe(2);
    expect(proxy.asked).toHaveLength(1);
  });
});
