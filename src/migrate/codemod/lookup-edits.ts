/**
 * PO106: the v1 lookup `/order/:id` becomes `/orders/:uuid`. The path is renamed in the string that
 * holds it; the id is what the tree puts after it: the string's next interpolation, the operand
 * joined after it, or the format call's argument for its placeholder. That value must be the order's
 * uuid by where it comes from (origins.ts): a read of the v1 id is renamed to read the uuid.
 */

import type { Finding } from '../rules.js';
import * as A from '../syntax/ast.js';
import { type FileFix, offsetOf, type TextEdit } from './edits.js';
import { type CallersPassUuid, originOf } from './origins.js';
import { LOOKUP_PATH, type RenameResult, renameEdit } from './renames.js';
import type { ParsedFile } from './tree.js';

/** A placeholder of a format string: `%s`, `%d`, `%v`, `{}`, `{0}`, `{id}`. */
const PLACEHOLDER = /%[-+ #0]*\d*(?:\.\d+)?[sdvqxf]|\{(\d*)(?::[^{}]*)?\}|\{\w+\}/g;
/** A placeholder right after the lookup's path, its index (`{1}`) in group 2. */
const PLACEHOLDER_AFTER_PATH = new RegExp(`^/(${PLACEHOLDER.source})`);

/** The value at a placeholder: the call's argument after the format, `.format(…)`'s, or `%`'s right side. */
function formatArgument(parsed: ParsedFile, format: A.Str, index: number): A.Expr | undefined {
  for (const node of parsed.nodes) {
    if (node.k === 'call') {
      const at = node.args.indexOf(format);
      if (at >= 0) return node.args[at + 1 + index];
      if (node.callee?.k === 'member' && node.callee.object === format) return node.args[index];
    }
    if (node.k === 'bin' && node.op === 'format' && node.left === format) {
      const { right } = node;
      if (right.k === 'other') return right.items[index] as A.Expr | undefined;
      return index === 0 ? right : undefined;
    }
  }
  return undefined;
}

/**
 * The operand joined right after `left` (`base + '/1/order/' + id`, `$base . '/1/order/' . $id`), or
 * the item after it in a list joined with slashes (`[base, 'order', id].join('/')`).
 */
function joinedAfter(parsed: ParsedFile, left: A.Expr): A.Expr | undefined {
  for (const node of parsed.nodes) {
    if (
      node.k === 'bin' &&
      node.op === 'concat' &&
      node.left.end === left.end &&
      node.left.start <= left.start
    )
      return node.right;
    const at = node.k === 'other' ? node.items.indexOf(left) : -1;
    if (node.k === 'other' && at >= 0) return node.items[at + 1] as A.Expr | undefined;
  }
  return undefined;
}

/** The expression that gives the lookup its id, after the path that ends at `pathEnd`. */
function lookupId(parsed: ParsedFile, pathEnd: number): A.Expr | undefined {
  let holder: { str: A.Str; index: number } | undefined;
  for (const node of parsed.nodes) {
    if (node.k !== 'str') continue;
    const index = node.parts.findIndex(
      (part) => 'text' in part && part.start <= pathEnd && pathEnd <= part.start + part.text.length,
    );
    if (index >= 0 && (!holder || node.end - node.start < holder.str.end - holder.str.start))
      holder = { str: node, index };
  }
  if (!holder) return undefined;
  const { str, index } = holder;
  const part = str.parts[index] as { text: string; start: number };
  const rest = part.text.slice(pathEnd - part.start);
  if (/^\/?$/.test(rest)) {
    const next = str.parts[index + 1];
    if (next && 'expr' in next) return next.expr;
    return next ? undefined : joinedAfter(parsed, str);
  }
  const placeholder = PLACEHOLDER_AFTER_PATH.exec(rest);
  if (!placeholder) return undefined;
  if (placeholder[2]) return formatArgument(parsed, str, Number(placeholder[2]));
  const before = str.raw.slice(0, pathEnd - str.start);
  return formatArgument(parsed, str, before.match(PLACEHOLDER)?.length ?? 0);
}

/** Said of a lookup whose id is a parameter the unit cannot follow (keepCreationUuid takes these up). */
const PARAMETER_ID = 'the lookup takes an id whose source is not in this file';

export function uuidEdits(
  parsed: ParsedFile,
  offset: number,
  finding: Finding,
  callers: CallersPassUuid = () => 'other',
): RenameResult {
  const path = renameEdit(parsed.tokenMatch, offset, finding, LOOKUP_PATH, 'orders');
  const pathEdit = path.edits[0];
  if (path.failed || !pathEdit) return path;
  const id = lookupId(parsed, pathEdit.end);
  const origin = id ? originOf(parsed, id) : undefined;
  if (origin?.kind === 'uuid') return path;
  if (origin?.kind === 'id') {
    const edits: TextEdit[] = origin.reads.map((read) => ({
      ...read,
      text: 'uuid',
      label: 'the lookup uses the order uuid',
      finding,
    }));
    return { edits: [...path.edits, ...edits], notes: [] };
  }
  if (origin?.kind === 'parameter') {
    const { parameter } = origin;
    const passed = callers(parameter);
    if (passed === 'uuid')
      return {
        edits: path.edits,
        notes: [`the lookup's id is what every call of ${parameter.name} passes, the order's uuid`],
      };
    if (passed === 'uncalled')
      return {
        edits: [],
        notes: [],
        failed: `${PARAMETER_ID}: ${parameter.name} is called from outside this unit, which cannot tell what its callers keep: TODO make them pass the order uuid (the creation answer's uuid)`,
      };
  }
  return {
    edits: [],
    notes: [],
    failed: `${PARAMETER_ID}: pass the order uuid (creation answer uuid) instead`,
  };
}

/** The variable a read of the payment link starts from: `order` of order.links.checkoutLink or body.dig("links", …). */
function linkRoot(parsed: ParsedFile, offset: number): A.Name | undefined {
  let found: A.Name | undefined;
  for (const node of parsed.nodes) {
    if (node.start > offset || node.end < offset) continue;
    const links =
      node.k === 'member' && node.object.k === 'member' && node.object.name === 'links'
        ? node.object.object
        : node.k === 'member' && node.name === 'links'
          ? node.object
          : node.k === 'call' && node.name === 'dig' && node.callee?.k === 'member'
            ? node.args[0]?.k === 'str' && A.literalPart(node.args[0])?.text === 'links'
              ? node.callee.object
              : undefined
            : undefined;
    if (links?.k === 'id') found = links;
  }
  return found;
}

/**
 * A lookup whose id is a parameter: the id comes from the creation answer, kept by the code that
 * created the order (`providerId: order.id`). Where the file reads the payment link from an answer
 * (`order.links.checkoutLink`), that function's reads of the answer's id keep its uuid instead, and
 * the lookup counts as fixed.
 */
export function keepCreationUuid(parsed: ParsedFile, findings: Finding[], fix: FileFix): void {
  const waiting = fix.left.filter(
    (entry) => entry.finding.rule === 'PO106' && entry.why.startsWith(PARAMETER_ID),
  );
  if (waiting.length === 0) return;
  const edits: TextEdit[] = [];
  for (const link of findings.filter((finding) => finding.rule === 'PO105')) {
    const offset = offsetOf(parsed.text, link.location.line ?? 1, link.location.column ?? 1);
    const root = linkRoot(parsed, offset);
    if (!root) continue;
    const scope = [...parsed.nodes]
      .filter((node) => node.k === 'func' && node.start <= offset && offset <= node.end)
      .at(-1);
    for (const node of A.walk(scope ? [scope] : parsed.syntax))
      if (
        node.k === 'member' &&
        node.name === 'id' &&
        node.object.k === 'id' &&
        node.object.name === root.name
      )
        edits.push({
          start: node.start,
          end: node.end,
          text: 'uuid',
          label: `${root.name}'s uuid is kept instead of its v1 id, for the lookup`,
        });
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
    const path = renameEdit(parsed.tokenMatch, offset, entry.finding, LOOKUP_PATH, 'orders');
    fix.edits.push(...path.edits);
    fix.notes.push(
      `line ${entry.finding.location.line}: the lookup now takes what the creation keeps, the order's uuid: check that its callers pass that value`,
    );
  }
}
