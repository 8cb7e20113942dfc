/**
 * Files of JSON read as what they hold: HAR captures, Postman collections, bodies (one, an array, or
 * NDJSON lines), else configuration (appsettings.json and the like). Findings, and with --fix the
 * v2 equivalents, go into the run's result.
 */
import { extname } from 'node:path';
import { usageError } from '../errors.js';
import { type BodyCheck, checkHar, checkItem, type Kind } from './bodies.js';
import { checkConfigFile, isConfigJsonName, jsonConfigTree } from './config-files.js';
import { type FixedText, type FixInput, fixHar, fixJson, fixNdjson } from './fix.js';
import { checkPostman, isPostmanCollection } from './postman.js';
import { fixPostman } from './postman-fix.js';
import { type Finding, finding, type Location } from './rules.js';

export type BodyFormat = 'json' | 'array' | 'ndjson' | 'har' | 'postman';

/** A file of bodies (or a HAR capture, or a Postman collection) and its v2 equivalent, for --fix. */
export interface FixedFile extends FixedText {
  file: string;
  format: BodyFormat;
}

/** Where a file's findings and v2 equivalents go. */
interface BodyResult {
  findings: Finding[];
  fixed: FixedFile[];
}

export const JSON_EXTENSIONS = new Set(['.json', '.ndjson', '.jsonl', '.har']);
const NDJSON_EXTENSIONS = new Set(['.ndjson', '.jsonl']);

/** Appends findings one by one: spreading a long list into push() overflows the call stack. */
export function add(target: Finding[], findings: Iterable<Finding>): void {
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

function scanNdjson(text: string, file: string, explicit: boolean, result: BodyResult, fix: boolean): void {
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

export async function scanJson(
  text: string,
  file: string,
  explicit: boolean,
  result: BodyResult,
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
  if (isPostmanCollection(value)) {
    add(result.findings, checkPostman(value, text, file));
    if (fix) result.fixed.push({ file, format: 'postman', ...(await fixPostman(file, value)) });
    return;
  }
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
