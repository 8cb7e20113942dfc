/**
 * The published package: `npm pack` yields a tarball that installs globally (production
 * dependencies only, completions included) and runs on Node 22 and Node 24, both taken from the npm
 * registry as the `node` package: --version, the sandbox, and one order against it.
 */
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from './helpers/cli.js';

const ROOT = resolve(import.meta.dirname, '..');
const work = tempDir('payorder-pack-');
let tarball = '';

beforeAll(async () => {
  // dist/ is built by the test command before the tests run; packing must not rebuild it under them.
  const packed = await execa('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', work], {
    cwd: ROOT,
  });
  tarball = join(work, packed.stdout.trim().split('\n').pop()!);
}, 120_000);

// Two Node runtimes and two installs are large: leave nothing behind.
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe.each(['22', '24'])('installed on Node %s', (major) => {
  const prefix = join(work, `prefix-${major}`);
  const runtime = join(work, `node-${major}`);
  let env: Record<string, string>;

  beforeAll(async () => {
    await execa(
      'npm',
      ['install', '--prefix', runtime, '--no-save', '--no-audit', '--no-fund', `node@${major}`],
      { cwd: work, stdin: 'ignore' },
    );
    const nodeBin = join(runtime, 'node_modules/node/bin');
    env = {
      PATH: `${join(prefix, 'bin')}:${nodeBin}:${process.env.PATH}`,
      HOME: work,
      PAYORDER_CONFIG_DIR: join(work, `config-${major}`),
    };
    // npm keeps the machine's environment (certificate settings among it); --prefix moves its global config.
    await execa('npm', ['install', '--global', '--prefix', prefix, '--no-audit', '--no-fund', tarball], {
      env,
      cwd: work,
      stdin: 'ignore',
    });
  }, 300_000);

  it('runs --version on that Node, with the completions and only production dependencies', async () => {
    const node = await execa('node', ['--version'], { env, extendEnv: false });
    expect(node.stdout).toMatch(new RegExp(`^v${major}\\.`));
    const version = await execa('payorder', ['--version'], { env, extendEnv: false });
    expect(version.stdout).toMatch(/^\d+\.\d+\.\d+$/);
    const installed = join(prefix, 'lib/node_modules/payorder');
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

  it('runs the sandbox and creates an order against it', async () => {
    const sandbox = execa('payorder', ['sandbox', '--port', '0', '--json'], {
      env,
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
          env: { ...env, PAYORDER_AUTH_URL: url, PAYORDER_CHECKOUT_URL: url },
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
