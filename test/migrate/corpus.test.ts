/**
 * The labelled migrate-check corpus (test/fixtures/migrate/corpus, see its README.md): integrations
 * written the way merchants write them, in many stacks, each v1, v2-ready or half-migrated, with
 * truth.json naming every finding a checker must make (file, rule, line). This runs migrate-check
 * over the corpus in process and measures it against the truth:
 *
 * - recall: the required findings that were made (same file, rule and line), over all of them;
 * - false findings: any error or warning on a file the truth says is ready for v2.
 *
 * It asserts recall ≥ 0.95 and no error or warning on v2-ready files, and prints a table of what was
 * missed and what was falsely reported, file by file, when it fails.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RULES } from '../../src/migrate/rules.js';
import { runInProcess } from '../helpers/context.js';

const CORPUS = resolve(import.meta.dirname, '../fixtures/migrate/corpus');
/** Files of the corpus folder that are about the corpus, not part of it. */
const NOT_CORPUS = new Set(['README.md', 'truth.json']);
const MIN_RECALL = 0.95;

interface Expected {
  rule: string;
  line: number;
}

interface Truth {
  /** Relative to the corpus folder, with forward slashes. */
  file: string;
  ready: boolean;
  expected: Expected[];
}

/** A finding as `migrate-check --json` reports it (src/migrate/report.ts, renderJson). */
interface ReportedFinding {
  rule: string;
  severity: 'error' | 'warning' | 'info';
  message: string;
  location: { file: string; line?: number; column?: number; item?: string; pointer?: string };
}

interface Report {
  ready: boolean;
  files: number;
  counts: Record<'error' | 'warning' | 'info', number>;
  findings: ReportedFinding[];
}

const truth: Truth[] = JSON.parse(readFileSync(join(CORPUS, 'truth.json'), 'utf8'));
const truthByFile = new Map(truth.map((entry) => [entry.file, entry]));
const REQUIRED_RULES = new Set<string>(
  RULES.filter((rule) => rule.severity !== 'info').map((rule) => rule.id),
);
const RULE_NAMES = new Map<string, string>(RULES.map((rule) => [rule.id, rule.name]));

/** The stack folders (node-fetch, php-guzzle, captures, …): what migrate-check is given. */
const stacks = readdirSync(CORPUS, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

/** Every file under the stack folders, relative to the corpus, with forward slashes. */
const corpusFiles = readdirSync(CORPUS, { recursive: true, withFileTypes: true })
  .filter((entry) => entry.isFile())
  .map((entry) => relative(CORPUS, join(entry.parentPath, entry.name)).split(sep).join('/'))
  .filter((file) => !NOT_CORPUS.has(file))
  .sort();

const textCache = new Map<string, string[]>();
function linesOf(file: string): string[] {
  let lines = textCache.get(file);
  if (!lines) {
    lines = readFileSync(join(CORPUS, file), 'utf8').split(/\r?\n/);
    textCache.set(file, lines);
  }
  return lines;
}

/**
 * The line where each value of a JSON text starts (for an object member: the line of its key), by
 * JSON pointer. Body findings (HAR captures, request records, JSON bodies) carry a pointer, not a line.
 */
function jsonPointerLines(text: string): Map<string, number> {
  const found = new Map<string, number>();
  let at = 0;
  let line = 1;
  const skipSpace = () => {
    while (at < text.length && /\s/.test(text[at]!)) {
      if (text[at] === '\n') line++;
      at++;
    }
  };
  const readString = (): string => {
    const start = at;
    at++;
    while (at < text.length && text[at] !== '"') at += text[at] === '\\' ? 2 : 1;
    at++;
    return JSON.parse(text.slice(start, at)) as string;
  };
  const pointerSegment = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');
  const readValue = (pointer: string, startLine: number) => {
    found.set(pointer, startLine);
    skipSpace();
    const open = text[at];
    if (open === '{' || open === '[') {
      const close = open === '{' ? '}' : ']';
      at++;
      skipSpace();
      for (let index = 0; at < text.length && text[at] !== close; index++) {
        skipSpace();
        const memberLine = line;
        let member = String(index);
        if (open === '{') {
          member = pointerSegment(readString());
          skipSpace();
          at++; // the colon
          skipSpace();
        }
        readValue(`${pointer}/${member}`, memberLine);
        skipSpace();
        if (text[at] === ',') at++;
        skipSpace();
      }
      at++;
    } else if (open === '"') {
      readString();
    } else {
      while (at < text.length && !/[\s,\]}]/.test(text[at]!)) at++;
    }
  };
  skipSpace();
  readValue('', line);
  return found;
}

