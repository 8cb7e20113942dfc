/**
 * Reads what migrate-check was given (files, folders, stdin) and sends each to the right checker:
 * HAR captures, Postman collections, JSON / JSON arrays / NDJSON bodies, configuration files
 * (.env, YAML, JSON, HCL, .properties), or source code. Async all the way, so a checker may be.
 */
import { readFileSync } from 'node:fs';
import { extname, resolve } from 'node:path';
import { usageError } from '../errors.js';
import { type BodyCheck, checkHar, checkItem, type Kind } from './bodies.js';
import { checkConfigFile, configFormatOf, isConfigJsonName, jsonConfigTree } from './config-files.js';
import { constantsOf } from './constants.js';
import { ServiceEvidence } from './evidence.js';
import { type Excludes, findFiles } from './files.js';
import { type FixedText, type FixInput, fixHar, fixJson, fixNdjson } from './fix.js';
import { isBaseline, type Suppressed, type Suppressions, suppressedBy, suppressionsOf } from './gate.js';
import { checkPostman, isPostmanCollection } from './postman.js';
import { type Finding, finding, type Location } from './rules.js';
import { checkSources, type SourceFile } from './source.js';

export type BodyFormat = 'json' | 'array' | 'ndjson' | 'har';

/** A file of bodies (or a HAR capture) and its v2 equivalent, for --fix. */
export interface FixedFile extends FixedText {
  file: string;
  format: BodyFormat;
}

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

const JSON_EXTENSIONS = new Set(['.json', '.ndjson', '.jsonl', '.har']);
const NDJSON_EXTENSIONS = new Set(['.ndjson', '.jsonl']);

/** Appends findings one by one: spreading a long list into push() overflows the call stack. */
function add(target: Finding[], findings: Iterable<Finding>): void {
  for (const found of findings) target.push(found);
}

