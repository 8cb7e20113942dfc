/**
 * The codemod for source code: for each finding of a file, the edit on its syntax tree that fixes
 * it, or why there is none. Renames of names and prefixes are in renames.ts; here are the edits that
 * need the tree: the user field removed from the order body (PO103), the amount in integer cents
 * (PO104), the lookup by uuid (PO106) and the REFUNDED branch (PO107).
 */
import type { Node } from 'web-tree-sitter';
import { parseAmount } from '../../contract/money.js';
import type { Finding } from '../rules.js';
import type { LanguageId } from '../syntax/languages.js';
import { lineAround, nearestMatch, offsetOf, type TextEdit } from './edits.js';
import { CENTS, type CodeLanguage, GO_CENTS, LINE_COMMENT } from './idioms.js';
import {
  CHECKOUT_LINK,
  LOOKUP_PATH,
  prefixEdit,
  type RenameResult,
  renameEdit,
  type TodoLine,
  USER_NAME,
} from './renames.js';
import { ancestry, type ParsedFile } from './tree.js';
import type { V2Addresses } from './v2-addresses.js';

export interface FileFix {
  edits: TextEdit[];
  /** Findings without an edit, each with why. */
  left: Array<{ finding: Finding; why: string }>;
  /** What a person should look at in the edited file. */
  notes: string[];
}

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

const PAIRS = new Set([
  'pair',
  'keyword_argument',
  'array_element_initializer',
  'keyed_element',
  'anonymous_object_member_declarator',
  'element_binding_expression',
]);
const STATEMENT = /statement$|^assignment$/;
/** Where a search for an enclosing entry or statement stops: a function, class or block. */
const STOP =
  /^(?:function_(?:declaration|definition|expression|item)|method_(?:declaration|definition)|arrow_function|lambda|closure|anonymous_function\w*|class_\w+|program|source_file|module|block|compound_statement|statement_block|do_block)$/;

/** The whole lines of [start, end) when nothing else stands on them, so no blank line is left. */
function wholeLines(text: string, start: number, end: number): { start: number; end: number } {
  const first = lineAround(text, start);
  const last = lineAround(text, end);
  if (text.slice(first.start, start).trim() === '' && text.slice(end, last.end).trim() === '')
    return { start: first.start, end: Math.min(text.length, last.end + 1) };
  return { start, end };
}

/** Removes a list element with one of its commas. */
function removeElement(parsed: ParsedFile, element: Node): { start: number; end: number } {
  const next = element.nextSibling;
  const previous = element.previousSibling;
  let start = parsed.start(element);
  let end = parsed.end(element);
  if (next?.type === ',') {
    end = parsed.end(next);
    // The space after the comma goes too, when the next entry is on the same line.
    while (parsed.text[end] === ' ' || parsed.text[end] === '\t') end++;
  } else if (previous?.type === ',') start = parsed.start(previous);
  return wholeLines(parsed.text, start, end);
}

/** A key and its value inside a string (a JSON body, a jq program), with one comma. */
const EMBEDDED_VALUE = String.raw`(?:"'"\$\{?\w+\}?"'"|\\?"(?:[^"\\]|\\.)*?\\?"|'[^']*'|[^,}\s]+)`;
const EMBEDDED_USER = [
  new RegExp(String.raw`\\?["']?userName\\?["']?\s*:\s*${EMBEDDED_VALUE}\s*,\s*`),
  new RegExp(String.raw`,\s*\\?["']?userName\\?["']?\s*:\s*${EMBEDDED_VALUE}`),
];

/**
 * A body's class (Java, C#): the userName member is kept in the code but no longer serialized, with
 * the ignore annotation of the serializer the file already uses (Jackson, System.Text.Json,
 * Json.NET), so that no constructor or initializer breaks.
 */
