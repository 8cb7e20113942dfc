/**
 * `npm run demo` (the README's main-job command) runs its script end to end: bundle it as the npm
 * script does, run it, and check what a person would see.
 */
import { resolve } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { bundle } from '../.ci/bundle-run.mjs';

const ROOT = resolve(import.meta.dirname, '..');

describe('npm run demo', () => {
  it('logs in, creates on v2 and v1, looks both up, runs a batch twice, and stops the sandbox', async () => {
    // dist/ is built by the test run's global setup: only the script is bundled here.
    const script = await bundle('test/demo/demo.ts');
    const result = await execa(process.execPath, [script], {
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
