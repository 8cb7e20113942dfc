/**
 * Reads what migrate-check was given (files, folders, stdin) and sends each to the right checker:
 * HAR captures, Postman collections, JSON / JSON arrays / NDJSON bodies, configuration files
 * (.env, YAML, JSON, HCL, .properties), or source code. Async all the way, so a checker may be.
 */
import { extname, resolve } from 'node:path';
import { usageError } from '../errors.js';
import { checkConfigFile, configFormatOf } from './config-files.js';
import { constantsOf } from './constants.js';
import { ServiceEvidence } from './evidence.js';
import { type Excludes, type FoundFile, findFiles, readFound } from './files.js';
import { isBaseline, type Suppressed, type Suppressions, suppressedBy, suppressionsOf } from './gate.js';
import type { Finding } from './rules.js';
import { add, type FixedFile, JSON_EXTENSIONS, scanJson } from './scan-json.js';
import { checkSources, type SourceFile } from './source.js';

export type { BodyFormat, FixedFile } from './scan-json.js';

export interface ScanResult {
  findings: Finding[];
  /** How many files were read. */
  files: number;
  /** How many of them talk to the service (src/migrate/evidence.ts). */
  serviceFiles: number;
  /** Findings a `payorder-ignore` comment sets aside, each with its reason. */
  suppressed: Suppressed[];
  /** Files and folders left out by --exclude and .payorderignore. */
  excluded: number;
  /** payorder-ignore comments that suppress nothing (no known rule id, or no reason). */
  unusable: Array<{ file: string; line: number }>;
  fixed: FixedFile[];
}

export type { SourceFile } from './source.js';

/** Checks source files (any language), all of a run at once; findings come grouped by file. */
export type SourceChecker = (files: SourceFile[]) => Promise<Finding[]>;

export interface ScanOptions {
  fix: boolean;
  /** The text of stdin, when '-' is among the paths. */
  stdinText?: string;
  /** The source checker: src/migrate/source.ts's by default. */
  checkSources?: SourceChecker;
  /** Patterns of files and folders to leave out, in .gitignore syntax (--exclude). */
  exclude?: string[];
  /** The baseline file: never read as input (its findings' text would read as the service's marks). */
  baseline?: string;
}

/**
 * What one file found; a source file's findings come after the whole run's sources are checked, and
 * a file of data without a mark of its own once the walk has told whether a neighbour ties it.
 */
type Slot =
  | { findings: Finding[] }
  | { source: PendingSource }
  | { later: { file: string; explicit: boolean } };

/** A source file to check at the end; its text is kept only when it is likely to be checked. */
interface PendingSource {
  file: string;
  text?: string;
}

