import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Target } from '../../src/api/service.js';
import { type ApiVersion, PATHS, PREFIX } from '../../src/contract/versions.js';
import { TEST_ACCOUNT } from '../../src/sandbox/accounts.js';
import { tokenKey } from '../../src/session/token-cache.js';
import { cliFor, SECRET, SHOP } from '../helpers/cli.js';
import { runInProcess } from '../helpers/context.js';
import { loginArgs, SHOP_ENV, useE2E } from '../helpers/e2e.js';
import { CANCEL, scriptedPrompter } from '../helpers/prompter.js';
import { call, journal } from '../helpers/sandbox.js';
import { OPAQUE_TOKEN, OPAQUE_TOKEN_ANSWER, serveHttp, unusedPort } from '../helpers/servers.js';

const e2e = useE2E({}, { beforeSunset: true });
const storeExists = () => existsSync(e2e.storeFile());
const sandbox = (version: ApiVersion = 'v2'): Target => ({
  profile: 'default',
  env: 'sandbox',
  version,
  authBase: e2e.sb.url,
  checkoutBase: e2e.sb.url,
});
const mode = (path: string) => (statSync(path).mode & 0o777).toString(8);

describe('payorder login', () => {
  it('by environment variables on v2: one token request, credentials and token stored privately', async () => {
    const result = await e2e.run(['login', '--env', 'sandbox'], { env: SHOP_ENV });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toContain(`Logged in to sandbox (v2) as ${SHOP.username}`);
    expect(result.stdout).toBe('');
    const tokens = await journal(e2e.sb.url, 'token');
    expect(tokens).toHaveLength(1);
    // What reached the service, in the spec's field names typed out (the wire format, checked on its own).
    expect(tokens[0].body).toEqual({
      username: SHOP.username,
      client_id: SHOP.clientId,
      client_secret_id: '***',
      grant_type: 'client_credentials',
    });
    const profile = e2e.store().environments?.sandbox;
    expect(profile?.credentials).toEqual(SHOP);
    expect(Object.keys(profile?.tokens ?? {})).toEqual([tokenKey(sandbox(), SHOP)]);
    expect(await e2e.sb.sandbox.core.tokens.verify(e2e.cachedToken().accessToken)).toEqual({
      ok: true,
      claims: { sub: SHOP.username, client_id: SHOP.clientId, exp: expect.any(Number) },
    });
    expect(mode(e2e.storeFile())).toBe('600');
    expect(mode(e2e.dir)).toBe('700');
  });

  it('--json prints the login for scripts on stdout', async () => {
    const now = '2026-11-02T10:00:00Z';
    const result = await e2e.run(['login', '--env', 'sandbox', '--json'], {
      env: { ...SHOP_ENV, PAYORDER_NOW: now },
    });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      profile: 'default',
      env: 'sandbox',
      api: 'v2',
      username: SHOP.username,
      client_id: SHOP.clientId,
      token_expires_at: new Date(Date.parse(now) + e2e.sb.sandbox.core.tokenTtlSeconds * 1000).toISOString(),
      store: e2e.storeFile(),
      secret_storage: 'file',
    });
  });

  it('by flags and the secret on stdin, on v1 (user_name)', async () => {
    const result = await e2e.run(loginArgs('sandbox', '--api', 'v1'), {
      input: `${SECRET}\n`,
      env: { PAYORDER_NOW: '2026-10-01T12:00:00Z' },
    });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toContain(
      'warning: API v1 is deprecated and is switched off on 2026-12-31 (91 days left); move to --api v2',
    );
    const tokens = await journal(e2e.sb.url, 'token');
    expect(tokens.map((t) => t.path)).toEqual([PATHS.token('v1')]);
    expect(tokens[0].body).toEqual({
      user_name: SHOP.username,
      client_id: SHOP.clientId,
      client_secret_id: '***',
      grant_type: 'client_credentials',
    });
    const profile = e2e.store().environments?.sandbox;
    expect(profile?.api).toBe('v1');
    expect(Object.keys(profile?.tokens ?? {})).toEqual([tokenKey(sandbox('v1'), SHOP)]);
  });

  it('by a secret file', async () => {
    const file = join(e2e.dir, 'secret.txt');
    writeFileSync(file, `${SECRET}\n`);
    const result = await e2e.run([
      'login',
      '--env',
      'sandbox',
      '--username',
      SHOP.username,
      '--client-id',
      SHOP.clientId,
      '--client-secret-file',
      file,
    ]);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(e2e.store().environments?.sandbox?.credentials).toEqual(SHOP);
  });

  it('with nothing given on the sandbox uses the documented test account', async () => {
    const result = await e2e.run(['login', '--env', 'sandbox', '--no-input']);
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toContain(`using the sandbox test account ${TEST_ACCOUNT.username}`);
    expect(e2e.store().environments?.sandbox?.credentials).toEqual(TEST_ACCOUNT);
  });

  it('by prompt on a terminal, the secret asked for hidden, an empty answer refused', async () => {
    const { prompter, asked } = scriptedPrompter([' ', SHOP.username, SHOP.clientId, SECRET]);
    const result = await runInProcess(['login', '--env', 'stage', '--api', 'v2'], {
      env: e2e.env(),
      stdinIsTTY: true,
      stderrIsTTY: true,
      prompter,
    });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(asked).toEqual([
      { kind: 'input', message: 'Username for stage:', refused: ['required'], answer: SHOP.username },
      { kind: 'input', message: 'Client id:', refused: [], answer: SHOP.clientId },
      { kind: 'password', message: 'Client secret id:', refused: [], answer: SECRET },
    ]);
    expect(result.stdout + result.stderr).not.toContain(SECRET);
    expect(e2e.store().environments?.stage?.credentials).toEqual(SHOP);
  });

  it('Ctrl-C in a prompt cancels the login: exit 130, nothing stored', async () => {
    const { prompter } = scriptedPrompter([SHOP.username, CANCEL]);
    const result = await runInProcess(['login', '--env', 'stage', '--api', 'v2'], {
      env: e2e.env(),
      stdinIsTTY: true,
      stderrIsTTY: true,
      prompter,
    });
    expect(result.exitCode).toBe(130);
    expect(result.stderr).toContain('login cancelled; nothing was stored');
    expect(storeExists()).toBe(false);
    expect(await journal(e2e.sb.url)).toHaveLength(0);
  });

  it('--no-input without a secret fails naming what is missing, and sends nothing', async () => {
    const result = await e2e.run([
      'login',
      '--env',
      'stage',
      '--username',
      'u',
      '--client-id',
      'c',
      '--no-input',
    ]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(
      'missing --client-secret-stdin, --client-secret-file or PAYORDER_CLIENT_SECRET_ID',
    );
    expect(await journal(e2e.sb.url)).toHaveLength(0);
  });

  it('the secret is never a flag value', async () => {
    const result = await e2e.run(['login', '--env', 'sandbox', '--client-secret', 'x']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain("unknown option '--client-secret'");
  });

  it.each([
    ['3003', { PAYORDER_USERNAME: 'nobody' }, `no user account "nobody" on sandbox (3003)`],
    [
      '3005',
      { PAYORDER_CLIENT_ID: 'wrong-client' },
      'no active client with client id "wrong-client" on sandbox (3005)',
    ],
    [
      '3006',
      { PAYORDER_CLIENT_SECRET_ID: 'wrong-secret' },
      `the secret does not match client id "${SHOP.clientId}" on sandbox (3006)`,
    ],
  ])('%s: one actionable line, exit 4, nothing stored', async (_, override, message) => {
    const result = await e2e.run(['login', '--env', 'sandbox'], { env: { ...SHOP_ENV, ...override } });
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toContain(`error: ${message}`);
    expect(result.stderr).toContain('hint: ');
    expect(result.stderr).not.toContain('wrong-secret');
    expect(storeExists()).toBe(false);
  });

  it.each([
    ['3001', 4, 'says a required field is empty (3001)'],
    ['3002', 4, 'does not support the client_credentials grant (3002)'],
    [
      'token-500',
      1,
      'the token service on sandbox failed (500: Something bad happened. Please try again.); nothing was stored',
    ],
  ])('forced %s → exit %i', async (id, exit, message) => {
    await call(e2e.sb.url, 'POST', '/_sandbox/force', { route: 'token', error: id });
    const result = await e2e.run(['login', '--env', 'sandbox'], { env: SHOP_ENV });
    expect(result.exitCode).toBe(exit);
    expect(result.stderr).toContain(message);
    expect(storeExists()).toBe(false);
  });

  it('--json makes errors JSON on stderr', async () => {
    const result = await e2e.run(['login', '--env', 'sandbox', '--json'], {
      env: { ...SHOP_ENV, PAYORDER_CLIENT_SECRET_ID: 'nope' },
    });
    expect(result.exitCode).toBe(4);
    expect(JSON.parse(result.stderr)).toEqual({
      error: {
        kind: 'auth',
        message: `the secret does not match client id "${SHOP.clientId}" on sandbox (3006)`,
        exit_code: 4,
        code: '3006',
        status: 401,
        field: null,
        hint: 'enter the client secret id again: payorder login --env sandbox',
      },
    });
  });

  it('--debug traces the exchange with the secret and token masked', async () => {
    const result = await e2e.run(['login', '--env', 'sandbox', '--debug'], { env: SHOP_ENV });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toContain(`[debug] → POST ${e2e.sb.url}${PATHS.token('v2')}`);
    expect(result.stderr).toContain('"client_secret_id":"***"');
    expect(result.stderr).toContain('"access_token":"***"');
    expect(result.stderr).toContain('[debug] ← 200');
  });

  it('an unreachable service is exit 5 naming the address', async () => {
    const url = `http://127.0.0.1:${await unusedPort()}`;
    const result = await e2e.run(['login', '--env', 'sandbox'], {
      env: { ...SHOP_ENV, PAYORDER_AUTH_URL: url },
    });
    expect(result.exitCode).toBe(5);
    expect(result.stderr).toContain(`cannot reach ${url}`);
  });

  it('stage needs its addresses: the error names the key and the command that sets it', async () => {
    const run = cliFor({ configDir: e2e.dir });
    const result = await run(['login', '--env', 'test'], { env: SHOP_ENV });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('no auth address is configured for stage v2');
    expect(result.stderr).toContain('payorder config set stage.v2.auth-url');
    const stored = await run(
      ['login', '--env', 'stage', '--auth-url', e2e.sb.url, '--checkout-url', e2e.sb.url],
      { env: SHOP_ENV },
    );
    expect(stored.exitCode).toBe(0);
    expect(e2e.store().environments?.stage?.addresses?.v2).toEqual({
      auth: e2e.sb.url,
      checkout: e2e.sb.url,
    });
  });
});

