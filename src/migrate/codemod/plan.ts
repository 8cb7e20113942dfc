/**
 * migrate-check --fix for source code and configuration: the edits of every file with findings,
 * grouped by integration unit (units.ts), kept only when the whole unit comes out clean. A unit is
 * checked again as it would be written (in a temporary copy): any error left there blocks the whole
 * unit, so a program is never left half on v1. An edited file must parse with its grammar; when it
 * does not, its edits are dropped, which blocks its unit.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, isAbsolute, join, relative, resolve } from 'node:path';
import { configFormatOf } from '../config-files.js';
import { isBinary, walk } from '../files.js';
import type { Finding } from '../rules.js';
import { scan } from '../scan.js';
import { languageOf } from '../syntax/languages.js';
import { amountsFromCallers, type UnitFile } from './amount-callers.js';
import { configParses, fixConfig } from './config-edits.js';
import { applyEdits, compatible, type FileFix, type TextEdit } from './edits.js';
import { type CallersPassUuid, callersPassUuid } from './origins.js';
import { fixSource } from './source-edits.js';
import { editsAsText, fixText } from './text-edits.js';
import { ParsedFile, parsesCleanly } from './tree.js';
import { unitOf } from './units.js';
import type { V2Addresses } from './v2-addresses.js';

export interface FilePlan {
  file: string;
  before: string;
  after: string;
  /** What was changed, one line each ("line 17: user_name → username"). */
  changes: string[];
  /** What is left for a person. */
  notes: string[];
}

export interface UnitPlan {
  /** The unit's folder, as a path relative to the working folder when it is under it. */
  root: string;
  files: FilePlan[];
  /** Why the unit is not written: the findings no edit fixes, one line each; empty when it is. */
  blocked: string[];
  /** Errors and warnings that remain in the unit as fixed (only warnings when it is not blocked). */
  remaining: Finding[];
}

export interface CodemodOptions {
  /** The paths migrate-check was given: a unit never reaches above them. */
  given: string[];
  addresses: V2Addresses;
  /** Files converted as bodies or captures (NAME.v2.EXT): never edited in place. */
  bodies: Set<string>;
  /** The working folder, for the paths shown. */
  cwd: string;
  exclude: string[];
}

const where = (finding: Finding) => `${finding.location.file}:${finding.location.line ?? 1}`;

async function planFile(
  file: string,
  findings: Finding[],
  options: CodemodOptions,
  callers: CallersPassUuid,
  extra: TextEdit[],
): Promise<{ plan: FilePlan; left: string[] }> {
  const before = readFileSync(file, 'utf8');
  const format = configFormatOf(file) ?? (extname(file).toLowerCase() === '.json' ? 'json' : undefined);
  const language = format ? undefined : languageOf(file, before);
  let fix: FileFix;
  let parsesBefore = true;
  if (format) fix = await fixConfig(before, format, findings, options.addresses);
  else if (language) {
    const parsed = await ParsedFile.parse(before, language);
    if (!parsed) throw new Error(`cannot parse ${file}`);
    try {
      parsesBefore = !parsed.hasError;
      fix = fixSource(parsed, findings, options.addresses, callers);
    } finally {
      parsed.delete();
    }
  } else if (editsAsText(file)) fix = fixText(file, before, findings, options.addresses);
  else {
    fix = {
      edits: [],
      notes: [],
      left: findings
        .filter((f) => f.severity === 'error')
        .map((finding) => ({ finding, why: 'payorder has no grammar for this language' })),
    };
  }
  const edits = compatible([...fix.edits, ...extra]);
  let after = applyEdits(before, edits);
  const left = fix.left.map(
    ({ finding, why }) => `${where(finding)}: ${finding.rule} ${finding.message}: ${why}`,
  );
  const parses = format
    ? await configParses(after, format)
    : language
      ? !parsesBefore || (await parsesCleanly(after, language))
      : true;
  if (!parses) {
    left.push(`${file}: the edited file would not parse, so none of its edits is made`);
    after = before;
  }
  const lineOf = (offset: number) => before.slice(0, offset).split('\n').length;
  return {
    plan: {
      file,
      before,
      after,
      changes: after === before ? [] : edits.map((edit) => `line ${lineOf(edit.start)}: ${edit.label}`),
      notes: fix.notes,
    },
    left,
  };
}

