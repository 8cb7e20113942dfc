/**
 * `npm run demo` (the README's main-job command) runs its script end to end: bundle it as the npm
 * script does, run it, and check what a person would see.
 */
import { resolve } from 'node:path';
import { build } from 'esbuild';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');

describe('npm run demo', () => {
  it('logs in, creates on v2 and v1, looks both up, runs a batch twice, and stops the sandbox', async () => {
    const outfile = resolve(ROOT, 'dist/demo/demo.mjs');
    await build({
      entryPoints: [resolve(ROOT, 'test/demo/demo.ts')],
      bundle: true,
      platform: 'node',
      format: 'esm',
      packages: 'external',
      outfile,
      logLevel: 'warning',
    });
    const result = await execa(process.execPath, [outfile], {
      cwd: ROOT,
      reject: false,
      timeout: 60_000,
      env: { NO_COLOR: '1' },
    });
    expect(result.exitCode, String(result.stderr)).toBe(0);
    const out = String(result.stdout);
    expect(out).toContain('$ payorder login --env sandbox');
    expect(out).toMatch(/"amount": "12\.50"/);
    expect(out).toMatch(/"status": "PAID"/);
    expect(out).toMatch(/"version": "v1"/);
    expect(out).toMatch(/^1\tskipped\t/m);
    expect(String(result.stderr)).toContain('3 created, 0 already created, 1 failed');
    expect(String(result.stderr)).toContain('0 created, 3 already created, 1 failed');
  });
});
