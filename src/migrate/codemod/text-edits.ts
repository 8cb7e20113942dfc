/**
 * The codemod for a file in a language payorder has no grammar for (Perl): with no tree to edit,
 * only the edits that stay inside the finding's own line are made, each as narrow as the same edit
 * on a tree would be (a name, a prefix, a whole `key => value,` line of a body), and the file's
 * report says that they were made on text. Anything else is left, and blocks the unit.
 */
import { extname } from 'node:path';
import type { Finding } from '../rules.js';
import { type FileFix, type FindNear, lineAround, nearestMatch, offsetOf, type TextEdit } from './edits.js';
import { wholeLines } from './node-kinds.js';
import {
  CHECKOUT_LINK,
  LOOKUP_PATH,
  prefixEdit,
  type RenameResult,
  renameEdit,
  type TodoLine,
  USER_NAME,
} from './renames.js';
import type { V2Addresses } from './v2-addresses.js';

/** The languages without a grammar whose lines the codemod edits, by extension: their line comment. */
const TEXT_COMMENT: Record<string, string> = { '.pl': '#', '.pm': '#', '.t': '#' };

/** Whether the codemod edits a file of this name on its text. */
export const editsAsText = (file: string) => extname(file).toLowerCase() in TEXT_COMMENT;

/** A body's entry alone on its line: `userName => $user,`, `"userName": user,`. */
const USER_NAME_ENTRY = /^\s*["']?userName["']?\s*(?:=>|:)\s*[^,\n]*,?\s*(?:#.*)?$/;
/** A decimal printed from integer cents: `sprintf('%.2f', $cents / 100)`. */
const SCALED = /sprintf\(\s*(['"])%\.2f\1\s*,\s*(\$\w+)\s*\/\s*100(?:\.0*)?\s*\)/;

const none = (failed: string): RenameResult => ({ edits: [], notes: [], failed });

function editFor(
  text: string,
  offset: number,
  finding: Finding,
  addresses: V2Addresses,
  comment: string,
): RenameResult | undefined {
  const line = lineAround(text, offset);
  const lineText = text.slice(line.start, line.end);
  // A line that starts with the comment is a comment; what follows the comment on a line is too.
  const commentAt = lineText.trimStart().startsWith(comment) ? 0 : lineText.indexOf(` ${comment} `);
  const isCode = (at: number) => commentAt < 0 || at < line.start + commentAt;
  const find: FindNear = (at, pattern) => nearestMatch(text, at, pattern, isCode);
  const todo: TodoLine = (at, message) => {
    const indent = /^[ \t]*/.exec(lineText)?.[0] ?? '';
    return {
      start: lineAround(text, at).start,
      end: lineAround(text, at).start,
      text: `${indent}${comment} ${message}\n`,
      label: message,
    };
  };
  switch (finding.rule) {
    case 'PO101':
      return prefixEdit(text, offset, finding, addresses, find, todo);
    case 'PO102':
      return renameEdit(find, offset, finding, USER_NAME, 'username');
    case 'PO103': {
      if (!USER_NAME_ENTRY.test(lineText)) return none('userName is not an entry alone on its line');
      const whole = wholeLines(text, line.start, line.end);
      return {
        edits: [{ ...whole, text: '', label: 'userName removed from the order body', finding }],
        notes: [],
      };
    }
    case 'PO104': {
      const scaled = SCALED.exec(lineText);
      if (!scaled) return none('no amount made of integer cents on this line');
      const start = line.start + scaled.index;
      const cents = `"${scaled[2]}"`;
      return {
        edits: [
          {
            start,
            end: start + scaled[0].length,
            text: cents,
            label: `amount ${scaled[0]} → ${cents} (the integer cents it was made of)`,
            finding,
          },
        ],
        notes: [],
      };
    }
    case 'PO105':
      return renameEdit(find, offset, finding, CHECKOUT_LINK, 'checkout_link');
    case 'PO106': {
      const path = renameEdit(find, offset, finding, LOOKUP_PATH, 'orders');
      const edit = path.edits[0];
      if (!edit) return path;
      // Only a lookup given the uuid (v1 takes it too) is fixed by its path alone.
      return /uuid/i.test(text.slice(edit.end, line.end))
        ? path
        : none('the lookup is not given a uuid on this line');
    }
    default:
      return finding.severity === 'error' ? none('the codemod has no edit for this rule on text') : undefined;
  }
}

/** The edits for the findings of a file without a grammar. */
export function fixText(file: string, text: string, findings: Finding[], addresses: V2Addresses): FileFix {
  const comment = TEXT_COMMENT[extname(file).toLowerCase()] ?? '#';
  const fix: FileFix = { edits: [], left: [], notes: [] };
  const edits: TextEdit[] = [];
  for (const finding of findings) {
    const offset = offsetOf(text, finding.location.line ?? 1, finding.location.column ?? 1);
    const result = editFor(text, offset, finding, addresses, comment);
    if (!result) continue;
    edits.push(...result.edits);
    fix.notes.push(...result.notes.map((note) => `line ${finding.location.line}: ${note}`));
    if (result.failed && finding.severity === 'error') fix.left.push({ finding, why: result.failed });
  }
  fix.edits.push(...edits);
  if (edits.length > 0)
    fix.notes.push(
      'payorder has no grammar for this language: these edits were made on the text of each line; review them',
    );
  return fix;
}