const pointerCache = new Map<string, Map<string, number> | null>();
function pointerLine(file: string, pointer: string): number | undefined {
  if (!pointerCache.has(file)) {
    const text = linesOf(file).join('\n');
    let lines: Map<string, number> | null = null;
    try {
      JSON.parse(text);
      lines = jsonPointerLines(text);
    } catch {
      // Not one JSON document (NDJSON, or not JSON at all).
    }
    pointerCache.set(file, lines);
  }
  const lines = pointerCache.get(file);
  if (!lines) return undefined;
  // The deepest part of the pointer that exists in the file: a pointer into a body kept as a string
  // (a HAR postData text, a request record's string body) is on the line of that string.
  for (let path = pointer === '/' ? '' : pointer; ; path = path.slice(0, path.lastIndexOf('/'))) {
    const line = lines.get(path);
    if (line !== undefined) return line;
    if (path === '') return undefined;
  }
}

/** Where a reported finding stands, as corpus file and line (undefined when it cannot be told). */
function place(finding: ReportedFinding): { file: string; line: number | undefined } {
  const file = relative(CORPUS, finding.location.file).split(sep).join('/');
  const { line, item, pointer } = finding.location;
  if (line !== undefined) return { file, line };
  const ndjsonLine = item === undefined ? undefined : /^line (\d+)$/.exec(item)?.[1];
  if (ndjsonLine !== undefined) return { file, line: Number(ndjsonLine) };
  return { file, line: pointer === undefined ? undefined : pointerLine(file, pointer) };
}

const key = (file: string, rule: string, line: number | undefined) => `${file}\t${rule}\t${line ?? '?'}`;

interface Row {
  file: string;
  kind: 'MISSED' | 'FALSE' | 'UNLABELLED';
  rule: string;
  line: number | undefined;
  note: string;
}

interface Measure {
  report: Report;
  required: number;
  matched: number;
  recall: number;
  falseFindings: { error: number; warning: number };
  rows: Row[];
}

let measured: Promise<Measure> | undefined;
/** One run of migrate-check over the corpus, shared by the tests below. */
const measure = () => {
  measured ??= run();
  return measured;
};

async function run(): Promise<Measure> {
  const result = await runInProcess(
    ['migrate-check', ...stacks.map((stack) => join(CORPUS, stack)), '--json'],
    { env: { PAYORDER_NOW: '2026-06-01T12:00:00Z' } },
  );
  expect([0, 1], result.stderr).toContain(result.exitCode);
  const report = JSON.parse(result.stdout) as Report;

  const made = new Set<string>();
  const rows: Row[] = [];
  const falseFindings = { error: 0, warning: 0 };
  for (const finding of report.findings) {
    if (finding.severity === 'info') continue;
    const { file, line } = place(finding);
    made.add(key(file, finding.rule, line));
    const labelled = truthByFile.get(file);
    const hit = labelled?.expected.some((e) => e.rule === finding.rule && e.line === line);
    if (labelled?.ready) falseFindings[finding.severity]++;
    if (!hit)
      rows.push({
        file,
        kind: labelled?.ready ? 'FALSE' : 'UNLABELLED',
        rule: finding.rule,
        line,
        note: `${finding.severity}: ${finding.message}`,
      });
  }
  let required = 0;
  let matched = 0;
  for (const { file, expected } of truth) {
    for (const { rule, line } of expected) {
      required++;
      if (made.has(key(file, rule, line))) matched++;
      else rows.push({ file, kind: 'MISSED', rule, line, note: linesOf(file)[line - 1]!.trim() });
    }
  }
  return { report, required, matched, recall: matched / required, falseFindings, rows };
}

const clip = (text: string, width: number) => (text.length > width ? `${text.slice(0, width - 1)}…` : text);

