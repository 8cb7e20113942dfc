/**
 * The runnable integrations (test/fixtures/migrate/runnable) run against the sandbox: each v1 copy on
 * v1 (the sandbox's clock before the sunset), each hand-migrated v2 copy on v2. What reached the
 * sandbox is checked on its journal: a token, exactly one order with the version's amount and user
 * fields, a lookup of that order, nothing on the other version; and the program printed the order's
 * payment link. An integration whose language or library is missing is skipped with the reason in
 * its title (and fails under CI=true, where .ci/run installs them all).
 */
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ApiVersion } from '../../src/contract/versions.js';
import { TEST_ACCOUNT } from '../../src/sandbox/accounts.js';
import { tempDir } from '../helpers/cli.js';
import { journal, sandboxOrders, useSandbox } from '../helpers/sandbox.js';
import { build, expand, integrations, JAVA_LIBS, RUNNABLE, resolveProgram } from './runnable-corpus.js';

const UNDER_CI = process.env.CI === 'true';

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runProgram(argv: string[], cwd: string, env: Record<string, string | undefined>): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0]!, argv.slice(1), { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let [stdout, stderr] = ['', ''];
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Go builds offline into folders of the run's own; its cache is shared by every Go program here. */
let goFolders: Record<string, string> | undefined;
function goEnv(): Record<string, string> {
  if (!goFolders) {
    const root = tempDir('payorder-go-');
    for (const dir of ['cache', 'path']) mkdirSync(join(root, dir));
    goFolders = {
      GOCACHE: join(root, 'cache'),
      GOPATH: join(root, 'path'),
      GOFLAGS: '',
      GOPROXY: 'off',
      GO111MODULE: 'off',
      GOTOOLCHAIN: 'local',
      GOTELEMETRY: 'off',
    };
  }
  return goFolders;
}

describe('the runnable integrations against the sandbox', () => {
  const sb = useSandbox({}, { beforeSunset: true });

  for (const integration of integrations) {
    const { program, reason } = resolveProgram(integration);
    for (const version of ['v1', 'v2'] as ApiVersion[]) {
      const title = `${integration.name} (${integration.language}, ${integration.library}) ${version} runs on ${version}`;
      if (!program && !UNDER_CI) {
        console.warn(`Skipping ${integration.name} ${version}: ${reason}.`);
        it.skip(`${title} (skipped: ${reason})`, () => {});
        continue;
      }
      it(title, { timeout: 180_000 }, async () => {
        if (!program) expect.fail(`${reason}; it is required under CI=true (.ci/run installs it)`);
        // A copy, so that nothing a program writes (Python's bytecode, say) lands in the fixtures.
        const dir = join(tempDir(`payorder-${integration.name}-`), version);
        cpSync(join(RUNNABLE, integration.name, version), dir, { recursive: true });
        const env = {
          PATH: process.env.PATH,
          HOME: dir,
          LANG: 'C.UTF-8',
          PYTHONDONTWRITEBYTECODE: '1',
          JAVA_LIBS,
          AUTH_BASE: sb.url,
          CHECKOUT_BASE: sb.url,
          PAYORDER_USER: TEST_ACCOUNT.username,
          PAYORDER_CLIENT_ID: TEST_ACCOUNT.clientId,
          PAYORDER_CLIENT_SECRET: TEST_ACCOUNT.clientSecretId,
          ...(integration.run[0] === 'go' ? goEnv() : {}),
        };
        expect(await build(integration, dir, env)).toBeUndefined();
        const argv = [program, ...integration.run.slice(1).map((word) => expand(word, env))];
        const ran = await runProgram(argv, dir, env);
        expect(ran.code, ran.stderr + ran.stdout).toBe(0);

        const entries = await journal(sb.url);
        const reached = entries.map((e) => `${e.version} ${e.route} ${e.status}`);
        expect(
          entries.every((e) => e.version === version && e.status === 200),
          reached.join(', '),
        ).toBe(true);
        const tokens = entries.filter((e) => e.route === 'token');
        const checkouts = entries.filter((e) => e.route === 'checkout');
        const lookups = entries.filter((e) => e.route === 'lookup');
        expect(tokens.length, reached.join(', ')).toBeGreaterThanOrEqual(1);
        expect(checkouts, reached.join(', ')).toHaveLength(1);
        expect(lookups.length, reached.join(', ')).toBeGreaterThanOrEqual(1);

        const [order] = await sandboxOrders(sb.url);
        const body = checkouts[0].body;
        if (version === 'v1') {
          expect(tokens[0].body).toMatchObject({ user_name: TEST_ACCOUNT.username });
          // 12.50 as v1 takes it: a decimal string ("12.5" from Ruby's BigDecimal#to_s('F')).
          expect(body).toMatchObject({
            amount: expect.stringMatching(/^12\.50?$/),
            userName: TEST_ACCOUNT.username,
          });
          expect(lookups[0].path).toMatch(
            new RegExp(`^/1/order/(${order.uuid}|${order.id.split('/').pop()})$`),
          );
        } else {
          expect(tokens[0].body).toMatchObject({ username: TEST_ACCOUNT.username });
          expect(tokens[0].body).not.toHaveProperty('user_name');
          expect(body).toMatchObject({ amount: '1250' });
          expect(body).not.toHaveProperty('userName');
          expect(lookups.map((e) => e.path)).toEqual(lookups.map(() => `/v2/api/orders/${order.uuid}`));
        }
        const link = order.links[version === 'v1' ? 'checkoutLink' : 'checkout_link'];
        expect(ran.stdout).toContain(`Payment link: ${link}\n`);
        expect(ran.stdout).toContain(`Order status: ${order.status}`);
      });
    }
  }
});