function ignoreMember(parsed: ParsedFile, offset: number, finding: Finding): RenameResult | undefined {
  const label = 'userName no longer serialized';
  const notes = ['the UserName member is no longer sent; remove it when nothing else sets it'];
  const named = nearestMatch(parsed.text, offset, /JsonProperty(?:Name)?\(\s*"userName"\s*\)/, parsed.isCode);
  if (named && lineAround(parsed.text, named.start).start === lineAround(parsed.text, offset).start) {
    const ignore = parsed.language === 'java' ? 'com.fasterxml.jackson.annotation.JsonIgnore' : 'JsonIgnore';
    return { edits: [{ start: named.start, end: named.end, text: ignore, label, finding }], notes };
  }
  // The attribute sits on the line above a C# property.
  const above = lineAround(parsed.text, Math.max(0, lineAround(parsed.text, offset).start - 1));
  const attribute = /JsonProperty(?:Name)?\(\s*"userName"\s*\)/.exec(
    parsed.text.slice(above.start, above.end),
  );
  if (parsed.language === 'c_sharp' && attribute) {
    const start = above.start + attribute.index;
    return {
      edits: [{ start, end: start + attribute[0].length, text: 'JsonIgnore', label, finding }],
      notes,
    };
  }
  const component = [...ancestry(parsed.nodeAt(offset))].find((node) =>
    /^(?:formal_parameter|record_component|field_declaration)$/.test(node.type),
  );
  if (parsed.language === 'java' && component && parsed.text.includes('com.fasterxml.jackson')) {
    const start = parsed.start(component);
    return {
      edits: [{ start, end: start, text: '@com.fasterxml.jackson.annotation.JsonIgnore ', label, finding }],
      notes,
    };
  }
  return undefined;
}

