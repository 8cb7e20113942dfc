/**
 * Edits of a file's text, as the codemod plans them: each replaces one range with new text and says
 * what it does, for the report. Overlapping edits are never applied together: the first one planned wins.
 */
import type { Finding } from '../rules.js';

export interface TextEdit {
  start: number;
  end: number;
  text: string;
  /** One line for the report: "user_name → username". */
  label: string;
  /** The finding it fixes, when it fixes one (a TODO line or an added import fixes none). */
  finding?: Finding;
}

/** What the codemod makes of one file's findings. */
export interface FileFix {
  edits: TextEdit[];
  /** Findings without an edit, each with why. */
  left: Array<{ finding: Finding; why: string }>;
  /** What a person should look at in the edited file. */
  notes: string[];
}

/** The edits that can go together, in order: identical duplicates and overlaps are left out. */
export function compatible(edits: TextEdit[]): TextEdit[] {
  const kept: TextEdit[] = [];
  for (const edit of edits) {
    const clash = kept.some((other) =>
      other.start === edit.start && other.end === edit.end
        ? true
        : edit.start < other.end && other.start < edit.end,
    );
    if (!clash) kept.push(edit);
  }
  return kept.sort((a, b) => a.start - b.start || a.end - b.end);
}

/** The text with the edits applied (they must not overlap). */
export function applyEdits(text: string, edits: TextEdit[]): string {
  let out = '';
  let at = 0;
  for (const edit of [...edits].sort((a, b) => a.start - b.start || a.end - b.end)) {
    out += text.slice(at, edit.start) + edit.text;
    at = edit.end;
  }
  return out + text.slice(at);
}

/** The offset of a finding's line and column (both 1-based) in `text`. */
export function offsetOf(text: string, line: number, column = 1): number {
  let at = 0;
  for (let current = 1; current < line; current++) {
    const next = text.indexOf('\n', at);
    if (next < 0) return text.length;
    at = next + 1;
  }
  return Math.min(at + column - 1, text.length);
}

/** Where the line holding `offset` starts and ends (without its newline). */
export function lineAround(text: string, offset: number): { start: number; end: number } {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  const newline = text.indexOf('\n', offset);
  return { start, end: newline < 0 ? text.length : newline };
}

/** Where a pattern was found in a file's text. */
export interface Found {
  start: number;
  end: number;
  match: RegExpExecArray;
}

/**
 * Where a name or prefix is, near a finding's offset: in a token of the syntax tree, or on the text
 * of the line in a file without one. A finding's column points at the name or prefix it is about.
 */
export type FindNear = (offset: number, pattern: RegExp) => Found | undefined;

/**
 * The occurrence of `pattern` on the line of `offset` that starts at it, or else the nearest one,
 * among those `accept` takes: one token of the syntax tree (tree.ts), or, in a file without a tree
 * (Perl, configuration formats), what is not a comment on the line.
 */
export function nearestMatch(
  text: string,
  offset: number,
  pattern: RegExp,
  accept: (start: number, end: number) => boolean = () => true,
): Found | undefined {
  const line = lineAround(text, offset);
  const flags = pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`;
  const search = new RegExp(pattern.source, flags);
  const slice = text.slice(line.start, line.end);
  let best: Found | undefined;
  for (let match = search.exec(slice); match; match = search.exec(slice)) {
    if (match[0].length === 0) search.lastIndex++;
    const start = line.start + match.index;
    if (!accept(start, start + match[0].length)) continue;
    const candidate = { start, end: start + match[0].length, match };
    if (!best || Math.abs(start - offset) < Math.abs(best.start - offset)) best = candidate;
  }
  return best;
}