/** Checks the unit as it would be written, in a temporary copy; the findings with their real paths. */
async function recheck(root: string, files: FilePlan[], options: CodemodOptions): Promise<Finding[]> {
  const copy = mkdtempSync(join(tmpdir(), 'payorder-fix-'));
  try {
    cpSync(root, copy, {
      recursive: true,
      filter: (source) => !/[\\/](?:node_modules|\.git)$/.test(source),
    });
    for (const file of files) writeFileSync(join(copy, relative(root, resolve(file.file))), file.after);
    const result = await scan([copy], { fix: false, exclude: options.exclude });
    const back = (file: string) => {
      const real = join(root, relative(copy, resolve(file)));
      const shown = relative(options.cwd, real);
      return shown.startsWith('..') ? real : shown;
    };
    // Only what the run was asked about: a file beside a file given is not part of this check.
    const asked = (file: string) =>
      options.given.some((path) => {
        const inside = relative(resolve(path), join(root, relative(copy, resolve(file))));
        return inside === '' || (!inside.startsWith('..') && !isAbsolute(inside));
      });
    return result.findings
      .filter((finding) => asked(finding.location.file))
      .map((finding) => ({
        ...finding,
        location: { ...finding.location, file: back(finding.location.file) },
      }));
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}

/**
 * The unit's source files payorder parses, for following a value from one file into another: the
 * files migrate-check itself would read there (.gitignore, .payorderignore and --exclude honoured,
 * dependencies and binaries left out), so no value is followed into, or edited in, a file left out.
 */
async function parseUnit(root: string, exclude: string[]): Promise<UnitFile[]> {
  const parsed: UnitFile[] = [];
  for (const path of walk(root, { patterns: exclude, count: 0 })) {
    if (parsed.length >= 500) break;
    if (isBinary(path) || statSync(path).size > 256 * 1024) continue;
    const text = readFileSync(path, 'utf8');
    const language = configFormatOf(path) ? undefined : languageOf(path, text);
    const one = language ? await ParsedFile.parse(text, language) : undefined;
    if (one) parsed.push({ path, parsed: one });
  }
  return parsed;
}

/** The codemod's plan for the findings of a run, by unit. */
export async function planCodemod(findings: Finding[], options: CodemodOptions): Promise<UnitPlan[]> {
  const byFile = new Map<string, Finding[]>();
  for (const finding of findings) {
    const file = finding.location.file;
    if (file === '<stdin>' || options.bodies.has(file) || finding.location.item !== undefined) continue;
    byFile.set(file, [...(byFile.get(file) ?? []), finding]);
  }
  const units = new Map<string, string[]>();
  for (const file of byFile.keys()) {
    const root = unitOf(file, options.given);
    units.set(root, [...(units.get(root) ?? []), file]);
  }
  const plans: UnitPlan[] = [];
  for (const [root, files] of units) {
    const blocked: string[] = [];
    const filePlans: FilePlan[] = [];
    // Only a lookup's id and an order's amount are followed from file to file.
    const follow = files.some((file) =>
      byFile.get(file)?.some((finding) => finding.rule === 'PO106' || finding.rule === 'PO103'),
    );
    const unitFiles = follow ? await parseUnit(root, options.exclude) : [];
    try {
      const callers = callersPassUuid(unitFiles.map((one) => one.parsed));
      const amounts = amountsFromCallers(
        unitFiles,
        new Map(files.map((file) => [resolve(file), byFile.get(file) ?? []])),
      );
      const planned = [
        ...files,
        ...[...amounts.keys()].filter((path) => !files.some((file) => resolve(file) === path)),
      ];
      for (const file of planned) {
        const extra = amounts.get(resolve(file)) ?? [];
        const { plan, left } = await planFile(file, byFile.get(file) ?? [], options, callers, extra);
        filePlans.push(plan);
        blocked.push(...left);
      }
    } finally {
      for (const one of unitFiles) one.parsed.delete();
    }
    const changed = filePlans.filter((plan) => plan.after !== plan.before);
    const remaining = await recheck(root, changed, options);
    // An error the edits left is told once: not again for a file and rule already blocking.
    const told = (finding: Finding) =>
      blocked.some(
        (line) => line.startsWith(`${finding.location.file}:`) && line.includes(`: ${finding.rule} `),
      );
    for (const finding of remaining)
      if (finding.severity === 'error' && !told(finding))
        blocked.push(`${where(finding)}: ${finding.rule} ${finding.message}: still there after the fix`);
    const shownRoot = relative(options.cwd, root) || '.';
    plans.push({ root: shownRoot.startsWith('..') ? root : shownRoot, files: changed, blocked, remaining });
  }
  return plans;
}
