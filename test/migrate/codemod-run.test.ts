/**
 * The proof of migrate-check --fix --write: small v1 integrations are copied, fixed in place, run
 * against the sandbox, and the sandbox's journal must show that they spoke v2 alone. Each entry of
 * INTEGRATIONS is a folder holding v1/ and the command that runs it; the runnable
 * integrations (test/fixtures/migrate/runnable) join by their manifest, fixed in a fresh git work
 * tree with a clean tree (no --force) and the v2 hosts left to their environment.
 */
import { cpSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_ACCOUNT } from '../../src/sandbox/accounts.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/server.js';
import { freshCli, tempDir } from '../helpers/cli.js';
import { call, journal, sandboxOrders, setBeforeSunset } from '../helpers/sandbox.js';
import { build, expand, integrations, JAVA_LIBS, RUNNABLE, resolveProgram } from './runnable-corpus.js';

const CODEMOD = resolve(import.meta.dirname, '../fixtures/migrate/codemod');

interface Integration {
  /** The folder holding v1/. */
  folder: string;
  /** The program and its arguments, run in the fixed copy. */
  command: [string, ...string[]];
}

const INTEGRATIONS: Integration[] = [
  { folder: join(CODEMOD, 'node-fetch'), command: [process.execPath, 'shop-checkout.mjs'] },
  { folder: join(CODEMOD, 'python-urllib'), command: ['python3', 'checkout.py'] },
  { folder: join(CODEMOD, 'shell-curl-jq'), command: ['bash', 'checkout.sh'] },
  { folder: join(CODEMOD, 'php-streams'), command: ['php', 'checkout.php'] },
  { folder: join(CODEMOD, 'ruby-nethttp'), command: ['ruby', 'checkout.rb'] },
  { folder: join(CODEMOD, 'go-nethttp'), command: ['go', 'run', 'main.go'] },
  { folder: join(CODEMOD, 'java-httpclient'), command: ['java', 'Checkout.java'] },
];

/** The program's environment: the sandbox's address for both hosts, and the sandbox's account. */
const programEnv = (url: string) => ({
  PAYORDER_AUTH_HOST: url,
  PAYORDER_CHECKOUT_HOST: url,
  PAYORDER_USER: TEST_ACCOUNT.username,
  PAYORDER_CLIENT_ID: TEST_ACCOUNT.clientId,
  PAYORDER_CLIENT_SECRET_ID: TEST_ACCOUNT.clientSecretId ?? '',
});

const runProgram = (integration: Integration, cwd: string, url: string) => {
  const [program, ...args] = integration.command;
  // go run and java compile first.
  return execa(program, args, { cwd, reject: false, timeout: 120_000, env: programEnv(url) });
};

/** Every file under a folder, its stage hosts pointed at `url` (for the v1 run only). */
function pointAt(folder: string, url: string): void {
  for (const name of readdirSync(folder, { recursive: true, encoding: 'utf8' })) {
    const path = join(folder, name);
    if (!statSync(path).isFile()) continue;
    const text = readFileSync(path, 'utf8');
    writeFileSync(path, text.replace(/https:\/\/(?:auth|checkout)-stage\.payorders\.example\.com/g, url));
  }
}

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterAll(async () => {
  await sandbox?.close();
});

describe('migrate-check --fix --write makes v1 integrations speak v2', () => {
  for (const integration of INTEGRATIONS) {
    it(`${integration.folder.split('/').at(-1)}`, async () => {
      // The v1 program works on v1, before the sunset.
      const original = tempDir('payorder-codemod-v1-');
      cpSync(join(integration.folder, 'v1'), original, { recursive: true });
      pointAt(original, sandbox.url);
      await call(sandbox.url, 'POST', '/_sandbox/reset');
      await setBeforeSunset(sandbox.url);
      const onV1 = await runProgram(integration, original, sandbox.url);
      expect(onV1.stderr).toBe('');
      expect(
        (await journal(sandbox.url)).map(
          (entry) => `${entry.method} ${entry.path.replace(/\/order\/[\w-]+$/, '/order/ID')} ${entry.status}`,
        ),
      ).toEqual(['POST /1/auth/token 200', 'POST /1/checkout 200', 'GET /1/order/ID 200']);

      const copy = tempDir('payorder-codemod-');
      cpSync(join(integration.folder, 'v1'), copy, { recursive: true });
      const run = freshCli();
      const fixed = await run([
        'migrate-check',
        copy,
        '--fix',
        '--write',
        '--force',
        '--v2-auth-url',
        sandbox.url,
        '--v2-checkout-url',
        sandbox.url,
      ]);
      expect(fixed.stderr).toContain('changed');
      expect(fixed.stderr).not.toContain('not changed');
      expect(fixed.exitCode).toBe(0);

      await call(sandbox.url, 'POST', '/_sandbox/reset');
      const ran = await runProgram(integration, copy, sandbox.url);
      expect(ran.stderr).toBe('');
      expect(ran.exitCode).toBe(0);

      const entries = await journal(sandbox.url);
      expect(entries.filter((entry) => entry.path.startsWith('/1/'))).toEqual([]);
      const tokens = entries.filter((entry) => entry.route === 'token');
      expect(tokens.map((entry) => entry.path)).toEqual(['/v2/api/auth/token']);
      expect(tokens[0].body).toHaveProperty('username', TEST_ACCOUNT.username);
      expect(tokens[0].body).not.toHaveProperty('user_name');
      const checkouts = entries.filter((entry) => entry.route === 'checkout');
      expect(checkouts.map((entry) => `${entry.path} ${entry.status}`)).toEqual(['/v2/api/checkout 200']);
      expect(checkouts[0].body).toMatchObject({ amount: '14990' });
      expect(checkouts[0].body).not.toHaveProperty('userName');
      const [order] = await sandboxOrders(sandbox.url);
      const lookups = entries.filter((entry) => entry.route === 'lookup');
      expect(lookups.map((entry) => `${entry.path} ${entry.status}`)).toEqual([
        `/v2/api/orders/${order.uuid} 200`,
      ]);
      expect(ran.stdout).toContain(`pay here: ${order.links.checkout_link}\n`);
      expect(ran.stdout).toContain('waiting: PENDING');

      const again = await run(['migrate-check', copy]);
      expect(again.stdout).toContain('ready');
      expect(again.exitCode).toBe(0);
      expect(readdirSync(copy).some((name) => name.includes('.v2.'))).toBe(false);
    }, 180_000);
  }
});

