/**
 * Reads what migrate-check was given (files, folders, stdin) and sends each to the right checker:
 * HAR captures, JSON / JSON arrays / NDJSON bodies, or source code.
 */
import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { usageError } from '../errors.js';
import { type BodyCheck, checkHar, checkItem, type Kind } from './bodies.js';
import { findFiles } from './files.js';
import { fixHar, fixItem } from './fix.js';
import type { Finding, Location } from './rules.js';
import { checkSource } from './source.js';

export type BodyFormat = 'json' | 'array' | 'ndjson' | 'har';

/** A file of bodies and its v2 equivalents, for --fix. */
export interface FixedFile {
  file: string;
  format: BodyFormat;
  items: unknown[];
  /** Items that could not be converted (invalid already, or not for the service). */
  skipped: number;
}

export interface ScanResult {
  findings: Finding[];
  files: number;
  fixed: FixedFile[];
}

const BODY_EXTENSIONS = new Set(['.json', '.ndjson', '.jsonl', '.har']);

function parseJson(text: string, file: string, explicit: boolean): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    if (explicit) throw usageError(`${file}: not valid JSON (${(error as Error).message})`, { field: file });
    return undefined;
  }
}

function looksLikeNdjson(text: string): boolean {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  return lines.length > 1 && lines.every((l) => l.trim().startsWith('{'));
}

function scanBodies(
  text: string,
  file: string,
  explicit: boolean,
  result: ScanResult,
  fix: boolean,
): boolean {
  const check: BodyCheck = { findings: [], toldReference: { value: false } };
  const kinds: Kind[] = [];
  let format: BodyFormat;
  let items: Array<{ value: unknown; at: (pointer: string) => Location }> = [];
  let har: Record<string, unknown> | undefined;
  if (extname(file) === '.ndjson' || extname(file) === '.jsonl' || looksLikeNdjson(text)) {
    format = 'ndjson';
    text.split('\n').forEach((line, index) => {
      if (line.trim() === '') return;
      const value = parseJson(line, `${file} line ${index + 1}`, explicit);
      items.push({ value, at: (pointer) => ({ file, item: `line ${index + 1}`, pointer: pointer || '/' }) });
    });
  } else {
    const value = parseJson(text, file, explicit);
    if (value === undefined) return false;
    if (typeof value === 'object' && value !== null && 'log' in value) {
      format = 'har';
      har = value as Record<string, unknown>;
    } else if (Array.isArray(value)) {
      format = 'array';
      items = value.map((item, index) => ({
        value: item,
        at: (pointer: string) => ({ file, item: `item ${index}`, pointer: `/${index}${pointer}` }),
      }));
    } else {
      format = 'json';
      items = [{ value, at: (pointer) => ({ file, pointer: pointer || '/' }) }];
    }
  }
  if (har) checkHar(har, file, check);
  for (const item of items) kinds.push(checkItem(item.value, item.at, check, explicit));
  const recognized = har !== undefined || kinds.some((kind) => kind !== 'unknown');
  if (!recognized && !explicit) return false;
  result.findings.push(...check.findings);
  if (fix) {
    const converted = har ? fixHar(har) : items.map((item) => fixItem(item.value));
    const kept = converted.filter((item) => item !== undefined);
    result.fixed.push({
      file,
      format,
      items: kept,
      skipped: (har ? kept.length : items.length) - kept.length,
    });
  }
  return true;
}

/** Scans paths ('-' is stdin text, given as `stdinText`). */
export function scan(paths: string[], options: { fix: boolean; stdinText?: string }): ScanResult {
  const result: ScanResult = { findings: [], files: 0, fixed: [] };
  for (const path of paths) {
    if (path === '-') {
      const text = options.stdinText ?? '';
      const trimmed = text.trimStart();
      if (trimmed.startsWith('{') || trimmed.startsWith('['))
        scanBodies(text, '<stdin>', true, result, options.fix);
      else result.findings.push(...checkSource(text, '<stdin>'));
      result.files++;
      continue;
    }
    let files: ReturnType<typeof findFiles>;
    try {
      files = findFiles([path]);
      for (const { path: file, explicit } of files) {
        const text = readFileSync(file, 'utf8');
        result.files++;
        if (BODY_EXTENSIONS.has(extname(file).toLowerCase())) {
          scanBodies(text, file, explicit, result, options.fix);
        } else {
          result.findings.push(...checkSource(text, file));
        }
      }
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (!code) throw error;
      throw usageError(`cannot read ${path} (${code})`, { field: path });
    }
  }
  return result;
}
