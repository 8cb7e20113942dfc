/**
 * Lowers string literals of every grammar into `str` nodes: their text pieces at exact offsets and
 * their interpolations (templates, f-strings, "#{…}", "$name", shell expansions, here-documents).
 */
import type { Node as SyntaxNode } from 'web-tree-sitter';
import type * as A from './ast.js';
import type { Lowerer } from './lowerer.js';

type S = SyntaxNode;

const span = (n: S) => ({ start: n.startIndex, end: n.endIndex });

export const STRING_NODES = new Set([
  'string',
  'template_string',
  'encapsed_string',
  'heredoc',
  'nowdoc',
  'string_literal',
  'verbatim_string_literal',
  'interpolated_string_expression',
  'raw_string_literal',
  'interpreted_string_literal',
  'raw_string',
  'ansi_c_string',
  'multiline_string_literal',
  'delimited_symbol',
  'heredoc_body',
]);
const STRING_TEXT = new Set([
  'string_fragment',
  'string_content',
  'escape_sequence',
  'string_literal_content',
  'interpreted_string_literal_content',
  'raw_string_literal_content',
  'raw_string_content',
  'multiline_string_fragment',
  'heredoc_content',
  'nowdoc_string',
  'string_value',
]);
const STRING_DELIMITERS = new Set([
  'string_start',
  'string_end',
  'interpolation_start',
  'interpolation_brace',
  'heredoc_start',
  'heredoc_end',
  'raw_string_start',
  'raw_string_end',
  'format_specifier',
  'type_conversion',
  'interpolation_alignment_clause',
  'interpolation_format_clause',
]);
const STRING_CONTAINERS = new Set(['heredoc_body', 'nowdoc_body']);

/** A string made of one piece of literal text (symbols, shell words). */
export function textString(n: S, text: string, start: number): A.Str {
  return { k: 'str', ...span(n), parts: [{ text, start }], raw: n.text };
}

export function lowerString(l: Lowerer, n: S): A.Str {
  const parts: A.Part[] = [];
  if (n.type === 'heredoc_body') {
    // A shell here-document: its text is what lies between the expansions.
    let at = n.startIndex;
    const text = n.text;
    for (const child of n.namedChildren) {
      if (child.startIndex > at)
        parts.push({ text: text.slice(at - n.startIndex, child.startIndex - n.startIndex), start: at });
      if (child.type !== 'heredoc_content') {
        const expr = l.expr(child);
        if (expr) parts.push({ expr });
      } else parts.push({ text: child.text, start: child.startIndex });
      at = child.endIndex;
    }
    if (at < n.endIndex) parts.push({ text: text.slice(at - n.startIndex), start: at });
    return { k: 'str', ...span(n), parts: mergeText(parts), raw: text };
  }
  const collect = (node: S) => {
    for (const child of node.children) {
      if (STRING_TEXT.has(child.type)) parts.push({ text: child.text, start: child.startIndex });
      else if (STRING_CONTAINERS.has(child.type)) collect(child);
      else if (!child.isNamed || STRING_DELIMITERS.has(child.type) || child.type.includes('comment'))
        continue;
      else if (child.type === 'interpolation' || child.type === 'template_substitution') {
        for (const inner of child.namedChildren) {
          if (STRING_DELIMITERS.has(inner.type)) continue;
          const expr = l.expr(inner);
          if (expr) parts.push({ expr });
        }
      } else {
        const expr = l.expr(child);
        if (expr) parts.push({ expr });
      }
    }
  };
  collect(n);
  const raw = n.text;
  if (parts.length === 0 && n.namedChildCount === 0) {
    // A literal without content nodes ('…' in shell, @"…" in C#): the text between its quotes.
    const open = raw.search(/["'`]/);
    const close = Math.max(raw.lastIndexOf('"'), raw.lastIndexOf("'"), raw.lastIndexOf('`'));
    if (open >= 0 && close > open)
      parts.push({ text: raw.slice(open + 1, close), start: n.startIndex + open + 1 });
  }
  return { k: 'str', ...span(n), parts: splitDollarNames(l, mergeText(parts)), raw };
}

/** Kotlin's `"$name/path"` keeps `$name` inside the string's text: make it a name. */
function splitDollarNames(l: Lowerer, parts: A.Part[]): A.Part[] {
  if (l.language !== 'kotlin') return parts;
  return parts.flatMap((part): A.Part[] => {
    if ('expr' in part || !part.text.includes('$')) return [part];
    const split: A.Part[] = [];
    let last = 0;
    for (const match of part.text.matchAll(/\$([A-Za-z_]\w*)/g)) {
      if (match.index > last)
        split.push({ text: part.text.slice(last, match.index), start: part.start + last });
      const start = part.start + match.index + 1;
      const [, name = ''] = match;
      split.push({ expr: { k: 'id', name, start, end: start + name.length } });
      last = match.index + match[0].length;
    }
    if (last < part.text.length) split.push({ text: part.text.slice(last), start: part.start + last });
    return split;
  });
}

/** Joins text parts that touch (content and escape sequences come as separate nodes). */
export function mergeText(parts: A.Part[]): A.Part[] {
  const merged: A.Part[] = [];
  for (const part of parts) {
    const last = merged.at(-1);
    if (last && 'text' in last && 'text' in part && last.start + last.text.length === part.start)
      merged[merged.length - 1] = { text: last.text + part.text, start: last.start };
    else merged.push(part);
  }
  return merged;
}
