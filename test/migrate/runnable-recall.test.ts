/**
 * migrate-check on the runnable integrations (test/fixtures/migrate/runnable): each v1 copy alone
 * exits 1 and each hand-migrated v2 copy exits 0, and the findings on the v1 copies cover the edits
 * of their truth files: at least 95% of them, and at least 90% of each kind. An edit counts as
 * reported when an error or a warning of its kind's rule stands on its file and line.
 * test/migrate/runnable.test.ts runs the same programs against the sandbox.
 */
import { readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/context.js';
import {
  type Edit,
  filesUnder,
  type Integration,
  integrations,
  KIND_RULES,
  KINDS,
  RUNNABLE,
  truthOf,
} from './runnable-corpus.js';

const NOW = { PAYORDER_NOW: '2026-11-26T12:00:00Z' };
const MIN_RECALL = 0.95;
const MIN_KIND_RECALL = 0.9;

interface Finding {
  rule: string;
  severity: 'error' | 'warning' | 'info';
  message: string;
  location: { file: string; line?: number };
}

async function check(dir: string): Promise<{ exitCode: number; findings: Finding[] }> {
  const result = await runInProcess(['migrate-check', dir, '--json'], { env: NOW });
  expect([0, 1], result.stderr).toContain(result.exitCode);
  return { exitCode: result.exitCode, findings: JSON.parse(result.stdout).findings };
}

const linesOf = (file: string) => readFileSync(file, 'utf8').split(/\r?\n/);

describe('the runnable integrations: manifest and truth files', () => {
  it('at least 7 languages including shell, each integration with a v1 and a v2 copy of the same files', () => {
    const languages = new Set(integrations.map((integration) => integration.language));
    expect(languages.size).toBeGreaterThanOrEqual(7);
    expect(languages).toContain('shell');
    for (const { name } of integrations)
      expect(filesUnder(join(RUNNABLE, name, 'v2')), name).toEqual(filesUnder(join(RUNNABLE, name, 'v1')));
  });

  it('labels lines that the v2 copy changed: an edit line is gone from v2, a REFUNDED edit adds the state', () => {
    for (const integration of integrations) {
      const seen = new Set<string>();
      for (const { file, line, kind } of truthOf(integration)) {
        const where = `${integration.name}/v1/${file}:${line} ${kind}`;
        expect(KINDS, where).toContain(kind);
        expect(seen.has(`${file}:${line}:${kind}`), `${where}: labelled twice`).toBe(false);
        seen.add(`${file}:${line}:${kind}`);
        const v1 = linesOf(join(RUNNABLE, integration.name, 'v1', file));
        const v2 = linesOf(join(RUNNABLE, integration.name, 'v2', file));
        const text = v1[line - 1]?.trim() ?? '';
        expect(text, `${where}: no such line, or a blank one`).not.toBe('');
        if (kind === 'refunded') {
          expect(text, where).toContain('PENDING');
          expect(v2.join('\n'), `${where}: v2 does not handle REFUNDED`).toContain('REFUNDED');
        } else {
          expect(
            v2.map((l) => l.trim()),
            `${where}: the line is unchanged in v2`,
          ).not.toContain(text);
        }
      }
    }
  });
});

interface Measure {
  byKind: Map<string, { required: number; reported: number }>;
  missed: string[];
  required: number;
  reported: number;
}

function measure(results: Map<string, Finding[]>): Measure {
  const byKind = new Map(KINDS.map((kind) => [kind as string, { required: 0, reported: 0 }]));
  const missed: string[] = [];
  let [required, reported] = [0, 0];
  for (const integration of integrations) {
    const root = join(RUNNABLE, integration.name, 'v1');
    const made = new Set(
      results
        .get(integration.name)!
        .filter((f) => f.severity !== 'info')
        .map((f) => `${relative(root, f.location.file).split(sep).join('/')}:${f.location.line}:${f.rule}`),
    );
    for (const edit of truthOf(integration)) {
      const count = byKind.get(edit.kind)!;
      count.required++;
      required++;
      if (made.has(`${edit.file}:${edit.line}:${KIND_RULES[edit.kind]}`)) {
        count.reported++;
        reported++;
      } else missed.push(describeMiss(integration, edit));
    }
  }
  return { byKind, missed, required, reported };
}

function describeMiss(integration: Integration, { file, line, kind }: Edit): string {
  const text = linesOf(join(RUNNABLE, integration.name, 'v1', file))[line - 1]!.trim();
  return `  ${`${integration.name}/${file}:${line}`.padEnd(40)} ${kind.padEnd(16)} ${text.slice(0, 70)}`;
}

const percent = (part: number, whole: number) => `${((part / whole) * 100).toFixed(1)}%`;

function table(m: Measure): string {
  return [
    `runnable integrations: ${m.reported}/${m.required} required edits reported (${percent(m.reported, m.required)})`,
    ...[...m.byKind].map(
      ([kind, { required, reported }]) =>
        `  ${kind.padEnd(16)} ${String(reported).padStart(3)}/${String(required).padEnd(3)} ${percent(reported, required)}`,
    ),
    ...(m.missed.length > 0 ? ['Missed:', ...m.missed] : []),
  ].join('\n');
}

describe('migrate-check on the runnable integrations', () => {
  const v1Findings = new Map<string, Finding[]>();

  for (const integration of integrations) {
    it(`${integration.name}: v1 alone exits 1, the migrated copy exits 0`, async () => {
      const v1 = await check(join(RUNNABLE, integration.name, 'v1'));
      v1Findings.set(integration.name, v1.findings);
      expect(v1.exitCode).toBe(1);
      const v2 = await check(join(RUNNABLE, integration.name, 'v2'));
      const left = v2.findings.filter((f) => f.severity !== 'info');
      expect(left.map((f) => `${f.location.file}:${f.location.line} ${f.rule} ${f.message}`)).toEqual([]);
      expect(v2.exitCode).toBe(0);
    });
  }

  it(`reports at least ${MIN_RECALL * 100}% of the required edits, and ${MIN_KIND_RECALL * 100}% of each kind`, () => {
    expect(v1Findings.size, 'every integration was checked above').toBe(integrations.length);
    const m = measure(v1Findings);
    const recall = m.reported / m.required;
    const weakest = Math.min(...[...m.byKind.values()].map((k) => k.reported / k.required));
    if (recall < MIN_RECALL || weakest < MIN_KIND_RECALL || process.env.CORPUS_TABLE) console.log(table(m));
    expect.soft(recall, `recall (${m.reported}/${m.required})`).toBeGreaterThanOrEqual(MIN_RECALL);
    for (const [kind, { required, reported }] of m.byKind)
      expect
        .soft(reported / required, `${kind} (${reported}/${required})`)
        .toBeGreaterThanOrEqual(MIN_KIND_RECALL);
  });
});
