/**
 * Offsets in a file's text as line and column (both from 1, columns in UTF-16 code units as SARIF
 * counts them by default): one pass to find where lines start, then a binary search per offset.
 */

export interface Position {
  line: number;
  column: number;
}

/** A function from an offset in `text` to its line and column. */
export function positionsIn(text: string): (offset: number) => Position {
  const starts = [0];
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) starts.push(at + 1);
  return (offset) => {
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (starts[middle]! <= offset) low = middle;
      else high = middle - 1;
    }
    return { line: low + 1, column: offset - starts[low]! + 1 };
  };
}
