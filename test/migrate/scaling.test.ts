/**
 * migrate-check's cost grows with the size of what it reads, not with its square: a file with a
 * finding on every line is the case that used to be quadratic (the report copied a file's list of
 * findings for each new one) and to overflow the call stack (findings spread into push()).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { renderHuman, summarize } from '../../src/migrate/report.js';
import { scan } from '../../src/migrate/scan.js';
import { tempDir } from '../helpers/cli.js';

const plain = new Chalk({ level: 0 });

/** Scans and reports a .env of `lines` v1 addresses; returns the milliseconds it took and the findings. */
async function scanAndReport(dir: string, lines: number): Promise<{ ms: number; findings: number }> {
  const file = join(dir, `${lines}.env`);
  writeFileSync(
    file,
    Array.from({ length: lines }, (_, i) => `AUTH_URL_${i}=https://auth.example.com/1\n`).join(''),
  );
  const start = performance.now();
  const result = await scan([file], { fix: false });
  const summary = summarize(
    { findings: result.findings, setup: [], files: result.files, notChecked: [] },
    new Date(0),
  );
  renderHuman(result.findings, summary, plain);
  return { ms: performance.now() - start, findings: result.findings.length };
}

describe('scanning scales with the input', () => {
  it('a file with a finding on every line: four times the lines cost about four times the time, not sixteen', async () => {
    const dir = tempDir();
    await scanAndReport(dir, 1_000); // warm up the parsers and the JIT
    const best = async (lines: number) => {
      const runs = [];
      for (let i = 0; i < 5; i++) runs.push(await scanAndReport(dir, lines));
      expect(runs[0]!.findings).toBe(lines);
      return Math.min(...runs.map((run) => run.ms));
    };
    const small = await best(2_500);
    const large = await best(10_000);
    // Linear is 4x, quadratic 16x: 9x leaves room for a busy machine on either side.
    expect(
      large / small,
      `${small.toFixed(0)} ms for 2,500 lines, ${large.toFixed(0)} ms for 10,000`,
    ).toBeLessThan(9);
  }, 120_000);

  it('hundreds of thousands of findings in one file neither overflow the call stack nor stall the report', async () => {
    const dir = tempDir();
    const file = join(dir, 'items.ndjson');
    // Every line is an item payorder does not recognize: one PO202 each, for a file named explicitly.
    writeFileSync(file, '{"x":1}\n'.repeat(200_000));
    const result = await scan([file], { fix: false });
    expect(result.findings).toHaveLength(200_000);
    const summary = summarize(
      { findings: result.findings, setup: [], files: 1, notChecked: [] },
      new Date(0),
    );
    const text = renderHuman(result.findings, summary, plain);
    expect(text.split('\n').filter((line) => line.includes('PO202'))).toHaveLength(200_000);
  }, 60_000);
});