describe('the store', () => {
  it('a corrupt file is named and never replaced', async () => {
    writeFileSync(e2e.storeFile(), '{"environments": {');
    for (const args of [['status'], ['login', '--env', 'sandbox']]) {
      const result = await e2e.run(args, { env: SHOP_ENV });
      expect(result.exitCode).toBe(2);
      expect(result.stderr).toContain(`the payorder store ${e2e.storeFile()} cannot be read`);
      expect(readFileSync(e2e.storeFile(), 'utf8')).toBe('{"environments": {');
    }
  });

  it('is 0600 in a 0700 folder even under umask 000', async () => {
    const dir = join(e2e.dir, 'nested');
    const previous = process.umask(0o000);
    try {
      const result = await e2e.run(['login', '--env', 'sandbox'], {
        env: { PAYORDER_CONFIG_DIR: dir, ...SHOP_ENV },
      });
      expect(result.exitCode, result.stderr).toBe(0);
    } finally {
      process.umask(previous);
    }
    expect(mode(join(dir, 'config.json'))).toBe('600');
    expect(mode(dir)).toBe('700');
  });
});

describe('login: what is refused before anything is sent', () => {
  it.each([
    ['empty', ''],
    ['an empty line', '\n'],
    ['blanks', '  \n'],
  ])(
    '--client-secret-stdin with %s stdin → exit 2 "stdin was empty", nothing sent or stored',
    async (_, input) => {
      const result = await e2e.run(loginArgs(), { input });
      expect(result.exitCode).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe('error: --client-secret-stdin: stdin was empty; pipe the secret in\n');
      expect(await journal(e2e.sb.url)).toEqual([]);
      expect(storeExists()).toBe(false);
    },
  );

  it.each([
    ['--auth-url', `https://auth.example${PREFIX.v2}`, `give the base address without "${PREFIX.v2}"`],
    [
      '--auth-url',
      `https://auth.example${PATHS.token('v1')}`,
      `give the base address without "${PREFIX.v1}"`,
    ],
    ['--checkout-url', 'https://checkout.example/checkout', 'give the base address, not an endpoint'],
    ['--auth-url', 'https://user:pw-9f2c@auth.example', 'must not contain a user name or password'],
  ])('%s %s → exit 2 naming the flag and the rule, nothing sent or stored', async (flag, value, rule) => {
    const result = await e2e.run(['login', '--env', 'stage', flag, value], { env: SHOP_ENV });
    expect(result.exitCode).toBe(2);
    expect(result.stderr.split('\n')[0]).toContain(`error: ${flag}: ${rule}`);
    expect(result.stderr).not.toContain('pw-9f2c');
    expect(await journal(e2e.sb.url)).toEqual([]);
    expect(storeExists()).toBe(false);
  });

  it.each([
    ['PAYORDER_AUTH_URL', `https://auth.example${PREFIX.v2}`, `give the base address without "${PREFIX.v2}"`],
    [
      'PAYORDER_AUTH_URL',
      `https://auth.example${PATHS.token('v1')}`,
      `give the base address without "${PREFIX.v1}"`,
    ],
    [
      'PAYORDER_CHECKOUT_URL',
      'https://user:pw-9f2c@checkout.example',
      'must not contain a user name or password',
    ],
  ])('%s=%s → exit 2 naming the variable, nothing sent', async (name, value, rule) => {
    for (const args of [
      ['login', '--env', 'sandbox'],
      ['token', '--env', 'sandbox'],
    ]) {
      const result = await e2e.run(args, { env: { ...SHOP_ENV, [name]: value }, printsToken: true });
      expect(result.exitCode, args[0]).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr.split('\n')[0]).toContain(`error: ${name}: ${rule}`);
      expect(result.stderr).not.toContain('pw-9f2c');
    }
    expect(await journal(e2e.sb.url)).toEqual([]);
    expect(storeExists()).toBe(false);
  });
});

