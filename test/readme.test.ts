/**
 * The README is a user guide whose every `sh` block runs: this test runs them in order, in one bash
 * session, against the sandbox the README itself starts (on a free port instead of 4010), with the
 * built CLI as `payorder`. Lines that install or test the project itself (npm ci/test/pack/install,
 * npm run demo, building and installing the standalone executable) are covered by their own tests and
 * skipped here.
 */
import { chmodSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { EXIT } from '../src/errors.js';
import { TEST_ACCOUNT } from '../src/sandbox/accounts.js';
import { BIN, expectNoLeak, tempDir } from './helpers/cli.js';
import { unusedPort } from './helpers/servers.js';
import { needsTool } from './helpers/tools.js';

const ROOT = resolve(import.meta.dirname, '..');
const SKIPPED = /^(npm (ci|test|pack|install)\b|npm run (demo|sea|test:all)\b|install .*dist\/sea\/)/;

function shellBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1]!);
}

// The examples run in bash and use curl and jq: skipped where one is missing, failing under CI.
const tools = needsTool('bash', 'curl', 'jq');
const RUNS_GREEN = tools.title('every sh block runs green, in order, against a sandbox');

describe('README', () => {
  it(RUNS_GREEN, { skip: tools.skip, timeout: 150_000 }, async () => {
    tools.check();
    const port = await unusedPort();
    const work = tempDir('payorder-readme-');
    const shims = join(work, '.bin');
    mkdirSync(shims);
    writeFileSync(join(shims, 'payorder'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
    chmodSync(join(shims, 'payorder'), 0o755);
    symlinkSync(join(ROOT, 'test'), join(work, 'test'));
    const lines = shellBlocks(readFileSync(join(ROOT, 'README.md'), 'utf8'))
      .join('\n')
      .replace(/\\\n/g, ' ')
      .split('\n')
      .filter((line) => !SKIPPED.test(line.trim()))
      .join('\n')
      .replaceAll('4010', String(port));
    const script = `set -euo pipefail\ntrap 'kill $(jobs -p) 2>/dev/null || true' EXIT\n${lines}\n`;
    const sandboxUrl = `http://127.0.0.1:${port}`;
    const result = await execa('bash', ['-c', script], {
      cwd: work,
      reject: false,
      extendEnv: false,
      timeout: 120_000,
      env: {
        PATH: `${shims}:${process.env.PATH}`,
        HOME: work,
        PAYORDER_CONFIG_DIR: join(work, 'config'),
        PAYORDER_AUTH_URL: sandboxUrl,
        PAYORDER_CHECKOUT_URL: sandboxUrl,
        PAYORDER_USERNAME: TEST_ACCOUNT.username,
        PAYORDER_CLIENT_ID: TEST_ACCOUNT.clientId,
        PAYORDER_CLIENT_SECRET_ID: TEST_ACCOUNT.clientSecretId,
      },
    });
    expect(result.exitCode, `${result.stderr}\n${result.stdout}`.slice(-3000)).toBe(0);
    expectNoLeak({
      exitCode: 0,
      stdout: String(result.stdout).replace(/"access_token":"[^"]+"/g, ''),
      stderr: String(result.stderr),
    });
    // A few things the guide promises, seen in its own run.
    expect(result.stdout).toContain('Pay here: http://127.0.0.1:');
    expect(result.stdout).toContain('"REFUNDED"');
    expect(result.stdout).toContain('"code":"1003"');
    expect(result.stdout).toMatch(/^exit 2$/m);
    // --wait: paid while it waited; failed (exit 6); still pending after --timeout (exit 8).
    expect(result.stdout).toMatch(/^PAID$/m);
    expect(result.stdout).toContain('not paid (exit 6)');
    expect(result.stdout).toContain('not paid yet (exit 8)');
    // A bulk lookup keeps the unknown id's row, in its place.
    expect(result.stdout).toMatch(/^\t\t00000000-0000-4000-8000-000000000000\tnot_found$/m);
    expect(result.stderr).toContain('--amount: must have at most 2 decimals');
    // The recipe's secret file is created private: login reads it without a warning.
    expect(result.stderr).not.toContain('secret.txt is readable by');
    // --fix keeps NDJSON line for line: the two bodies it cannot convert stay, as they were.
    expect(readFileSync(join(work, 'orders.v2.ndjson'), 'utf8').trim().split('\n')).toHaveLength(4);
  });

  it('documents every exit code, every PAYORDER_ variable and every command', async () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    for (const code of new Set(Object.values(EXIT))) expect(readme).toContain(`| ${code} |`);
    const source = await execa('grep', ['-rhoE', 'PAYORDER_[A-Z_]+', join(ROOT, 'src')]);
    for (const variable of new Set(source.stdout.split('\n')))
      if (variable !== 'PAYORDER_VERSION') expect(readme).toContain(variable);
    for (const command of [
      'login',
      'logout',
      'status',
      'token',
      'config',
      'order create',
      'order get',
      'migrate-check',
      'completion',
      'sandbox',
    ]) {
      expect(readme).toContain(`payorder ${command}`);
    }
  });
});
