/**
 * Tables for people, as gh draws them: no borders, columns two spaces apart, a header row, and
 * every line within the terminal's width. When the columns do not fit, the least important give
 * way first: a column that may be cut is cut with `…` (down to a few columns), then columns that
 * may be left out are left out. A column that is neither (an order's uuid or status) is always
 * shown whole. Full values are for -o json, ndjson and tsv.
 */
import type { ChalkInstance } from 'chalk';
import { padText, textWidth, truncateText } from '../terminal/text-width.js';

export interface Column {
  header: string;
  /** Lower is more important; the least important column gives way first. */
  rank: number;
  /** May be cut with `…`, down to `minWidth`. */
  cut?: boolean;
  /** May be left out when the others would not fit otherwise. */
  optional?: boolean;
  align?: 'left' | 'right';
}

/** A cell's text (plain, already safe for a terminal) and how to color it once it is laid out. */
export interface Cell {
  text: string;
  color?: (text: string) => string;
}

/** A column is not cut below this many columns (`…` included): less says nothing. */
export const MIN_CUT_WIDTH = 8;
const GAP = '  ';

/**
 * The width each column gets within `width` (0: no limit), or undefined for a column left out.
 * Columns are tried with the least important optional ones left out one by one, until the rest
 * fit with their cut columns at no less than MIN_CUT_WIDTH; room left over goes to the cut
 * columns, the most important first.
 */
export function columnWidths(columns: readonly Column[], natural: readonly number[], width: number) {
  const byRank = columns
    .map((column, index) => ({ column, index, natural: natural[index] ?? 0 }))
    .sort((a, b) => a.column.rank - b.column.rank);
  const droppable = byRank.filter(({ column }) => column.optional).reverse();
  for (let dropped = 0; dropped <= droppable.length; dropped++) {
    const out = new Set(droppable.slice(0, dropped));
    const shown = byRank.filter((entry) => !out.has(entry));
    const gaps = GAP.length * (shown.length - 1);
    const least = ({ column, natural }: (typeof byRank)[number]) =>
      column.cut ? Math.min(natural, MIN_CUT_WIDTH) : natural;
    const needed = shown.reduce((sum, entry) => sum + least(entry), gaps);
    if (width > 0 && needed > width && dropped < droppable.length) continue;
    const widths: Array<number | undefined> = columns.map(() => undefined);
    let room = width > 0 ? width - needed : Number.POSITIVE_INFINITY;
    for (const entry of shown) {
      const more = Math.max(0, Math.min(room, entry.natural - least(entry)));
      widths[entry.index] = least(entry) + more;
      room -= more;
    }
    return widths;
  }
  return columns.map((_, i) => natural[i]);
}

/** The lines of a table of `rows` under `columns`, fitted to `width` (0: no limit). */
export function layoutTable(
  columns: readonly Column[],
  rows: readonly Cell[][],
  width: number,
  paint: ChalkInstance,
): string[] {
  const header = columns.map((column): Cell => ({ text: column.header, color: paint.bold }));
  const all = [header, ...rows];
  const natural = columns.map((_, i) => Math.max(...all.map((row) => textWidth(row[i]?.text ?? ''))));
  const widths = columnWidths(columns, natural, width);
  const shown = columns.flatMap((column, i) => {
    const fitted = widths[i];
    return fitted === undefined ? [] : [{ column, i, width: fitted }];
  });
  return all.map((row) => {
    const cells = shown.map(({ column, i, width: fitted }, position) => {
      const cell = row[i] ?? { text: '' };
      const text = truncateText(cell.text, fitted);
      const colored = cell.color && text !== '' ? cell.color(text) : text;
      // The last column is not padded: no line ends in spaces.
      if (position === shown.length - 1 && column.align !== 'right') return colored;
      return padText(colored, fitted, column.align);
    });
    return cells.join(GAP).trimEnd();
  });
}
