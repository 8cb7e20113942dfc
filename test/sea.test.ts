/**
 * The standalone executable (`npm run sea`), built once for this file and run as a person without
 * Node runs it: by its name, from a PATH where no `node` is found. It serves its own sandbox, logs in
 * to it, creates an order and a batch, prints completions and checks code with the grammars it
 * carries; where the npm package would answer the same, the answers are compared with it.
 */
import { once } from 'node:events';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { execa, type ResultPromise } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSea } from '../.ci/sea.mjs';
import { TEST_ACCOUNT } from '../src/sandbox/accounts.js';
import { orderLine, recordsOf, writeOrderLines } from './helpers/batch.js';
import { cliEnv, expectNoLeak, type Result, tempDir } from './helpers/cli.js';
import { runInProcess } from './helpers/context.js';
import { sandboxOrders } from './helpers/sandbox.js';

const { version } = JSON.parse(readFileSync(resolve(import.meta.dirname, '../package.json'), 'utf8'));

/** The system's folders of programs, less any that holds a `node`. */
const SYSTEM_PATH = ['/usr/local/bin', '/usr/bin', '/bin'].filter((dir) => !existsSync(join(dir, 'node')));

/** A v1 address that the JavaScript grammar follows to where it is used, on line 2. */
const V1_SOURCE = 'const base = "https://api.example.com/1/order/";\nfetch(base + id);\n';

const sea = { dir: '', path: '', start: {} as any, sandbox: undefined as ResultPromise | undefined };

/** Runs `payorder ARGS…` by name, the executable's folder first on PATH, against the sandbox. */
async function payorder(args: string[], env: Record<string, string> = {}) {
  const child = await execa('payorder', args, {
    env: cliEnv({ configDir: sea.dir, url: sea.start.url }, { PATH: sea.path, ...env }),
    extendEnv: false,
    reject: false,
    input: '',
    timeout: 20_000,
  });
  const result: Result = { exitCode: child.exitCode ?? -1, stdout: child.stdout, stderr: child.stderr };
  expectNoLeak(result);
  return result;
}

beforeAll(async () => {
  sea.dir = tempDir('payorder-sea-');
  await buildSea(join(sea.dir, 'payorder'));
  sea.path = [sea.dir, ...SYSTEM_PATH].join(delimiter);
  sea.sandbox = execa('payorder', ['sandbox', '--port', '0', '--json'], {
    env: cliEnv({ configDir: sea.dir }, { PATH: sea.path }),
    extendEnv: false,
    reject: false,
  });
  const [line] = await once(createInterface({ input: sea.sandbox.stdout! }), 'line');
  sea.start = JSON.parse(line);
}, 180_000);

afterAll(async () => {
  sea.sandbox?.kill('SIGTERM');
  await sea.sandbox;
});

describe.concurrent('the standalone executable', () => {
  it('runs where no node is on PATH', async () => {
    const lookup = await execa('/bin/sh', ['-c', 'command -v payorder; command -v node'], {
      env: { PATH: sea.path },
      extendEnv: false,
      reject: false,
    });
    expect(lookup.stdout).toBe(join(sea.dir, 'payorder'));
    expect(lookup.exitCode).not.toBe(0);
  });

  it('tells its version and its help as the npm package does', async () => {
    expect(await payorder(['--version'])).toEqual({ exitCode: 0, stdout: version, stderr: '' });
    const help = await payorder(['--help']);
    expect(help.stdout).toContain('Usage: payorder');
    expect(`${help.stdout}\n`).toBe((await runInProcess(['--help'])).stdout);
  });

  it('prints the bash completion of the npm package', async () => {
    const { stdout } = await runInProcess(['completion', 'bash']);
    expect(await payorder(['completion', 'bash'])).toEqual({
      exitCode: 0,
      stdout: stdout.trimEnd(),
      stderr: '',
    });
  });

  it('checks source code with the grammars it carries', async () => {
    const file = join(tempDir(), 'checkout.js');
    writeFileSync(file, V1_SOURCE);
    const result = await payorder(['migrate-check', file, '--json']);
    expect(result.exitCode).toBe(1);
    const report = JSON.parse(result.stdout);
    expect(report.findings.map((f: any) => `${f.rule} ${f.location.line}`)).toContain('PO101 2');
    expect(report).toEqual(JSON.parse((await runInProcess(['migrate-check', file, '--json'])).stdout));
  });

  it('serves the sandbox with its test account', () => {
    expect(sea.start).toMatchObject({
      url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
      accounts: [{ username: TEST_ACCOUNT.username, client_id: TEST_ACCOUNT.clientId }],
    });
  });

  it('logs in to the sandbox it serves (the secret in the file: no keychain addon inside), creates an order and a batch', async () => {
    // A session bus address makes login try the keychain, whose addon the executable lacks.
    const login = await payorder(['login', '--env', 'sandbox', '--json'], {
      DBUS_SESSION_BUS_ADDRESS: `unix:path=${join(sea.dir, 'no-bus')}`,
    });
    expect(login.exitCode, login.stderr).toBe(0);
    expect(JSON.parse(login.stdout)).toMatchObject({
      username: TEST_ACCOUNT.username,
      secret_storage: 'file',
    });

    const create = (...args: string[]) => payorder(['order', 'create', '--env', 'sandbox', ...args]);
    const single = JSON.parse(orderLine(4));
    const flags = ['amount', 'description', 'success', 'fail'].flatMap((key) => [`--${key}`, single[key]]);
    const order = await create(...flags, '--json');
    expect(order.exitCode, order.stderr).toBe(0);
    expect(JSON.parse(order.stdout)).toMatchObject({
      amount: single.amount,
      links: { checkout: expect.any(String) },
    });

    const batch = await create('--input', writeOrderLines(tempDir(), 3), '-o', 'ndjson');
    expect(batch.exitCode, batch.stderr).toBe(0);
    expect(recordsOf(batch.stdout).map((r) => `${r.line} ${r.outcome}`)).toEqual([
      '1 created',
      '2 created',
      '3 created',
    ]);
    const descriptions = (await sandboxOrders(sea.start.url)).map((o) => o.description);
    expect(descriptions).toEqual([4, 1, 2, 3].map((n) => JSON.parse(orderLine(n)).description));
    // The order ledger (node:sqlite, built into the executable's Node) recorded them.
    const found = await payorder([
      'order',
      'find',
      '--env',
      'sandbox',
      '--text',
      'line',
      '--field',
      'amount',
    ]);
    expect(found.exitCode, found.stderr).toBe(0);
    expect(found.stdout.split('\n').sort()).toEqual(['1.01', '2.02', '3.03', '4.04']);
  });
});
