/**
 * Checks one file with its grammar: parses the ranges that matter (chunks.ts), lowers the tree,
 * runs the rules, and turns their hits into findings with exact lines, columns and suggested lines.
 */

import type { Parser } from 'web-tree-sitter';
import { indexAt, lineStarts } from '../positions.js';
import { type Finding, finding } from '../rules.js';
import { shiftOffsets } from './ast.js';
import { checkTree } from './checks.js';
import { spansToParse } from './chunks.js';
import { collectFacts, type Facts } from './facts.js';
import { parserFor } from './grammars.js';
import type { Edit, Hit } from './hits.js';
import type { LanguageId } from './languages.js';
import { lowerTree } from './lower.js';

export interface SyntaxJob {
  file: string;
  text: string;
  language: LanguageId;
  /** String constants of the files this one uses, by name. */
  constants?: Record<string, string>;
}

export async function checkWithGrammar({ file, text, language, constants }: SyntaxJob): Promise<Finding[]> {
  const spans = spansToParse(text, language);
  if (spans?.length === 0) return [];
  const first = spans?.[0]?.start ?? 0;
  const last = spans?.at(-1)?.end ?? text.length;
  const part = text.slice(first, last);
  // PHP is code only after its opening tag: a cut-out part, or a file written without one, gets one.
  const prefix =
    language === 'php' && !(spans ? part.startsWith('<?') : /<\?(?:php|=)?/.test(text)) ? '<?php ' : '';
  const input = prefix + part;
  const offset = first - prefix.length;
  const parser = await parserFor(language);
  let ranges: Range[] | undefined;
  if (spans && spans.length > 1) {
    const starts = lineStarts(input);
    ranges = spans.map((span) => range(starts, span.start - offset, span.end - offset));
    if (prefix) ranges.unshift(range(starts, 0, prefix.length));
  }
  const tree = parser.parse(input, null, ranges ? { includedRanges: ranges } : {});
  if (!tree) return [];
  try {
    const nodes = lowerTree(tree.rootNode, language);
    if (offset !== 0) shiftOffsets(nodes, offset);
    const facts = collectFacts(nodes, language);
    addConstants(facts, constants);
    return toFindings(checkTree(facts), text, file, syntaxErrors(parser, language));
  } finally {
    tree.delete();
  }
}

/** Counts a line's syntax errors on its own (ERROR nodes and MISSING tokens), with the file's grammar. */
export type ErrorCount = (line: string) => number;

export function syntaxErrors(parser: Parser, language: LanguageId): ErrorCount {
  return (line) => {
    const tree = parser.parse(language === 'php' ? `<?php ${line}` : line);
    if (!tree) return Number.POSITIVE_INFINITY;
    try {
      if (!tree.rootNode.hasError) return 0;
      let errors = 0;
      const cursor = tree.walk();
      for (let more = true; more; ) {
        if (cursor.nodeType === 'ERROR' || cursor.nodeIsMissing) errors++;
        more = cursor.gotoFirstChild() || cursor.gotoNextSibling();
        while (!more && cursor.gotoParent()) more = cursor.gotoNextSibling();
      }
      cursor.delete();
      return errors;
    } finally {
      tree.delete();
    }
  };
}

/** String constants that files used by this one define (`define('PO_API_PREFIX', '/1')`), unless it defines them too. */
function addConstants(facts: Facts, constants: Record<string, string> | undefined): void {
  for (const [name, value] of Object.entries(constants ?? {})) {
    if (facts.values.has(name)) continue;
    facts.values.set(name, [
      { k: 'str', start: -1, end: -1, raw: value, parts: [{ text: value, start: -1 }] },
    ]);
  }
}

interface Range {
  startIndex: number;
  endIndex: number;
  startPosition: { row: number; column: number };
  endPosition: { row: number; column: number };
}

/** A range of the parser's input, with the rows and columns tree-sitter wants beside the offsets. */
function range(starts: number[], start: number, end: number): Range {
  const position = (offset: number) => {
    const row = indexAt(starts, offset);
    return { row, column: offset - (starts[row] ?? 0) };
  };
  return { startIndex: start, endIndex: end, startPosition: position(start), endPosition: position(end) };
}

/** Said in the fix when the suggested line is left out. */
export const NO_REPLACEMENT = 'no replacement line offered: the suggested one would not parse';

/**
 * Findings with lines, columns and suggested lines. A suggested line is offered only when it parses
 * as well as the line it replaces, taken on its own (a line may be a fragment: a call's first line).
 */
export function toFindings(hits: Hit[], text: string, file: string, errors?: ErrorCount): Finding[] {
  const starts = lineStarts(text);
  const lineText = (line: number) =>
    text.slice(starts[line], (starts[line + 1] ?? text.length + 1) - 1).replace(/\r$/, '');
  // Every edit on a line goes into that line's one suggested replacement.
  const edits = new Map<number, Edit[]>();
  for (const { edit } of hits) {
    if (!edit) continue;
    const line = indexAt(starts, edit.start);
    if (indexAt(starts, edit.end) !== line) continue;
    edits.set(line, [...(edits.get(line) ?? []), edit]);
  }
  const replaced = new Map<number, string | undefined>();
  for (const [line, list] of edits) {
    let fixed = lineText(line);
    const lineStart = starts[line] ?? 0;
    let lastStart = Number.POSITIVE_INFINITY;
    for (const edit of [...list].sort((a, b) => b.start - a.start)) {
      if (edit.end > lastStart) continue;
      fixed = fixed.slice(0, edit.start - lineStart) + edit.text + fixed.slice(edit.end - lineStart);
      lastStart = edit.start;
    }
    // A suggested line without errors needs no comparison: the line it replaces is parsed only when it has some.
    const fixedErrors = errors?.(fixed) ?? 0;
    replaced.set(
      line,
      fixedErrors > 0 && errors && fixedErrors > errors(lineText(line)) ? undefined : fixed.trim(),
    );
  }
  return hits.map((found) => {
    const line = indexAt(starts, found.at);
    const result = finding(
      found.rule,
      { file, line: line + 1, column: found.at - (starts[line] ?? 0) + 1 },
      found.message,
      found.fix,
      found.severity,
    );
    if (!found.edit) return result;
    const edited = indexAt(starts, found.edit.start);
    const fixed = replaced.get(edited);
    if (fixed !== undefined) result.replacement = fixed;
    else if (replaced.has(edited)) result.fix = `${result.fix} (${NO_REPLACEMENT})`;
    return result;
  });
}