/** Go builds offline, into folders of the run's own. */
function goEnv(): Record<string, string> {
  const root = tempDir('payorder-go-');
  for (const dir of ['cache', 'path']) mkdirSync(join(root, dir));
  return {
    GOCACHE: join(root, 'cache'),
    GOPATH: join(root, 'path'),
    GOFLAGS: '',
    GOPROXY: 'off',
    GO111MODULE: 'off',
    GOTOOLCHAIN: 'local',
    GOTELEMETRY: 'off',
  };
}

const git = (cwd: string, ...args: string[]) =>
  execa('git', ['-c', 'user.name=payorder', '-c', 'user.email=payorder@example.invalid', ...args], { cwd });

describe('migrate-check --fix --write makes the runnable integrations speak v2', () => {
  for (const integration of integrations) {
    const { program, reason } = resolveProgram(integration);
    const title = `${integration.name} (${integration.language}: ${integration.shape})`;
    if (!program && process.env.CI !== 'true') {
      it.skip(`${title} (skipped: ${reason})`, () => {});
      continue;
    }
    it(title, async () => {
      if (!program) expect.fail(`${reason}; it is required under CI=true`);
      // The v1 copy in a git work tree of its own, committed: --write needs no --force there.
      const copy = join(tempDir(`payorder-fix-${integration.name}-`), 'app');
      cpSync(join(RUNNABLE, integration.name, 'v1'), copy, { recursive: true });
      await git(copy, 'init', '-q');
      await git(copy, 'add', '.');
      await git(copy, 'commit', '-q', '-m', 'v1');
      const run = freshCli();
      const fixed = await run(['migrate-check', copy, '--fix', '--write']);
      expect(fixed.stderr).not.toContain('not changed');
      expect(fixed.stderr).toContain('changed');
      expect(fixed.exitCode).toBe(0);

      await call(sandbox.url, 'POST', '/_sandbox/reset');
      const env = {
        PATH: process.env.PATH,
        HOME: copy,
        LANG: 'C.UTF-8',
        PYTHONDONTWRITEBYTECODE: '1',
        JAVA_LIBS,
        AUTH_BASE: sandbox.url,
        CHECKOUT_BASE: sandbox.url,
        PAYORDER_USER: TEST_ACCOUNT.username,
        PAYORDER_CLIENT_ID: TEST_ACCOUNT.clientId,
        PAYORDER_CLIENT_SECRET: TEST_ACCOUNT.clientSecretId ?? '',
        ...(integration.run[0] === 'go' ? goEnv() : {}),
      };
      expect(await build(integration, copy, env)).toBeUndefined();
      const args = integration.run.slice(1).map((word) => expand(word, env));
      const ran = await execa(program, args, {
        cwd: copy,
        env,
        extendEnv: false,
        reject: false,
        timeout: 120_000,
      });
      expect(ran.exitCode, ran.stderr + ran.stdout).toBe(0);

      const entries = await journal(sandbox.url);
      const reached = entries.map((entry) => `${entry.method} ${entry.path} ${entry.status}`).join(', ');
      expect(
        entries.filter((entry) => entry.path.startsWith('/1/')),
        reached,
      ).toEqual([]);
      expect(
        entries.every((entry) => entry.status === 200),
        reached,
      ).toBe(true);
      const tokens = entries.filter((entry) => entry.route === 'token');
      expect(tokens.length, reached).toBeGreaterThanOrEqual(1);
      for (const token of tokens) {
        expect(token.path).toBe('/v2/api/auth/token');
        expect(token.body).toHaveProperty('username', TEST_ACCOUNT.username);
        expect(token.body).not.toHaveProperty('user_name');
      }
      const checkouts = entries.filter((entry) => entry.route === 'checkout');
      expect(checkouts.map((entry) => entry.path)).toEqual(['/v2/api/checkout']);
      expect(checkouts[0].body).toMatchObject({ amount: '1250' });
      expect(checkouts[0].body).not.toHaveProperty('userName');
      const [order] = await sandboxOrders(sandbox.url);
      const lookups = entries.filter((entry) => entry.route === 'lookup');
      expect(lookups.length, reached).toBeGreaterThanOrEqual(1);
      expect(lookups.map((entry) => entry.path)).toEqual(lookups.map(() => `/v2/api/orders/${order.uuid}`));
      expect(ran.stdout).toContain(`Payment link: ${order.links.checkout_link}\n`);

      const again = await run(['migrate-check', copy]);
      expect(again.stdout, again.stdout).toContain('ready');
      expect(again.exitCode, again.stdout).toBe(0);
    }, 180_000);
  }
});