/** The per-file table of misses and false findings, with recall by rule and by stack. */
function table(m: Measure): string {
  const out: string[] = [
    `migrate-check corpus: recall ${(m.recall * 100).toFixed(1)}% (${m.matched}/${m.required} required findings), ` +
      `${m.falseFindings.error} errors and ${m.falseFindings.warning} warnings on v2-ready files`,
    '',
  ];
  const tally = (group: (file: string, rule: string) => string) => {
    const counts = new Map<string, { required: number; missed: number }>();
    for (const { file, expected } of truth)
      for (const { rule } of expected) {
        const name = group(file, rule);
        const count = counts.get(name) ?? { required: 0, missed: 0 };
        count.required++;
        counts.set(name, count);
      }
    for (const row of m.rows.filter((r) => r.kind === 'MISSED'))
      counts.get(group(row.file, row.rule))!.missed++;
    return [...counts]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(
        ([name, { required, missed }]) =>
          `  ${name.padEnd(28)} missed ${String(missed).padStart(3)} of ${required}`,
      );
  };
  out.push('By rule:', ...tally((_, rule) => `${rule} ${RULE_NAMES.get(rule) ?? ''}`), '');
  out.push('By stack:', ...tally((file) => file.split('/')[0]!), '');
  const falseByFile = new Map<string, number>();
  for (const row of m.rows.filter((r) => r.kind === 'FALSE'))
    falseByFile.set(row.file, (falseByFile.get(row.file) ?? 0) + 1);
  out.push('False findings by v2-ready file:');
  out.push(...[...falseByFile].map(([file, count]) => `  ${file}: ${count}`));
  out.push('');
  const byFile = new Map<string, Row[]>();
  for (const row of m.rows.filter((r) => r.kind !== 'UNLABELLED'))
    byFile.set(row.file, [...(byFile.get(row.file) ?? []), row]);
  for (const [file, rows] of [...byFile].sort(([a], [b]) => a.localeCompare(b))) {
    out.push(`${file}${truthByFile.get(file)?.ready ? '  (v2-ready)' : ''}`);
    rows.sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || a.rule.localeCompare(b.rule));
    for (const row of rows)
      out.push(
        `  ${row.kind.padEnd(6)} ${row.rule}  ${String(row.line ?? '?').padStart(4)}  ${clip(row.note, 90)}`,
      );
  }
  const unlabelled = m.rows.filter((r) => r.kind === 'UNLABELLED');
  if (unlabelled.length > 0) {
    out.push(
      '',
      `Not counted: ${unlabelled.length} errors or warnings on v1 and half-migrated files at no labelled line ` +
        '(an over-eager rule, or a finding on another line than the label):',
    );
    for (const row of unlabelled)
      out.push(`  ${row.file}:${row.line ?? '?'} ${row.rule}  ${clip(row.note, 80)}`);
  }
  return out.join('\n');
}

describe('migrate-check corpus: the truth file', () => {
  it('labels every corpus file exactly once, and only files that exist', () => {
    const labelled = truth.map((entry) => entry.file);
    expect(new Set(labelled).size, 'a file labelled twice').toBe(labelled.length);
    expect([...labelled].sort()).toEqual(corpusFiles);
  });

  it('labels required findings only (error or warning rules), on lines that exist, each once; ready means none', () => {
    for (const { file, ready, expected } of truth) {
      const lines = linesOf(file);
      expect(ready, `${file}: ready must mean no required finding`).toBe(expected.length === 0);
      const seen = new Set<string>();
      for (const { rule, line } of expected) {
        const where = `${file}:${line} ${rule}`;
        expect(REQUIRED_RULES.has(rule), `${where}: not an error or warning rule`).toBe(true);
        expect(Number.isInteger(line) && line >= 1 && line <= lines.length, `${where}: no such line`).toBe(
          true,
        );
        expect(lines[line - 1]!.trim(), `${where}: a blank line`).not.toBe('');
        expect(seen.has(`${rule}:${line}`), `${where}: labelled twice`).toBe(false);
        seen.add(`${rule}:${line}`);
      }
    }
  });

  it('covers at least 60 files in at least 10 stacks, each stack with v1, v2-ready and half-migrated files', () => {
    expect(truth.length).toBeGreaterThanOrEqual(60);
    expect(stacks.length).toBeGreaterThanOrEqual(10);
    for (const stack of stacks) {
      const kinds = new Set(
        truth.filter((t) => t.file.startsWith(`${stack}/`)).map((t) => t.file.split('/')[1]),
      );
      expect([...kinds].sort(), stack).toEqual(['half-migrated', 'v1', 'v2-ready']);
    }
  });
});

describe('migrate-check corpus: measured against the truth', () => {
  it('reads every corpus file', async () => {
    const { report } = await measure();
    expect(report.files).toBe(corpusFiles.length);
  });

  it(`finds at least ${MIN_RECALL * 100}% of the required findings, and no error or warning on v2-ready files`, async () => {
    const m = await measure();
    const passes = m.recall >= MIN_RECALL && m.falseFindings.error === 0 && m.falseFindings.warning === 0;
    if (!passes || process.env.CORPUS_TABLE) console.log(table(m));
    expect.soft(m.recall, `recall (${m.matched}/${m.required})`).toBeGreaterThanOrEqual(MIN_RECALL);
    expect.soft(m.falseFindings.error, 'errors on v2-ready files').toBe(0);
    expect.soft(m.falseFindings.warning, 'warnings on v2-ready files').toBe(0);
  });
});