/** Checks one file's text; `explicit` when it was named rather than found in a folder. */
async function scanText(
  text: string,
  file: string,
  explicit: boolean,
  result: ScanResult,
  fix: boolean,
): Promise<Slot> {
  const format = configFormatOf(file);
  if (JSON_EXTENSIONS.has(extname(file).toLowerCase()) || (file === STDIN && /^\s*[{[]/.test(text))) {
    const own: ScanResult = { ...result, findings: [] };
    await scanJson(text, file, explicit, own, fix);
    return { findings: own.findings };
  }
  if (format) return { findings: await checkConfigFile(text, file, format) };
  return { source: { file, text } };
}

function listFiles(path: string, excludes: Excludes) {
  try {
    return [...findFiles([path], excludes)];
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (!code) throw error;
    throw usageError(`cannot read ${path} (${code})`, { field: path });
  }
}

function readText(file: string): string {
  return readOrRefuse({ path: file, explicit: true }) ?? '';
}

/** A found file's text (undefined when the walk leaves it out); a file that cannot be read is a usage error. */
function readOrRefuse(file: FoundFile): string | undefined {
  try {
    return readFound(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (!code) throw error;
    throw usageError(`cannot read ${file.path} (${code})`, { field: file.path });
  }
}

const STDIN = '<stdin>';

/** What a run holds while it reads its files. */
interface Run {
  result: ScanResult;
  options: ScanOptions;
  slots: Slot[];
  evidence: ServiceEvidence;
  suppressions: Map<string, Suppressions>;
  read: string[];
}

/** Reads one file: notes its marks and suppressions, checks it now or keeps it for later. */
async function readOne(run: Run, found: FoundFile): Promise<void> {
  const { result, options, evidence } = run;
  const { path: file, explicit } = found;
  const text = file === STDIN ? (options.stdinText ?? '') : readOrRefuse(found);
  if (text === undefined) return;
  // A baseline found walking (another job's): its findings' text would read as the service's marks.
  if (!explicit && isBaseline(text)) return;
  result.files++;
  run.read.push(file);
  const json = JSON_EXTENSIONS.has(extname(file).toLowerCase());
  evidence.note(file, text, explicit && (file === STDIN || json));
  if (text.includes('payorder-ignore')) {
    const found = suppressionsOf(text);
    run.suppressions.set(file, found);
    for (const line of found.unusable) result.unusable.push({ file, line });
  }
  const ownsTie = file === STDIN || evidence.ownsTie(file);
  // Data without a tie of its own waits for the walk to tell whether a neighbour ties it.
  if ((json || configFormatOf(file) !== undefined) && !ownsTie) {
    run.slots.push({ later: { file, explicit } });
    return;
  }
  const slot = await scanText(text, file, explicit, result, options.fix);
  // Most source files never talk to the service: their text is not kept until the end of the walk
  // (a neighbour may still tie one; it is read again then).
  if ('source' in slot && !ownsTie) delete slot.source.text;
  run.slots.push(slot);
}

/** A source file as the checker gets it, if it talks to the service; source code that does not is not parsed. */
function sourceFor(evidence: ServiceEvidence, pending: PendingSource): SourceFile[] {
  if (!evidence.tied(pending.file)) return [];
  const text = pending.text ?? readText(pending.file);
  // The string constants of the files it uses: a client's addresses are often built from its config's.
  const constants = Object.assign(
    {},
    ...evidence.used(pending.file).map((used) => constantsOf(readText(used))),
  );
  return [{ file: pending.file, text, constants }];
}

/**
 * Scans paths ('-' is stdin text, given as `stdinText`). Only files that talk to the service are
 * checked (src/migrate/evidence.ts). Source files are checked together at the end (the source
 * checker parses them in parallel); findings still come in the order files were read.
 */
export async function scan(paths: string[], options: ScanOptions): Promise<ScanResult> {
  const result: ScanResult = {
    findings: [],
    files: 0,
    serviceFiles: 0,
    suppressed: [],
    excluded: 0,
    unusable: [],
    fixed: [],
  };
  const run: Run = {
    result,
    options,
    slots: [],
    evidence: new ServiceEvidence(),
    suppressions: new Map(),
    read: [],
  };
  const { slots, evidence } = run;
  const excludes: Excludes = { patterns: options.exclude ?? [], count: 0 };
  const baseline = options.baseline === undefined ? undefined : resolve(options.baseline);
  for (const path of paths) {
    const files = path === '-' ? [{ path: STDIN, explicit: true }] : listFiles(path, excludes);
    for (const found of files)
      if (baseline === undefined || resolve(found.path) !== baseline) await readOne(run, found);
  }
  // Data a neighbour ties is checked now; the rest does not talk to the service and is not checked.
  for (const [index, slot] of slots.entries())
    if ('later' in slot)
      slots[index] = evidence.tied(slot.later.file)
        ? await scanText(readText(slot.later.file), slot.later.file, slot.later.explicit, result, options.fix)
        : { findings: [] };
  result.serviceFiles = evidence.count(new Set(run.read));
  result.excluded = excludes.count;
  const check = options.checkSources ?? checkSources;
  for (const found of await inOrder(slots, (pending) =>
    check(pending.flatMap((p) => sourceFor(evidence, p))),
  )) {
    const reason = suppressedBy(found, run.suppressions.get(found.location.file));
    if (reason === undefined) result.findings.push(found);
    else result.suppressed.push({ ...found, reason });
  }
  return result;
}

/** Checks the run's source files together, then puts every file's findings in the order files were read. */
async function inOrder(
  slots: Slot[],
  check: (sources: PendingSource[]) => Promise<Finding[]>,
): Promise<Finding[]> {
  const sources = slots.flatMap((slot) => ('source' in slot ? [slot.source] : []));
  const bySource = new Map<string, Finding[]>();
  if (sources.length > 0)
    for (const found of await check(sources)) {
      const list = bySource.get(found.location.file);
      if (list) list.push(found);
      else bySource.set(found.location.file, [found]);
    }
  const found: Finding[] = [];
  for (const slot of slots) {
    if ('findings' in slot) add(found, slot.findings);
    else if ('source' in slot) {
      add(found, bySource.get(slot.source.file) ?? []);
      // The same file named twice is reported once.
      bySource.delete(slot.source.file);
    }
  }
  return found;
}
