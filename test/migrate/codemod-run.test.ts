/**
 * The proof of migrate-check --fix --write: small v1 integrations are copied, fixed in place, run
 * against the sandbox, and the sandbox's journal must show that they spoke v2 alone. Each entry of
 * INTEGRATIONS is a folder holding v1/ and the command that runs it; another corpus joins with a line.
 */
import { cpSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_ACCOUNT } from '../../src/sandbox/accounts.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/server.js';
import { freshCli, tempDir } from '../helpers/cli.js';
import { call, journal, sandboxOrders } from '../helpers/sandbox.js';

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
];

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
      const [program, ...args] = integration.command;
      const ran = await execa(program, args, {
        cwd: copy,
        reject: false,
        timeout: 20_000,
        env: {
          PAYORDER_AUTH_HOST: sandbox.url,
          PAYORDER_CHECKOUT_HOST: sandbox.url,
          PAYORDER_USER: TEST_ACCOUNT.username,
          PAYORDER_CLIENT_ID: TEST_ACCOUNT.clientId,
          PAYORDER_CLIENT_SECRET_ID: TEST_ACCOUNT.clientSecretId ?? '',
        },
      });
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
    });
  }
});
