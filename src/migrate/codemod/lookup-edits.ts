import type { Finding } from '../rules.js';
import { type FileFix, lineAround, offsetOf, type TextEdit } from './edits.js';
import { type CallersPassUuid, idParameter, UUID_VALUE } from './lookup-callers.js';
import { STOP } from './node-kinds.js';
import { LOOKUP_PATH, type RenameResult, renameEdit } from './renames.js';
import { ancestry, type ParsedFile } from './tree.js';

/** Reads of an order's v1 id: order.id, order['id'], $order['id'], order[:id], jq's .id. */
const ID_READ =
  /(?<=\.|->)id\b(?![\w(])|(?<=\[\s*["':]?)id(?=["']?\s*\])|(?<=['"]\.)id(?=['"])|(?<=[(,]\s*["':])id(?=["']?\s*\))/;

/** Where the reads of the id are between `from` and `to` (all of them: `id.substring(id.lastIndexOf('/'))`). */
function idReads(parsed: ParsedFile, from: number, to: number): number[] {
  const search = new RegExp(ID_READ.source, 'g');
  const text = parsed.text.slice(from, to);
  const found: number[] = [];
  for (let match = search.exec(text); match; match = search.exec(text))
    if (parsed.isCode(from + match.index)) found.push(from + match.index);
  return found;
}

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
  const lookup = lineAround(parsed.text, offset);
  const after = parsed.text.slice(pathEdit.end, lookup.end);
  const idEdits: TextEdit[] = idReads(parsed, pathEdit.end, lookup.end).map((start) => ({
    start,
    end: start + 2,
    text: 'uuid',
    label: 'the lookup uses the order uuid',
    finding,
  }));
  if (idEdits.length === 0) {
    // The path takes a variable: where it is set from the creation answer's id, keep the uuid instead.
    const name =
      /^\s*(?:['"]?\s*(?:\.|\+)?\s*)?(?:\$\{?|\{|#\{)?\s*(?:encodeURIComponent\()?([A-Za-z_]\w*)/.exec(
        after.replace(/^\/?['"`]?\s*(?:\.|\+)?\s*/, ''),
      )?.[1];
    const assignment = name
      ? new RegExp(`(?:^|[\\s;(])\\$?${name}\\s*(?::=|=(?!=))[^\\n]*`, 'gm')
      : undefined;
    for (let match = assignment?.exec(parsed.text); name && match; match = assignment?.exec(parsed.text)) {
      const start = match.index + match[0].indexOf(name);
      if (!parsed.isCode(start)) continue;
      for (const read of idReads(parsed, start + name.length, lineAround(parsed.text, start).end))
        idEdits.push({
          start: read,
          end: read + 2,
          text: 'uuid',
          label: `${name} keeps the order uuid`,
          finding,
        });
    }
  }
  if (idEdits.length === 0) {
    // The value given is the uuid already (v1 takes it too), by its name or through every caller.
    const value = parsed.text.slice(pathEdit.end, lookup.end);
    const code = (pattern: RegExp) => {
      const found = new RegExp(pattern.source, 'gi');
      for (let match = found.exec(value); match; match = found.exec(value))
        if (parsed.isCode(pathEdit.end + match.index)) return true;
      return false;
    };
    if (code(UUID_VALUE)) return path;
    const parameter = idParameter(parsed, offset, value);
    const passed = parameter ? callers(parameter) : 'other';
    if (parameter && passed === 'uuid')
      return {
        edits: path.edits,
        notes: [`the lookup's id is what every call of ${parameter.name} passes, the order's uuid`],
      };
    if (parameter && passed === 'uncalled')
      return {
        edits: [],
        notes: [],
        failed: `${PARAMETER_ID}: ${parameter.name} is called from outside this unit, which cannot tell what its callers keep: TODO make them pass the order uuid (the creation answer's uuid)`,
      };
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
    const line = lineAround(parsed.text, offset);
    // order.links, order['links'], $order->links, body.dig("links", …).
    const root = /([$\w]+)\s*(?:\.|->|\[\s*['":]?|\.dig\(\s*['":]?)\s*links\b/.exec(
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
    const path = renameEdit(parsed.tokenMatch, offset, entry.finding, LOOKUP_PATH, 'orders');
    fix.edits.push(...path.edits);
    fix.notes.push(
      `line ${entry.finding.location.line}: the lookup now takes what the creation keeps, the order's uuid: check that its callers pass that value`,
    );
  }
}
