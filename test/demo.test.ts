/**
 * `npm run demo` (the README's main-job command) runs its script end to end: bundle it as the npm
 * script does, run it, and check what a person would see: tables and field/value views from the
 * pseudo-terminal the person-facing steps run on, not JSON, even though the demo itself is piped.
 */
import { resolve } from 'node:path';
import { execa } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';
import { bundle } from '../.ci/bundle-run.mjs';
import { needsTool } from './helpers/tools.js';

const ROOT = resolve(import.meta.dirname, '..');
const terminal = needsTool('script');

describe.skipIf(terminal.skip)(terminal.title('npm run demo'), () => {
  beforeAll(terminal.check);

  it('logs in, creates on v2 and v1, pays and looks up, runs a batch twice, lists the orders, as a person sees it', async () => {
    // dist/ is built by the test run's global setup: only the script is bundled here.
    const script = await bundle('test/demo/demo.ts');
    const result = await execa(process.execPath, [script], {
      cwd: ROOT,
      reject: false,
      timeout: 90_000,
      env: { NO_COLOR: '1' },
    });
    expect(result.exitCode, String(result.stderr)).toBe(0);
    const out = String(result.stdout);
    expect(out).not.toContain('no util-linux `script` here');
    expect(out).toContain('$ payorder login --env sandbox');
    // The human views: field/value rows, not JSON.
    expect(out).toMatch(/^amount {2,}12\.50$/m);
    expect(out).toMatch(/^external reference {2,}INV-42$/m);
    expect(out).toContain('$ payorder sandbox pay ');
    expect(out).toMatch(/^status {2,}PAID$/m);
    expect(out).toMatch(/^amount {2,}30\.00 \(currency 840\)$/m);
    expect(out).not.toMatch(/"status": "/);
    // The batch's summary is shown on the terminal too (stderr and stdout share it).
    expect(out).toContain('3 created, 0 already created, 1 failed');
    expect(out).toContain('0 created, 3 already created, 1 failed');
    // (A progress line on the terminal may have been erased just before the row.)
    expect(out).toMatch(/(^|\u001b\[0K)1\tskipped\t/m);
    // The sandbox's orders: one row each (two on v2, one on v1, three from the batch).
    // On a narrow terminal the payment links follow the table, each under its uuid: not rows.
    const listing = out.split('$ payorder sandbox orders\n')[1]!.split('\npayment links\n')[0]!;
    const orders = listing.trim().split('\n');
    expect(orders.filter((line) => /^[0-9a-f]{8}-/.test(line))).toHaveLength(6);
    expect(out).not.toContain('\r');
  });
});
