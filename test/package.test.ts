/**
 * The published package: `npm pack` yields a tarball that installs globally (production
 * dependencies only, completions included) and runs on Node 22, from the npm registry as the `node`
 * package, and on Node 24, the toolchain's own (the `node` devDependency): --version, the sandbox,
 * and one order against it. The package is installed once; the same install runs on both.
 */
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from './helpers/cli.js';

const ROOT = resolve(import.meta.dirname, '..');
const work = tempDir('payorder-pack-');
const prefix = join(work, 'prefix');
const installed = join(prefix, 'lib/node_modules/payorder');
const NODES: Record<string, string> = {
  '22': join(work, 'node-22/node_modules/node/bin/node'),
  '24': join(ROOT, 'node_modules/node/bin/node'),
};

/** Packs the project and installs the tarball globally under `prefix`. */
async function packAndInstall(): Promise<void> {
  // dist/ is built by the test run's global setup; packing must not rebuild it under the other tests.
  const packed = await execa('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', work], {
    cwd: ROOT,
  });
  const tarball = join(work, packed.stdout.trim().split('\n').pop()!);
  // npm keeps the machine's environment (certificate settings among it); --prefix moves its global config.
  await execa('npm', ['install', '--global', '--prefix', prefix, '--no-audit', '--no-fund', tarball], {
    cwd: work,
    stdin: 'ignore',
  });
}

// The install of Node 22 needs nothing from the package: both installs run at the same time.
beforeAll(async () => {
  await Promise.all([
    packAndInstall(),
    execa(
      'npm',
      ['install', '--prefix', join(work, 'node-22'), '--no-save', '--no-audit', '--no-fund', 'node@22'],
      { cwd: work, stdin: 'ignore' },
    ),
  ]);
}, 300_000);

// A Node runtime and an install are large: leave nothing behind.
afterAll(() => rmSync(work, { recursive: true, force: true }));

it('installs the completions and only production dependencies', () => {
  expect(readdirSync(join(installed, 'completions')).sort()).toEqual([
    '_payorder',
    'payorder.bash',
    'payorder.fish',
    'payorder.ps1',
  ]);
  for (const devOnly of ['vitest', 'typescript', 'esbuild', '@biomejs'])
    expect(existsSync(join(installed, 'node_modules', devOnly))).toBe(false);
  expect(existsSync(join(installed, 'src'))).toBe(false);
});

describe.each(Object.keys(NODES))('on Node %s', (major) => {
  const env = () => ({
    PATH: `${join(prefix, 'bin')}:${join(NODES[major]!, '..')}:${process.env.PATH}`,
    HOME: work,
    PAYORDER_CONFIG_DIR: join(work, `config-${major}`),
  });

  it('runs --version on that Node', async () => {
    const node = await execa('node', ['--version'], { env: env(), extendEnv: false });
    expect(node.stdout).toMatch(new RegExp(`^v${major}\\.`));
    const version = await execa('payorder', ['--version'], { env: env(), extendEnv: false });
    expect(version.stdout).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('runs the sandbox and creates an order against it', async () => {
    const sandbox = execa('payorder', ['sandbox', '--port', '0', '--json'], {
      env: env(),
      extendEnv: false,
      reject: false,
    });
    try {
      const { url } = JSON.parse(
        await new Promise<string>((resolveLine) =>
          sandbox.stdout!.once('data', (c: Buffer) => resolveLine(c.toString())),
        ),
      );
      const run = (args: string[]) =>
        execa('payorder', args, {
          env: { ...env(), PAYORDER_AUTH_URL: url, PAYORDER_CHECKOUT_URL: url },
          extendEnv: false,
          reject: false,
        });
      expect((await run(['login', '--env', 'sandbox'])).exitCode).toBe(0);
      const order = await run([
        'order',
        'create',
        '--env',
        'sandbox',
        '--amount',
        '19.99',
        '--description',
        'Packaged',
        '--success',
        'https://s.example/ok',
        '--fail',
        'https://s.example/ko',
        '--json',
      ]);
      expect(order.exitCode, String(order.stderr)).toBe(0);
      expect(JSON.parse(String(order.stdout))).toMatchObject({
        amount: '19.99',
        amount_cents: '1999',
        status: 'PENDING',
      });
    } finally {
      sandbox.kill('SIGTERM');
      await sandbox;
    }
  });
});
