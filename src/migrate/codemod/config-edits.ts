/**
 * The codemod for configuration files (.env, YAML with or without ERB, JSON, .properties, HCL): the
 * v1 address entries get the v2 prefix and, where known, the v2 host (PO101). HCL, which payorder
 * parses, is edited in the tokens of its syntax tree; the other formats, without one here, on the
 * text of the finding's line. A comment marks a kept host where the format has comments; JSON has
 * none, so there the warning alone says it.
 */
import YAML from 'yaml';
import type { ConfigFormat } from '../config-files.js';
import type { Finding } from '../rules.js';
import { type FileFix, type FindNear, nearestMatch, offsetOf } from './edits.js';
import { LOOKUP_PATH, prefixEdit, renameEdit } from './renames.js';
import { todoLine } from './source-edits.js';
import { ParsedFile, parsesCleanly } from './tree.js';
import type { V2Addresses } from './v2-addresses.js';

const COMMENT: Record<ConfigFormat, string | undefined> = {
  env: '#',
  yaml: '#',
  properties: '#',
  hcl: '#',
  json: undefined,
};

/** Lines of a .properties file or .env that are comments. */
const isCommentLine = (text: string, offset: number) => {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  return /^\s*[#!]/.test(text.slice(start, offset + 1));
};

export async function fixConfig(
  text: string,
  format: ConfigFormat,
  findings: Finding[],
  addresses: V2Addresses,
): Promise<FileFix> {
  const parsed = format === 'hcl' ? await ParsedFile.parse(text, 'hcl') : undefined;
  try {
    return editConfig(text, format, findings, addresses, parsed);
  } finally {
    parsed?.delete();
  }
}

function editConfig(
  text: string,
  format: ConfigFormat,
  findings: Finding[],
  addresses: V2Addresses,
  parsed: ParsedFile | undefined,
): FileFix {
  const fix: FileFix = { edits: [], left: [], notes: [] };
  const isCode = (offset: number) => format === 'json' || !isCommentLine(text, offset);
  const find: FindNear = parsed?.tokenMatch ?? ((at, pattern) => nearestMatch(text, at, pattern, isCode));
  const todo = todoLine(text, COMMENT[format]);
  for (const finding of findings) {
    if (finding.severity !== 'error') continue;
    const offset = offsetOf(text, finding.location.line ?? 1, finding.location.column ?? 1);
    const result =
      finding.rule === 'PO101'
        ? prefixEdit(text, offset, finding, addresses, find, todo)
        : finding.rule === 'PO106'
          ? renameEdit(find, offset, finding, LOOKUP_PATH, 'orders')
          : { edits: [], notes: [], failed: 'the codemod changes only addresses and paths in configuration' };
    fix.edits.push(...result.edits);
    fix.notes.push(...result.notes.map((note) => `line ${finding.location.line}: ${note}`));
    if (result.failed) fix.left.push({ finding, why: result.failed });
  }
  return fix;
}

/** Whether an edited configuration file still reads as its format. */
export async function configParses(text: string, format: ConfigFormat): Promise<boolean> {
  switch (format) {
    case 'json':
      try {
        JSON.parse(text);
        return true;
      } catch {
        return false;
      }
    case 'yaml':
      // ERB in YAML is read by Rails before YAML: its tags are not YAML, so only plain YAML is checked.
      if (text.includes('<%')) return true;
      return YAML.parseAllDocuments(text).every((document) => document.errors.length === 0);
    case 'hcl':
      return parsesCleanly(text, 'hcl');
    default:
      return true;
  }
}