/** A token service of the test's own that answers 200 with `body`; closed when the test ends. */
async function tokenService(body: unknown) {
  const url = await serveHttp(async (request, response) => {
    for await (const _ of request);
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  });
  return { PAYORDER_AUTH_URL: url, PAYORDER_CHECKOUT_URL: url };
}

describe('login against a token service that issues opaque tokens', () => {
  it('the token is stored and never shown, with or without --debug', async () => {
    const env = await tokenService(OPAQUE_TOKEN_ANSWER);
    for (const flags of [[], ['--debug'], ['--json']]) {
      const result = await e2e.run(['login', '--env', 'sandbox', ...flags], { env: { ...SHOP_ENV, ...env } });
      expect(result.exitCode, result.stderr).toBe(0);
      expect(result.stdout + result.stderr).not.toContain(OPAQUE_TOKEN);
    }
    const tokens = Object.values(e2e.store().environments?.sandbox?.tokens ?? {});
    expect(tokens.map((t) => t.accessToken)).toEqual([OPAQUE_TOKEN]);
  });

  // A 200 token answer payorder cannot use is refused naming the field and its rule, never with the
  // body: whatever it holds, under any name, may be the token.
  it.each<[string, Record<string, unknown>, string]>([
    [
      'expires_in as a string',
      { ...OPAQUE_TOKEN_ANSWER, expires_in: '3600' },
      'expires_in must be a whole number of seconds from 1 to 31536000 (one year)',
    ],
    [
      'the token under another name',
      { token: OPAQUE_TOKEN, expires_in: 3600, token_type: 'Bearer' },
      'access_token must be a non-empty string of visible ASCII characters without spaces',
    ],
    [
      'a token with a line break',
      { ...OPAQUE_TOKEN_ANSWER, access_token: `${OPAQUE_TOKEN}\r\nX-Injected: 1` },
      'access_token must be',
    ],
    [
      'a token with a space',
      { ...OPAQUE_TOKEN_ANSWER, access_token: `Bearer ${OPAQUE_TOKEN}` },
      'access_token must be',
    ],
    ['an empty token', { ...OPAQUE_TOKEN_ANSWER, access_token: '' }, 'access_token must be'],
    ['a lifetime of 1e15 seconds', { ...OPAQUE_TOKEN_ANSWER, expires_in: 1e15 }, 'expires_in must be'],
    ['a lifetime over a year', { ...OPAQUE_TOKEN_ANSWER, expires_in: 31_536_001 }, 'expires_in must be'],
    ['a fractional lifetime', { ...OPAQUE_TOKEN_ANSWER, expires_in: 1.5 }, 'expires_in must be'],
    ['no lifetime', { ...OPAQUE_TOKEN_ANSWER, expires_in: 0 }, 'expires_in must be'],
  ])(
    'a 200 answer with %s: exit 1 naming the field and the rule, never the token; nothing stored',
    async (_, body, rule) => {
      const env = await tokenService(body);
      const result = await e2e.run(['login', '--env', 'sandbox'], { env: { ...SHOP_ENV, ...env } });
      expect(result.exitCode).toBe(1);
      expect(result.stdout).toBe('');
      const [line, hint, rest] = result.stderr.split('\n');
      expect(line).toContain(
        `error: the token service on sandbox answered 200 with an unusable token: ${rule}`,
      );
      expect(hint).toMatch(/^hint: /);
      expect(rest).toBe('');
      expect(result.stderr).not.toContain(OPAQUE_TOKEN);
      expect(storeExists()).toBe(false);
    },
  );

  it('a 200 answer that is no JSON object is refused the same way, without its text', async () => {
    const url = await serveHttp((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.end(OPAQUE_TOKEN);
    });
    const result = await e2e.run(['login', '--env', 'sandbox'], {
      env: { ...SHOP_ENV, PAYORDER_AUTH_URL: url, PAYORDER_CHECKOUT_URL: url },
    });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('answered 200 with an unusable token: its body must be a JSON object');
    expect(result.stderr).not.toContain(OPAQUE_TOKEN);
  });
});

