/**
 * The output formats, and how a value becomes one cell or line of them. Plain data: the choice of
 * a format is made in output/render.ts. The formats' names are below every layer (src/formats.ts).
 */
import type { OutputFormat } from '../formats.js';

export { OUTPUT_FORMATS, type OutputFormat } from '../formats.js';

/** What the output flags asked for, parsed: every data command shares them. */
export interface OutputOptions {
  /** -o/--output, or json for --json; undefined leaves the choice to render.ts's rule. */
  format?: OutputFormat;
  /** --field: print only this path of each order. */
  field?: string;
  /** --raw: the service's body verbatim. */
  raw: boolean;
  /** False with --no-headers. */
  headers: boolean;
}

/** The value at a dotted path ("links.checkout"); undefined when any step is missing. */
export function valueAt(record: unknown, path: string): unknown {
  let value: unknown = record;
  for (const step of path.split('.')) {
    if (typeof value !== 'object' || value === null || !(step in value)) return undefined;
    value = (value as Record<string, unknown>)[step];
  }
  return value;
}

/** A value as one line of text: strings as they are, null/undefined empty, others as JSON. */
export function plain(value: unknown): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** A TSV cell: tabs and newlines would break the columns, so they become spaces. */
export const tsvCell = (value: unknown) => plain(value).replace(/[\t\r\n]+/g, ' ');
