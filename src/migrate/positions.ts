/**
 * Offsets in a file's text as line and column (both from 1, columns in UTF-16 code units as SARIF
 * counts them by default): one pass to find where lines start, then a binary search per offset.
 */

export interface Position {
  line: number;
  column: number;
}

/** The offsets where the lines of `text` start. */
export function lineStarts(text: string): number[] {
  const starts = [0];
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) starts.push(at + 1);
  return starts;
}

/** The index of the last of the ascending `starts` at or before `offset` (0 when none is). */
export function indexAt(starts: readonly number[], offset: number): number {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if ((starts[middle] ?? Number.POSITIVE_INFINITY) <= offset) low = middle;
    else high = middle - 1;
  }
  return low;
}

/** A function from an offset in `text` to its line and column. */
export function positionsIn(text: string): (offset: number) => Position {
  const starts = lineStarts(text);
  return (offset) => {
    const line = indexAt(starts, offset);
    return { line: line + 1, column: offset - (starts[line] ?? 0) + 1 };
  };
}
