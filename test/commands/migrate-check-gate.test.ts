/**
 * migrate-check as a CI gate: inline suppressions with a reason, --exclude and .payorderignore, and a
 * baseline that fails a later run only on new findings. Each is counted in the report.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { runInProcess } from '../helpers/context.js';

const NOW = { PAYORDER_NOW: '2026-12-21T10:00:00Z' };
const AUTH = "const AUTH_URL = 'https://auth.example.com/1/auth/token';";

function shop(files: Record<string, string>): string {
  const dir = tempDir();
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

const run = (...args: string[]) => runInProcess(['migrate-check', ...args], { env: NOW });
const rulesOf = (stdout: string) =>
  (JSON.parse(stdout) as { findings: Array<{ rule: string; location: { line?: number } }> }).findings.map(
    (f) => `${f.location.line} ${f.rule}`,
  );

describe('migrate-check: inline suppressions', () => {
  it('a payorder-ignore comment with a rule id and a reason sets the finding aside, in each language, and the report counts it', async () => {
    const dir = shop({
      'pay.js': `${AUTH}\nconst link = order.links.checkoutLink; // payorder-ignore PO105: read by the legacy page only\n`,
      'pay.py': [
        'AUTH_URL = "https://auth.example.com/1/auth/token"',
        "# payorder-ignore PO107: the shop's own states, mapped elsewhere",
        'if order["status"] == "PENDING":',
        '    wait()',
        '',
      ].join('\n'),
      'config.yml':
        'payorder:\n  auth-url: https://auth.example.com/1 # payorder-ignore PO101: switched by the deploy\n',
    });
    const text = await run(dir);
    expect(text.stdout).not.toMatch(/PO105|PO107|config\.yml/);
    expect(text.stdout).toContain('not counted: 3 suppressed in the code');
    const json = await run(dir, '--json');
    expect(json.exitCode).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({ suppressed: 3, counts: { error: 2, warning: 0 } });
  });

  it('without a reason or a known rule id a comment suppresses nothing, and says so; for another rule it is silent', async () => {
    const dir = shop({
      'pay.js': [
        AUTH,
        'const link = order.links.checkoutLink; // payorder-ignore PO105',
        'const again = order.links.checkoutLink; // payorder-ignore PO101: not this rule',
        'const third = order.links.checkoutLink; // payorder-ignore PO15: a typo',
        '',
      ].join('\n'),
    });
    const result = await run(dir, '--json');
    expect(rulesOf(result.stdout)).toEqual(['1 PO101', '2 PO105', '3 PO105', '4 PO105']);
    expect(JSON.parse(result.stdout).suppressed).toBe(0);
    const told = (line: number) =>
      `${join(dir, 'pay.js')}:${line}: this payorder-ignore suppresses nothing: it needs a rule id and a reason (payorder-ignore PO107: why)`;
    expect(result.stderr.split('\n').filter(Boolean)).toEqual(
      [told(2), told(4)].map((line) => expect.stringContaining(line)),
    );
  });
});

describe('migrate-check: excludes', () => {
  it('--exclude (repeatable) and .payorderignore leave paths out, and the report counts them', async () => {
    const dir = shop({
      'src/pay.js': AUTH,
      'legacy/pay.js': AUTH,
      'tools/old.js': AUTH,
      'docs/.payorderignore': 'samples/\n',
      'docs/samples/pay.js': AUTH,
      'docs/guide.js': AUTH,
    });
    const result = await run(dir, '--exclude', 'legacy/', '--exclude', 'tools/*.js', '--json');
    const report = JSON.parse(result.stdout);
    expect(
      report.findings.map((f: { location: { file: string } }) => f.location.file.slice(dir.length + 1)),
    ).toEqual(['docs/guide.js', 'src/pay.js']);
    expect(report.excluded).toBe(3);
    expect((await run(dir, '--exclude', 'legacy/')).stdout).toContain('not counted: 2 paths excluded');
  });
});

describe('migrate-check: a baseline', () => {
  it("records today's findings when the file is new, then fails only on new ones, wherever the old ones moved", async () => {
    const dir = shop({ 'pay.js': `${AUTH}\nconst link = order.links.checkoutLink;\n` });
    const baseline = join(dir, 'migrate-baseline.json');
    const first = await run(dir, '--baseline', baseline);
    expect(first.exitCode).toBe(0);
    expect(first.stderr).toContain(`recorded 2 findings as the baseline in ${baseline}`);
    expect(first.stdout).toContain('not counted: 2 in the baseline');
    expect(JSON.parse(readFileSync(baseline, 'utf8')).findings).toEqual([
      { file: 'pay.js', rule: 'PO101', message: 'a v1 address (the /1 version prefix)' },
      {
        file: 'pay.js',
        rule: 'PO105',
        message: 'the payment link read from links.checkoutLink / links.checkout',
      },
    ]);

    // Walking the folder without --baseline (another job), the baseline is no input.
    const other = JSON.parse((await run(dir, '--json')).stdout);
    expect(other).toMatchObject({ files: 1, counts: { error: 2 } });

    // The old findings move down two lines; a second read of the v1 link is new.
    writeFileSync(
      join(dir, 'pay.js'),
      `\n\n${AUTH}\nconst link = order.links.checkoutLink;\nx(order.links.checkoutLink);\n`,
    );
    const later = await run(dir, '--baseline', baseline, '--json');
    expect(later.exitCode).toBe(1);
    expect(rulesOf(later.stdout)).toEqual(['5 PO105']);
    expect(JSON.parse(later.stdout)).toMatchObject({ baselined: 2, counts: { error: 1 } });

    const updated = await run(dir, '--baseline', baseline, '--baseline-update');
    expect(updated.exitCode).toBe(0);
    expect(JSON.parse(readFileSync(baseline, 'utf8')).findings).toHaveLength(3);
  });

  it('SARIF marks each result new or unchanged, and a suppressed one with its justification', async () => {
    const dir = shop({ 'pay.js': `${AUTH}\n` });
    const baseline = join(dir, 'baseline.json');
    await run(dir, '--baseline', baseline);
    writeFileSync(
      join(dir, 'pay.js'),
      `${AUTH}\nlet a = order.links.checkoutLink;\nlet b = order.links.checkoutLink; // payorder-ignore PO105: kept for the v1 page\n`,
    );
    const sarif = await run(dir, '--baseline', baseline, '--format', 'sarif');
    expect(sarif.exitCode).toBe(1);
    const results = JSON.parse(sarif.stdout).runs[0].results;
    expect(
      results.map((r: any) => [
        r.ruleId,
        r.locations[0].physicalLocation.region.startLine,
        r.baselineState,
        r.suppressions,
      ]),
    ).toEqual([
      ['PO105', 2, 'new', undefined],
      ['PO101', 1, 'unchanged', undefined],
      ['PO105', 3, 'new', [{ kind: 'inSource', justification: 'kept for the v1 page' }]],
    ]);
  });

  it('a file that is not a baseline, or --baseline-update alone, is bad usage naming the flag', async () => {
    const dir = shop({ 'pay.js': AUTH, 'notes.txt': 'hello' });
    const bad = await run(dir, '--baseline', join(dir, 'notes.txt'));
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain(
      `--baseline: ${join(dir, 'notes.txt')} is not a payorder baseline (version 1)`,
    );
    const alone = await run(dir, '--baseline-update');
    expect(alone.exitCode).toBe(2);
    expect(alone.stderr).toContain('--baseline-update goes with --baseline FILE');
  });
});
