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
import { spansToParse } from '../../src/migrate/syntax/chunks.js';
import { tempDir } from '../helpers/cli.js';

const plain = new Chalk({ level: 0 });
/** Nothing suppressed, excluded or baselined. */
const ASIDE = { suppressed: [], excluded: 0, baselined: [], baselineUsed: false };

/** A file of `lines` v1 addresses, one a line, in a format migrate-check reads. */
const FORMATS = {
  // Configuration: each line its own variable.
  env: (i: number) => `AUTH_URL_${i}=https://auth.example.com/1\n`,
};

/** Scans and reports a file of `lines` v1 addresses; returns the milliseconds it took and the findings. */
async function scanAndReport(
  dir: string,
  lines: number,
  format: keyof typeof FORMATS = 'env',
): Promise<{ ms: number; findings: number }> {
  const file = join(dir, `${lines}.${format}`);
  writeFileSync(file, Array.from({ length: lines }, (_, i) => FORMATS[format](i)).join(''));
  const start = performance.now();
  const result = await scan([file], { fix: false });
  const summary = summarize(
    {
      findings: result.findings,
      setup: [],
      files: result.files,
      serviceFiles: result.serviceFiles,
      ...ASIDE,
      notChecked: [],
    },
    new Date(0),
  );
  renderHuman(result.findings, summary, plain);
  return { ms: performance.now() - start, findings: result.findings.length };
}

describe('scanning scales with the input', () => {
  it('source where one constant is defined on every line: choosing what to parse stays linear', () => {
    // Choosing the statements to parse (before any parse) looks up where each followed name is
    // defined: a name defined again on every line once made that cost the square of the lines.
    const source = (lines: number) => "const AUTH = 'https://auth.example.com/1/auth/token';\n".repeat(lines);
    const best = (lines: number) => {
      const text = source(lines);
      let fastest = Number.POSITIVE_INFINITY;
      for (let i = 0; i < 5; i++) {
        const start = performance.now();
        // Every statement is chosen: the whole file is parsed (undefined).
        expect(spansToParse(text, 'javascript')).toBeUndefined();
        fastest = Math.min(fastest, performance.now() - start);
      }
      return fastest;
    };
    best(2_000); // warm up the JIT
    const small = best(10_000);
    const large = best(40_000);
    expect(
      large / small,
      `${small.toFixed(0)} ms for 10,000 lines, ${large.toFixed(0)} ms for 40,000`,
    ).toBeLessThan(9);
  });

  it.each(Object.keys(FORMATS) as Array<keyof typeof FORMATS>)(
    'a %s file with a finding on every line: four times the lines cost about four times the time, not sixteen',
    async (format) => {
      const dir = tempDir();
      await scanAndReport(dir, 1_000, format); // warm up the parsers and the JIT
      const best = async (lines: number) => {
        const runs = [];
        for (let i = 0; i < 5; i++) runs.push(await scanAndReport(dir, lines, format));
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
    },
    120_000,
  );

  it('hundreds of thousands of findings in one file neither overflow the call stack nor stall the report', async () => {
    const dir = tempDir();
    const file = join(dir, 'items.ndjson');
    // Every line is an item payorder does not recognize: one PO202 each, for a file named explicitly.
    writeFileSync(file, '{"x":1}\n'.repeat(200_000));
    const result = await scan([file], { fix: false });
    expect(result.findings).toHaveLength(200_000);
    const summary = summarize(
      { findings: result.findings, setup: [], files: 1, serviceFiles: 1, ...ASIDE, notChecked: [] },
      new Date(0),
    );
    const text = renderHuman(result.findings, summary, plain);
    expect(text.split('\n').filter((line) => line.includes('PO202'))).toHaveLength(200_000);
  }, 60_000);
});
