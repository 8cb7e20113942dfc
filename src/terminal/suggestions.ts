/**
 * Typo suggestions: the closest of the known words to what was typed, when it is close enough to be
 * a typo ("did you mean …?").
 */

/**
 * The closest candidate by edit distance, when it is close enough to be a typo: at most a third of
 * the word's length in edits (at least one), so a short word is not "corrected" into another word.
 */
export function nearest(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Math.max(1, Math.floor(word.length / 3)) + 1;
  for (const candidate of candidates) {
    const distance = editDistance(word, candidate);
    if (distance < bestDistance) [best, bestDistance] = [candidate, distance];
  }
  return best;
}

/** Levenshtein's distance, a row of the table at a time: row[j] is the distance from a's first i characters to b's first j. */
function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  let distance = b.length;
  for (let i = 1; i <= a.length; i++) {
    // The cells left of and diagonally above the one computed.
    let left = i;
    let diagonal = i - 1;
    const next = [left];
    for (const [j, above] of row.slice(1).entries()) {
      left = Math.min(above + 1, left + 1, diagonal + (a[i - 1] === b[j] ? 0 : 1));
      diagonal = above;
      next.push(left);
    }
    row = next;
    distance = left;
  }
  return distance;
}
