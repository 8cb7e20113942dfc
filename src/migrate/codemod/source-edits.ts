/**
 * The codemod for source code: for each finding of a file, the edit on its syntax tree that fixes
 * it, or why there is none. Renames of names and prefixes (renames.ts) are made inside the token of
 * the tree that holds them (ParsedFile.tokenMatch); the other edits are in body-edits.ts (PO103),
 * amount-edits.ts and go-amounts.ts (PO104), link-edits.ts (PO105), lookup-edits.ts (PO106),
 * status-edits.ts (PO107) and field-edits.ts (PO110).
 */
import type { Finding } from '../rules.js';
import type { LanguageId } from '../syntax/languages.js';
import { centsEdit } from './amount-edits.js';
import { removeUserName } from './body-edits.js';
import { type FileFix, lineAround, offsetOf } from './edits.js';
import { v1FieldEdit } from './field-edits.js';
import { goImports } from './go-amounts.js';
import { type CodeLanguage, LINE_COMMENT } from './idioms.js';
import { linkEdit } from './link-edits.js';
import { keepCreationUuid, uuidEdits } from './lookup-edits.js';
import type { CallersPassUuid } from './origins.js';
import { prefixEdit, type RenameResult, renameEdit, type TodoLine, USER_NAME } from './renames.js';
import { refundedEdit } from './status-edits.js';
import type { ParsedFile } from './tree.js';
import type { V2Addresses } from './v2-addresses.js';

/** A comment line above the line of `offset`, indented like it. */
export function todoLine(text: string, comment: string | undefined): TodoLine {
  return (offset, message) => {
    if (!comment) return undefined;
    const line = lineAround(text, offset);
    // A comment cannot go inside a command continued with a backslash.
    const before = text.slice(0, Math.max(0, line.start - 1));
    if (before.trimEnd().endsWith('\\')) return undefined;
    const indent = /^[ \t]*/.exec(text.slice(line.start, line.end))?.[0] ?? '';
    return { start: line.start, end: line.start, text: `${indent}${comment} ${message}\n`, label: message };
  };
}

/** The edits for a file's findings. Warnings without an edit are not "left": only errors are. */
export function fixSource(
  parsed: ParsedFile,
  findings: Finding[],
  addresses: V2Addresses,
  callers?: CallersPassUuid,
): FileFix {
  const comment = LINE_COMMENT[parsed.language as CodeLanguage];
  const todo = todoLine(parsed.text, comment);
  const fix: FileFix = { edits: [], left: [], notes: [] };
  const imports: string[] = [];
  for (const finding of findings) {
    const offset = offsetOf(parsed.text, finding.location.line ?? 1, finding.location.column ?? 1);
    const result = editFor(parsed, offset, finding, addresses, todo, callers);
    if (!result) continue;
    fix.edits.push(...result.edits);
    imports.push(...(result.imports ?? []));
    fix.notes.push(...result.notes.map((note) => `line ${finding.location.line}: ${note}`));
    if (result.failed && finding.severity === 'error') fix.left.push({ finding, why: result.failed });
    else if (result.failed)
      fix.notes.push(`line ${finding.location.line}: ${finding.rule} ${finding.message}: ${result.failed}`);
  }
  // One edit for every import: edits inserted at the same place would clash (edits.ts).
  if (imports.length > 0) fix.edits.push(...goImports(parsed, imports));
  keepCreationUuid(parsed, findings, fix);
  return fix;
}

function editFor(
  parsed: ParsedFile,
  offset: number,
  finding: Finding,
  addresses: V2Addresses,
  todo: TodoLine,
  callers: CallersPassUuid | undefined,
): RenameResult | undefined {
  switch (finding.rule) {
    case 'PO101':
      return prefixEdit(parsed.text, offset, finding, addresses, parsed.tokenMatch, todo);
    case 'PO102':
      return renameEdit(parsed.tokenMatch, offset, finding, USER_NAME, 'username');
    case 'PO103':
      return removeUserName(parsed, offset, finding);
    case 'PO104':
      return centsEdit(parsed, offset, finding);
    case 'PO105':
      return linkEdit(parsed, offset, finding);
    case 'PO106':
      return uuidEdits(parsed, offset, finding, callers);
    case 'PO107':
      return refundedEdit(parsed, offset, finding, todo);
    case 'PO110':
      return v1FieldEdit(parsed, offset, finding);
    default:
      return finding.severity === 'error'
        ? { edits: [], notes: [], failed: 'the codemod has no edit for this rule' }
        : undefined;
  }
}

export type { LanguageId };