function tryParse(text: string): { value: unknown } | { error: string } {
  try {
    return { value: JSON.parse(text) };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

function looksLikeNdjson(text: string): boolean {
  let lines = 0;
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (trimmed === '') continue;
    if (!trimmed.startsWith('{')) return false;
    lines++;
  }
  return lines > 1;
}

/** The file's findings, and whether it holds bodies at all (else a walked file says nothing). */
interface BodyScan {
  check: BodyCheck;
  kinds: Kind[];
}

function newCheck(): BodyScan {
  return { check: { findings: [], toldReference: { value: false } }, kinds: [] };
}

function scanNdjson(text: string, file: string, explicit: boolean, result: ScanResult, fix: boolean): void {
  const { check, kinds } = newCheck();
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const inputs: FixInput[] = lines.map((raw, index) => {
    const label = `line ${index + 1}`;
    const line = raw.replace(/\r$/, '');
    if (line.trim() === '') return { label, value: undefined, text: raw, parsed: true };
    const at = (pointer: string): Location => ({ file, item: label, pointer: pointer || '/' });
    const parsed = tryParse(line);
    if ('error' in parsed) {
      // One broken line is a finding on that line: the other lines are still checked.
      check.findings.push(
        /^\s*[{[]/.test(line)
          ? finding(
              'PO201',
              { file, item: label },
              `${label} is not valid JSON (${parsed.error})`,
              'repair the line: each NDJSON line is one JSON body',
            )
          : finding(
              'PO202',
              { file, item: label },
              `${label} is not JSON`,
              'remove the line, or make it a JSON body',
            ),
      );
      return { label, value: undefined, text: raw, parsed: false };
    }
    kinds.push(checkItem(parsed.value, at, check, explicit));
    return { label, value: parsed.value, text: raw, parsed: true };
  });
  if (!explicit && !kinds.some((kind) => kind !== 'unknown')) return;
  add(result.findings, check.findings);
  if (fix) result.fixed.push({ file, format: 'ndjson', ...fixNdjson(file, inputs) });
}

async function scanJson(
  text: string,
  file: string,
  explicit: boolean,
  result: ScanResult,
  fix: boolean,
): Promise<void> {
  if (NDJSON_EXTENSIONS.has(extname(file).toLowerCase()) || looksLikeNdjson(text))
    return scanNdjson(text, file, explicit, result, fix);
  const parsed = tryParse(text);
  if ('error' in parsed) {
    // Not strict JSON: configuration with comments or trailing commas (appsettings.json) still is.
    if (jsonConfigTree(text)) return add(result.findings, await checkConfigFile(text, file, 'json'));
    if (explicit) throw usageError(`${file}: not valid JSON (${parsed.error})`, { field: file });
    return;
  }
  const { value } = parsed;
  if (typeof value === 'object' && value !== null && 'log' in value) {
    const { check } = newCheck();
    checkHar(value as Record<string, unknown>, file, check);
    add(result.findings, check.findings);
    if (fix) result.fixed.push({ file, format: 'har', ...fixHar(file, value as Record<string, unknown>) });
    return;
  }
  if (isPostmanCollection(value)) return add(result.findings, checkPostman(value, text, file));
  const { check, kinds } = newCheck();
  const items: FixInput[] = Array.isArray(value)
    ? value.map((item, index) => ({ label: `item ${index}`, value: item, parsed: true }))
    : [{ label: 'body', value, parsed: true }];
  items.forEach((item, index) => {
    const at = Array.isArray(value)
      ? (pointer: string): Location => ({ file, item: item.label, pointer: `/${index}${pointer}` })
      : (pointer: string): Location => ({ file, pointer: pointer || '/' });
    kinds.push(checkItem(item.value, at, check, explicit));
  });
  if (kinds.some((kind) => kind !== 'unknown')) {
    add(result.findings, check.findings);
    if (fix)
      result.fixed.push({
        file,
        format: Array.isArray(value) ? 'array' : 'json',
        ...fixJson(file, items, !Array.isArray(value)),
      });
    return;
  }
  // Not bodies: configuration (appsettings.json and friends), read for the addresses in it.
  const config = await checkConfigFile(text, file, 'json');
  add(result.findings, config);
  if (explicit && config.length === 0 && !isConfigJsonName(file)) add(result.findings, check.findings);
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
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (!code) throw error;
    throw usageError(`cannot read ${file} (${code})`, { field: file });
  }
}

const STDIN = '<stdin>';

/**
 * Scans paths ('-' is stdin text, given as `stdinText`). Source files are checked together at the
 * end (the source checker parses them in parallel); findings still come in the order files were read.
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
  const slots: Slot[] = [];
  const evidence = new ServiceEvidence();
  const excludes: Excludes = { patterns: options.exclude ?? [], count: 0 };
  const suppressions = new Map<string, Suppressions>();
  const read: string[] = [];
  const baseline = options.baseline === undefined ? undefined : resolve(options.baseline);
  for (const path of paths) {
    const files = path === '-' ? [{ path: STDIN, explicit: true }] : listFiles(path, excludes);
    for (const { path: file, explicit } of files) {
      if (baseline !== undefined && resolve(file) === baseline) continue;
      const text = file === STDIN ? (options.stdinText ?? '') : readText(file);
      // A baseline found walking (another job's): its findings' text would read as the service's marks.
      if (!explicit && isBaseline(text)) continue;
      result.files++;
      read.push(file);
      evidence.note(
        file,
        text,
        explicit && (file === STDIN || JSON_EXTENSIONS.has(extname(file).toLowerCase())),
      );
      if (text.includes('payorder-ignore')) {
        const found = suppressionsOf(text);
        suppressions.set(file, found);
        for (const line of found.unusable) result.unusable.push({ file, line });
      }
      const data = JSON_EXTENSIONS.has(extname(file).toLowerCase()) || configFormatOf(file) !== undefined;
      if (data && file !== STDIN && !evidence.ownsTie(file)) {
        slots.push({ later: { file, explicit } });
        continue;
      }
      const slot = await scanText(text, file, explicit, result, options.fix);
      // Most source files never talk to the service: their text is not kept until the end of the
      // walk (a neighbour may still tie one; it is read again then).
      if ('source' in slot && file !== STDIN && !evidence.ownsTie(file)) delete slot.source.text;
      slots.push(slot);
    }
  }
  // Data a neighbour ties is checked now; the rest does not talk to the service and is not checked.
  for (const [index, slot] of slots.entries())
    if ('later' in slot)
      slots[index] = evidence.tied(slot.later.file)
        ? await scanText(readText(slot.later.file), slot.later.file, slot.later.explicit, result, options.fix)
        : { findings: [] };
  result.serviceFiles = evidence.count(new Set(read));
  result.excluded = excludes.count;
  const check = options.checkSources ?? checkSources;
  // Source code that does not talk to the service would get info at most: it is not parsed at all.
  const tied = (pending: PendingSource): SourceFile[] => {
    if (!evidence.tied(pending.file)) return [];
    const text = pending.text ?? readText(pending.file);
    // The string constants of the files it uses: a client's addresses are often built from its config's.
    const constants = Object.assign(
      {},
      ...evidence.used(pending.file).map((used) => constantsOf(readText(used))),
    );
    return [{ file: pending.file, text, constants }];
  };
  for (const judged of await inOrder(slots, (pending) => check(pending.flatMap(tied)))) {
    const reason = suppressedBy(judged, suppressions.get(judged.location.file));
    if (reason === undefined) result.findings.push(judged);
    else result.suppressed.push({ ...judged, reason });
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