describe('login against a token service that misbehaves', () => {
  // The token request carries the client secret: a redirect would hand it to whoever the answer names.
  it.each([
    ['another port, over plain HTTP', (capture: string) => `${capture}/capture/token`],
    ['another host', (capture: string) => `${capture.replace('127.0.0.1', '127.0.0.2')}/capture/token`],
    ['the same origin', () => '/v2/api/auth/token/again'],
  ])(
    'a redirect to %s is not followed: exit 5, the secret sent nowhere else, nothing stored',
    async (_name, to) => {
      const captured: string[] = [];
      const capture = await serveHttp(async (request, response) => {
        for await (const chunk of request) captured.push(String(chunk));
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify(OPAQUE_TOKEN_ANSWER));
      });
      const redirects = await serveHttp(async (request, response) => {
        for await (const _ of request);
        response.writeHead(307, { location: to(capture) });
        response.end();
      });
      const result = await e2e.run(['login', '--env', 'sandbox', '--debug'], {
        env: { ...SHOP_ENV, PAYORDER_AUTH_URL: redirects, PAYORDER_CHECKOUT_URL: redirects },
      });
      expect(result.exitCode).toBe(5);
      const location = new URL(to(capture), redirects).href;
      expect(result.stderr).toContain(
        `error: ${redirects} answered 307 with a redirect to ${location}, and payorder follows no redirect of a token request, which carries the client secret; nothing was stored`,
      );
      expect(result.stderr).toContain('[debug] ← 307');
      expect(result.stderr).toContain(`[debug] ← location: ${location}`);
      expect(captured).toEqual([]);
      expect(storeExists()).toBe(false);
    },
  );

  // The token can stand under any name: every value of a token answer is masked wherever it is shown.
  it('a token under an unexpected name is never shown, in the error or in --debug', async () => {
    const env = await tokenService({ token: OPAQUE_TOKEN, expires_in: 3600 });
    const result = await e2e.run(['login', '--env', 'sandbox', '--debug'], { env: { ...SHOP_ENV, ...env } });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('[debug] ← {"token":"***","expires_in":"***"}');
    expect(result.stderr).not.toContain(OPAQUE_TOKEN);
    expect(storeExists()).toBe(false);
  });
});

describe('v1 switched off by the service', () => {
  // payorder's own clock before the sunset, the sandbox's after it: the service's 410 is told as such.
  it('a 410 from v1 is "switched off", exit 1, with what to do; nothing stored', async () => {
    await call(e2e.sb.url, 'POST', '/_sandbox/clock', { now: '2027-01-02T09:00:00Z' });
    const result = await e2e.run(['login', '--env', 'sandbox', '--api', 'v1'], {
      env: { ...SHOP_ENV, PAYORDER_NOW: '2026-12-30T09:00:00Z' },
    });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain(
      'error: the service on sandbox says API v1 is switched off (410); use --api v2',
    );
    expect(result.stderr).toContain(
      'hint: payorder migrate-check shows what an integration must change for v2',
    );
    expect(storeExists()).toBe(false);
  });
});
