/**
 * The kinds of syntax nodes the codemod's edits look for, across the grammars: an entry of a list or
 * map, a statement, and where a search for them stops; and the removal of whole lines.
 */
import type { Node } from 'web-tree-sitter';
import { lineAround } from './edits.js';

export const PAIRS = new Set([
  'pair',
  'keyword_argument',
  'array_element_initializer',
  'keyed_element',
  'anonymous_object_member_declarator',
  'element_binding_expression',
]);
export const STATEMENT = /statement$|^assignment$/;

/**
 * The whole entry of a list or map that `pair` (one of PAIRS) is the key of: C#'s index initializer
 * `["userName"] = user` is an assignment whose left side is the element binding.
 */
export function entryOf(pair: Node): Node {
  const parent = pair.parent;
  return pair.type === 'element_binding_expression' && parent?.type === 'assignment_expression'
    ? parent
    : pair;
}
/** Where a search for an enclosing entry or statement stops: a function, class or block. */
export const STOP =
  /^(?:function_(?:declaration|definition|expression|item)|method_(?:declaration|definition)|arrow_function|lambda|closure|anonymous_function\w*|class_\w+|program|source_file|module|block|compound_statement|statement_block|do_block)$/;

/** The whole lines of [start, end) when nothing else stands on them, so no blank line is left. */
export function wholeLines(text: string, start: number, end: number): { start: number; end: number } {
  const first = lineAround(text, start);
  const last = lineAround(text, end);
  if (text.slice(first.start, start).trim() === '' && text.slice(end, last.end).trim() === '')
    return { start: first.start, end: Math.min(text.length, last.end + 1) };
  return { start, end };
}

export const STRING_TYPES = /string|template|heredoc|encapsed/;
