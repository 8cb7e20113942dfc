/**
 * How wide text is on a terminal, and how to make it fit: the width a terminal gives a string (wide
 * East Asian characters and emoji take two columns, color codes none), text cut to a width with
 * `…`, and text wrapped at word boundaries. Cuts fall between graphemes, so a character is never
 * split in half.
 */
import stringWidth from 'string-width';
import type { Context } from '../context.js';

export const ELLIPSIS = '…';

/** The columns `text` takes on a terminal (its color codes take none). */
export const textWidth = (text: string): number => stringWidth(text);

/**
 * The grapheme segmenter, made on first use: making one loads ICU's segmentation data, 20–40 ms
 * that a command which cuts no text (every JSON output) must not pay at start-up.
 */
let segmenter: Intl.Segmenter | undefined;
const graphemes = (text: string) => {
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  return segmenter.segment(text);
};

/** `text` cut to at most `width` columns, ending in `…` when it was cut. Plain text only (no colors). */
export function truncateText(text: string, width: number): string {
  if (textWidth(text) <= width) return text;
  if (width <= 0) return '';
  let kept = '';
  let used = 0;
  for (const { segment } of graphemes(text)) {
    const size = textWidth(segment);
    if (used + size > width - 1) break;
    kept += segment;
    used += size;
  }
  return kept + ELLIPSIS;
}

/** `text` padded with spaces to `width` columns, at the end (or the start, for numbers). */
export function padText(text: string, width: number, align: 'left' | 'right' = 'left'): string {
  const room = ' '.repeat(Math.max(0, width - textWidth(text)));
  return align === 'right' ? room + text : text + room;
}

/**
 * `text` in lines of at most `width` columns, broken at spaces; a word wider than a line is broken
 * where the line ends. A `width` of 0 or less means no limit.
 */
export function wrapText(text: string, width: number): string[] {
  if (width <= 0 || textWidth(text) <= width) return [text];
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/ +/)) {
    const joined = line === '' ? word : `${line} ${word}`;
    if (textWidth(joined) <= width) {
      line = joined;
      continue;
    }
    if (line !== '') lines.push(line);
    line = '';
    for (const { segment } of graphemes(word)) {
      if (textWidth(line + segment) > width) {
        lines.push(line);
        line = '';
      }
      line += segment;
    }
  }
  if (line !== '') lines.push(line);
  return lines;
}

/**
 * How many columns stdout's text for people may take: the terminal's width, or COLUMNS, or 80 when
 * a terminal does not say; 0 (no limit) when stdout is not a terminal, as with `-o table | less`.
 */
export function stdoutWidth(ctx: Context): number {
  if (!ctx.io.stdoutIsTTY) return 0;
  if (ctx.io.stdoutColumns > 0) return ctx.io.stdoutColumns;
  const columns = Number(ctx.env.COLUMNS);
  return Number.isInteger(columns) && columns > 0 ? columns : 80;
}