function removeUserName(parsed: ParsedFile, offset: number, finding: Finding): RenameResult {
  const label = 'userName removed from the order body';
  if (parsed.language === 'java' || parsed.language === 'c_sharp') {
    const ignored = ignoreMember(parsed, offset, finding);
    if (ignored) return ignored;
  }
  const node = parsed.nodeAt(offset);
  for (const ancestor of ancestry(node)) {
    if (/string|heredoc|raw|concatenation/.test(ancestor.type) && /[{]/.test(ancestor.text)) {
      for (const pattern of EMBEDDED_USER) {
        const found = nearestMatch(parsed.text, offset, pattern, parsed.isCode);
        if (found && found.start >= parsed.start(ancestor) && found.end <= parsed.end(ancestor))
          return { edits: [{ start: found.start, end: found.end, text: '', label, finding }], notes: [] };
      }
    }
    if (ancestor.type === 'field_declaration' && parsed.language === 'go') {
      const tag = nearestMatch(parsed.text, offset, /json:"userName[^"]*"/, parsed.isCode);
      if (tag)
        return {
          edits: [
            {
              start: tag.start,
              end: tag.end,
              text: 'json:"-"',
              label: 'userName no longer sent (json:"-")',
              finding,
            },
          ],
          notes: ['the UserName field is no longer sent; remove it when nothing else reads it'],
        };
    }
    if (PAIRS.has(ancestor.type)) {
      const range = removeElement(parsed, ancestor);
      return { edits: [{ ...range, text: '', label, finding }], notes: [] };
    }
    if (STATEMENT.test(ancestor.type) && ancestor.parent && STOP.test(ancestor.parent.type)) {
      const range = wholeLines(parsed.text, parsed.start(ancestor), parsed.end(ancestor));
      return { edits: [{ ...range, text: '', label, finding }], notes: [] };
    }
    if (STOP.test(ancestor.type)) break;
  }
  return { edits: [], notes: [], failed: 'no body entry of userName to remove was recognized here' };
}

const STRING_TYPES = /string|template|heredoc|encapsed/;
const DECIMAL = /^\d+(?:\.\d{1,2})?$/;

/**
 * The value expression the finding points into: the highest node below the entry, argument list,
 * assignment or statement that holds it (`cart.total.toFixed(2)` in `amount: cart.total.toFixed(2)`).
 */
function amountExpression(parsed: ParsedFile, offset: number): Node | undefined {
  let best: Node | undefined;
  for (const ancestor of ancestry(parsed.nodeAt(offset))) {
    if (PAIRS.has(ancestor.type) || STATEMENT.test(ancestor.type) || STOP.test(ancestor.type)) break;
    // A format string ("%d.%02d", "{:.2f}") is an argument of the call that makes the amount.
    const formatArgument = best && STRING_TYPES.test(best.type) && /%|\{:/.test(best.text);
    if (/argument_list|arguments|value_arguments/.test(ancestor.type) && formatArgument) continue;
    if (
      /argument_list|arguments|parenthesized|array|object|dictionary|list|declaration|declarator/.test(
        ancestor.type,
      )
    )
      break;
    if (ancestor.type.includes('assignment') || ancestor.type === 'function_body') break;
    best = ancestor;
  }
  return best;
}

function centsEdit(parsed: ParsedFile, offset: number, finding: Finding): RenameResult {
  const language = parsed.language as CodeLanguage;
  // A decimal written out: its cents, computed here exactly.
  const literal = nearestMatch(parsed.text, offset, /(?<=["'])\d+\.\d{1,2}(?=\\?["'])/, parsed.isCode);
  if (literal && Math.abs(literal.start - offset) <= 2) {
    const cents = parseAmount(literal.match[0]).toString();
    return {
      edits: [
        {
          start: literal.start,
          end: literal.end,
          text: cents,
          label: `amount ${literal.match[0]} → ${cents} (cents)`,
          finding,
        },
      ],
      notes: [],
    };
  }
  const expression = amountExpression(parsed, offset);
  if (language === 'go' && expression) return goCents(parsed, expression, finding);
  const idiom = CENTS[language];
  if (!expression || !idiom)
    return {
      edits: [],
      notes: [],
      failed: `no amount expression that can be converted to cents in ${language} here`,
    };
  const value = expression.text;
  const interpolated = /\{|\$|#\{/.test(value);
  if (STRING_TYPES.test(expression.type) && !interpolated && !DECIMAL.test(value.replace(/^["']|["']$/g, '')))
    return { edits: [], notes: [], failed: 'the amount is a string that is not a plain decimal' };
  const edits: TextEdit[] = [
    {
      start: parsed.start(expression),
      end: parsed.end(expression),
      text: idiom.wrap(value),
      label: `amount ${value} → integer cents by exact arithmetic`,
      finding,
    },
  ];
  if (idiom.needs && !idiom.needs.present.test(parsed.text)) edits.push(importLine(parsed, idiom.needs.line));
  return {
    edits,
    notes: [
      `the amount ${value} is sent in integer cents; where it holds a binary float, this is exact for amounts with at most two decimals`,
    ],
  };
}

/**
 * Go: only an expression that is a string for sure (fmt.Sprintf, strconv.FormatFloat) is converted,
 * with math/big's exact rationals; the import is added to the file's import block.
 */
function goCents(parsed: ParsedFile, expression: Node, finding: Finding): RenameResult {
  const value = expression.text;
  if (!/^(?:fmt\.Sprintf|strconv\.FormatFloat)\(/.test(value))
    return {
      edits: [],
      notes: [],
      failed:
        'in Go, only an amount made by fmt.Sprintf or strconv.FormatFloat is converted (its type is then known)',
    };
  const block = /^import \(\n/m.exec(parsed.text);
  if (!block) return { edits: [], notes: [], failed: 'the Go file has no import block to add math/big to' };
  const edits: TextEdit[] = [
    {
      start: parsed.start(expression),
      end: parsed.end(expression),
      text: GO_CENTS(value),
      label: `amount ${value} → integer cents by exact arithmetic`,
      finding,
    },
  ];
  if (!/^\s*"math\/big"$/m.test(parsed.text)) {
    const at = block.index + block[0].length;
    edits.push({ start: at, end: at, text: '\t"math/big"\n', label: 'added import math/big' });
  }
  return { edits, notes: [] };
}

/** An import line after the file's last top-level import (Python), or at its top. */
function importLine(parsed: ParsedFile, line: string): TextEdit {
  const imports = /^(?:import |from \S+ import )[^\n]*\n/gm;
  let at = 0;
  for (let match = imports.exec(parsed.text); match; match = imports.exec(parsed.text))
    if (parsed.isCode(match.index) && match[0].startsWith('from __future__') === false)
      at = match.index + match[0].length;
  if (at === 0) {
    const docstring = /^(?:#![^\n]*\n)?(?:\s*(?:"""[\s\S]*?"""|'''[\s\S]*?''')[^\n]*\n)?/.exec(parsed.text);
    at = docstring?.[0].length ?? 0;
  }
  return { start: at, end: at, text: `${line}\n`, label: `added ${line}` };
}

/** Reads of an order's v1 id: order.id, order['id'], $order['id'], order[:id], jq's .id. */
const ID_READ = /(?<=\.|->)id\b(?![\w(])|(?<=\[\s*["':]?)id(?=["']?\s*\])|(?<=['"]\.)id(?=['"])/;

function uuidEdits(parsed: ParsedFile, offset: number, finding: Finding): RenameResult {
  const path = renameEdit(parsed.text, offset, finding, LOOKUP_PATH, 'orders', parsed.isCode);
  if (path.failed) return path;
  const lookup = lineAround(parsed.text, offset);
  const after = parsed.text.slice(path.edits[0]!.end, lookup.end);
  const onLine = nearestMatch(
    parsed.text,
    path.edits[0]!.end,
    ID_READ,
    (start) => start >= path.edits[0]!.end && parsed.isCode(start),
  );
  const idEdits: TextEdit[] = [];
  if (onLine)
    idEdits.push({
      start: onLine.start,
      end: onLine.end,
      text: 'uuid',
      label: 'the lookup uses the order uuid',
      finding,
    });
  else {
    // The path takes a variable: where it is set from the creation answer's id, keep the uuid instead.
    const name =
      /^\s*(?:['"]?\s*(?:\.|\+)?\s*)?(?:\$\{?|\{|#\{)?\s*(?:encodeURIComponent\()?([A-Za-z_]\w*)/.exec(
        after.replace(/^\/?['"`]?\s*(?:\.|\+)?\s*/, ''),
      )?.[1];
    const assignment = name
      ? new RegExp(`(?:^|[\\s;(])\\$?${name}\\s*(?::=|=(?!=))[^\\n]*`, 'gm')
      : undefined;
    for (let match = assignment?.exec(parsed.text); match; match = assignment?.exec(parsed.text)) {
      const start = match.index + match[0].indexOf(name!);
      const read = nearestMatch(parsed.text, start, ID_READ, (at) => at > start && parsed.isCode(at));
      if (read && parsed.isCode(start))
        idEdits.push({
          start: read.start,
          end: read.end,
          text: 'uuid',
          label: `${name} keeps the order uuid`,
          finding,
        });
    }
  }
  if (idEdits.length === 0)
    return {
      edits: [],
      notes: [],
      failed:
        'the lookup takes an id whose source is not in this file: pass the order uuid (creation answer uuid) instead',
    };
  return { edits: [...path.edits, ...idEdits], notes: [] };
}

/**
 * REFUNDED, where statuses are switched on: a chain of "status is not X" gets "and not REFUNDED"
 * (so a refunded order never reaches the paid path), and a shell case pattern with FAILED gets
 * REFUNDED beside it. Both are marked for review.
 */
function refundedEdit(parsed: ParsedFile, offset: number, finding: Finding, todo: TodoLine): RenameResult {
  const review = 'TODO(payorder): review: REFUNDED (v2) is a final state that is not paid';
  const line = lineAround(parsed.text, offset);
  const text = parsed.text.slice(line.start, line.end);
  const notEqual = /([$\w.[\]'"]+?)\s*(!==|!=|-ne)\s*(['"])PENDING\3/.exec(text);
  const conjunction = /&&|\band\b/.exec(text);
  if (notEqual && conjunction) {
    const [whole, subject, operator, quote] = notEqual;
    const start = line.start + notEqual.index + whole.length;
    const marker = todo(offset, review);
    return {
      edits: [
        {
          start,
          end: start,
          text: ` ${conjunction[0]} ${subject} ${operator} ${quote}REFUNDED${quote}`,
          label: 'REFUNDED is not paid',
          finding,
        },
        ...(marker ? [marker] : []),
      ],
      notes: ['REFUNDED is handled as final and not paid: review the branch'],
    };
  }
  const pattern = /^(\s*)((?:[\w"']+\s*\|\s*)*(?:["']?FAILED["']?)(?:\s*\|\s*[\w"']+)*)\)/m;
  const casePattern =
    nearestMatch(parsed.text, offset, pattern, parsed.isCode) ??
    (parsed.language === 'bash' ? findBelow(parsed, offset, pattern) : undefined);
  if (casePattern) {
    const end = casePattern.start + casePattern.match[0].length - 1;
    const marker = todo(casePattern.start, review);
    return {
      edits: [
        { start: end, end, text: ' | REFUNDED', label: 'REFUNDED joins the not-paid branch', finding },
        ...(marker ? [marker] : []),
      ],
      notes: ['REFUNDED is handled as final and not paid: review the branch'],
    };
  }
  return { edits: [], notes: [], failed: 'no status test to extend with REFUNDED was recognized here' };
}

/** A case item within the next few lines (a finding on `case` points at the statement). */
function findBelow(parsed: ParsedFile, offset: number, pattern: RegExp) {
  let at = lineAround(parsed.text, offset).end + 1;
  for (let step = 0; step < 4 && at < parsed.text.length; step++) {
    const found = nearestMatch(parsed.text, at, pattern, parsed.isCode);
    if (found) return found;
    at = lineAround(parsed.text, at).end + 1;
  }
  return undefined;
}

/** The edits for a file's findings. Warnings without an edit are not "left": only errors are. */
export function fixSource(parsed: ParsedFile, findings: Finding[], addresses: V2Addresses): FileFix {
  const comment = LINE_COMMENT[parsed.language as CodeLanguage];
  const todo = todoLine(parsed.text, comment);
  const fix: FileFix = { edits: [], left: [], notes: [] };
  for (const finding of findings) {
    const offset = offsetOf(parsed.text, finding.location.line ?? 1, finding.location.column ?? 1);
    const result = editFor(parsed, offset, finding, addresses, todo);
    if (!result) continue;
    fix.edits.push(...result.edits);
    fix.notes.push(...result.notes.map((note) => `line ${finding.location.line}: ${note}`));
    if (result.failed && finding.severity === 'error') fix.left.push({ finding, why: result.failed });
    else if (result.failed)
      fix.notes.push(`line ${finding.location.line}: ${finding.rule} ${finding.message}: ${result.failed}`);
  }
  keepCreationUuid(parsed, findings, fix);
  return fix;
}

const PARAMETER_ID = 'the lookup takes an id whose source is not in this file';

/**
 * A lookup whose id is a parameter: the id comes from the creation answer, kept by the code that
 * created the order (`providerId: order.id`). Where the file reads the payment link from an answer
 * (`order.links.checkoutLink`), that function's reads of the answer's id keep its uuid instead, and
 * the lookup counts as fixed.
 */
function keepCreationUuid(parsed: ParsedFile, findings: Finding[], fix: FileFix): void {
  const waiting = fix.left.filter(
    (entry) => entry.finding.rule === 'PO106' && entry.why.startsWith(PARAMETER_ID),
  );
  if (waiting.length === 0) return;
  const edits: TextEdit[] = [];
  for (const link of findings.filter((finding) => finding.rule === 'PO105')) {
    const offset = offsetOf(parsed.text, link.location.line ?? 1, link.location.column ?? 1);
    const line = lineAround(parsed.text, offset);
    const root = /([$\w]+)\s*(?:\.|->|\[\s*['":]?)\s*links\b/.exec(
      parsed.text.slice(line.start, offset),
    )?.[1];
    if (!root) continue;
    const scope = [...ancestry(parsed.nodeAt(offset))].find((node) => STOP.test(node.type));
    if (!scope) continue;
    const escaped = root.replace(/[$]/g, '\\$');
    const read = new RegExp(`(?<![\\w$])${escaped}\\s*(?:\\.|->|\\[\\s*['":]?)\\s*(id)\\b(?![\\w(])`, 'g');
    const text = parsed.text.slice(parsed.start(scope), parsed.end(scope));
    for (let match = read.exec(text); match; match = read.exec(text)) {
      const start = parsed.start(scope) + match.index + match[0].length - 2;
      if (parsed.isCode(start))
        edits.push({
          start,
          end: start + 2,
          text: 'uuid',
          label: `${root}'s uuid is kept instead of its v1 id, for the lookup`,
        });
    }
  }
  if (edits.length === 0) return;
  fix.edits.push(...edits);
  for (const entry of waiting) {
    fix.left.splice(fix.left.indexOf(entry), 1);
    const offset = offsetOf(
      parsed.text,
      entry.finding.location.line ?? 1,
      entry.finding.location.column ?? 1,
    );
    const path = renameEdit(parsed.text, offset, entry.finding, LOOKUP_PATH, 'orders', parsed.isCode);
    fix.edits.push(...path.edits);
    fix.notes.push(
      `line ${entry.finding.location.line}: the lookup now takes what the creation keeps, the order's uuid: check that its callers pass that value`,
    );
  }
}

function editFor(
  parsed: ParsedFile,
  offset: number,
  finding: Finding,
  addresses: V2Addresses,
  todo: TodoLine,
): RenameResult | undefined {
  switch (finding.rule) {
    case 'PO101':
      return prefixEdit(parsed.text, offset, finding, addresses, parsed.isCode, todo);
    case 'PO102':
      return renameEdit(parsed.text, offset, finding, USER_NAME, 'username', parsed.isCode);
    case 'PO103':
      return removeUserName(parsed, offset, finding);
    case 'PO104':
      return centsEdit(parsed, offset, finding);
    case 'PO105':
      return renameEdit(parsed.text, offset, finding, CHECKOUT_LINK, 'checkout_link', parsed.isCode);
    case 'PO106':
      return uuidEdits(parsed, offset, finding);
    case 'PO107':
      return refundedEdit(parsed, offset, finding, todo);
    default:
      return finding.severity === 'error'
        ? { edits: [], notes: [], failed: 'the codemod has no edit for this rule' }
        : undefined;
  }
}

export type { LanguageId };
