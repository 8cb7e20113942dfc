/**
 * What makes migrate-check a gate a team can keep on in CI: inline suppressions with a reason
 * (`payorder-ignore PO107: our own order states`) and a baseline of the findings accepted today, so
 * that later runs fail only on new ones. Neither hides anything silently: the report counts both.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve, sep } from 'node:path';
import { usageError } from '../errors.js';
import { type Finding, RULES } from './rules.js';

/** A finding set aside by a comment in the code, with the reason written there. */
export interface Suppressed extends Finding {
  reason: string;
}

interface Directive {
  rules: Set<string>;
  reason: string;
}

/** After a comment opener of any common language: //, #, /*, <!--, --, ;, ', REM. */
const DIRECTIVE = /(?:\/\/|#|\/\*|<!--|--|;|'|\bREM\b)\s*payorder-ignore\b(.*)$/;
const RULES_AND_REASON = /^\s+(PO\d{3}(?:\s*,\s*PO\d{3})*)\s*:\s*(.*?)\s*(?:\*\/|-->)?\s*$/;

/** The suppressions of one file: by 1-based line, and the lines of comments that suppress nothing. */
export interface Suppressions {
  byLine: Map<number, Directive[]>;
  /** A payorder-ignore comment without a known rule id and a reason. */
  unusable: number[];
}

const RULE_IDS = new Set<string>(RULES.map((rule) => rule.id));

/**
 * The suppressions a file's text holds. A directive on a line of its own applies to the next line
 * too. One without a known rule id and a reason suppresses nothing, and is told.
 */
export function suppressionsOf(text: string): Suppressions {
  const byLine = new Map<number, Directive[]>();
  const unusable: number[] = [];
  const add = (line: number, directive: Directive) =>
    byLine.set(line, [...(byLine.get(line) ?? []), directive]);
  text.split('\n').forEach((line, index) => {
    if (!line.includes('payorder-ignore')) return;
    const match = DIRECTIVE.exec(line);
    if (!match) return;
    const parsed = RULES_AND_REASON.exec(match[1] ?? '');
    const [, listed, reason] = parsed ?? [];
    const rules = listed?.split(/\s*,\s*/) ?? [];
    if (reason === undefined || reason === '' || !rules.every((rule) => RULE_IDS.has(rule))) {
      unusable.push(index + 1);
      return;
    }
    const directive = { rules: new Set(rules), reason };
    add(index + 1, directive);
    if (line.slice(0, match.index).trim() === '') add(index + 2, directive);
  });
  return { byLine, unusable };
}

/** The reason a finding is suppressed for, if it is. */
export function suppressedBy(found: Finding, suppressions: Suppressions | undefined): string | undefined {
  const line = found.location.line;
  if (!suppressions || line === undefined) return undefined;
  return suppressions.byLine.get(line)?.find((directive) => directive.rules.has(found.rule))?.reason;
}

/** A finding as the baseline keeps it: no line or column, so code moving up or down keeps its match. */
interface Entry {
  file: string;
  rule: string;
  message: string;
  item?: string;
  pointer?: string;
}

const BASELINE_VERSION = 1;
/** The key a baseline file starts with: it names the file for what it is, so a walk leaves it out. */
const BASELINE_KEY = 'payorder-baseline';

const BASELINE_START = new RegExp(`^\\{\\s*"${BASELINE_KEY}"\\s*:`);

/** Whether a text is a baseline file (by its first key), found walking a folder. */
export const isBaseline = (text: string) => BASELINE_START.test(text);

function entryOf(found: Finding, base: string): Entry {
  const { file, item, pointer } = found.location;
  const path = file === '<stdin>' ? file : relative(base, resolve(file)).split(sep).join('/');
  return {
    file: path,
    rule: found.rule,
    message: found.message,
    ...(item === undefined ? {} : { item }),
    ...(pointer === undefined ? {} : { pointer }),
  };
}

const keyOf = (entry: Entry) =>
  [entry.file, entry.rule, entry.message, entry.item ?? '', entry.pointer ?? ''].join('\u0000');

/** The findings of a baseline file, or undefined when there is none yet. */
export function readBaseline(path: string): Entry[] | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw usageError(`--baseline: cannot read ${path} (${(error as NodeJS.ErrnoException).code})`, {
      field: '--baseline',
    });
  }
  try {
    const parsed = JSON.parse(text) as Record<string, unknown>;
    if (parsed[BASELINE_KEY] === BASELINE_VERSION && Array.isArray(parsed.findings))
      return parsed.findings as Entry[];
  } catch {
    // Reported below, as for any other file that is not a baseline.
  }
  throw usageError(`--baseline: ${path} is not a payorder baseline (version ${BASELINE_VERSION})`, {
    field: '--baseline',
  });
}

/** Writes the findings as the baseline; paths are relative to the baseline's folder. */
export function writeBaseline(path: string, findings: Finding[]): void {
  const base = dirname(resolve(path));
  const entries = findings
    .map((found) => entryOf(found, base))
    .sort((a, b) => keyOf(a).localeCompare(keyOf(b)));
  const baseline = { [BASELINE_KEY]: BASELINE_VERSION, findings: entries };
  writeFileSync(path, `${JSON.stringify(baseline, null, 2)}\n`);
}

/**
 * Splits findings into the new ones and those the baseline holds. Each entry matches one finding, so
 * a second finding of the same kind in a file is new.
 */
export function applyBaseline(
  path: string,
  entries: Entry[],
  findings: Finding[],
): { fresh: Finding[]; baselined: Finding[] } {
  const base = dirname(resolve(path));
  const left = new Map<string, number>();
  for (const entry of entries) left.set(keyOf(entry), (left.get(keyOf(entry)) ?? 0) + 1);
  const fresh: Finding[] = [];
  const baselined: Finding[] = [];
  for (const found of findings) {
    const key = keyOf(entryOf(found, base));
    const count = left.get(key) ?? 0;
    if (count > 0) {
      left.set(key, count - 1);
      baselined.push(found);
    } else fresh.push(found);
  }
  return { fresh, baselined };
}
