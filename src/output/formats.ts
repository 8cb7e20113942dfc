/**
 * Output formats and how one is chosen: -o/--output, else --json, else a table when a person is
 * looking at stdout and JSON when it is piped (or the stored default-output).
 */
import type { Context } from '../context.js';
import { usageError } from '../errors.js';

export const OUTPUT_FORMATS = ['table', 'json', 'ndjson', 'tsv'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** The output flags every data command shares. */
export interface OutputFlags {
  output?: string;
  json?: boolean;
  field?: string;
  raw?: boolean;
  headers?: boolean;
}

export function chooseFormat(ctx: Context, flags: OutputFlags, storedDefault?: OutputFormat): OutputFormat {
  if (flags.output !== undefined) {
    const format = flags.output.toLowerCase();
    if (!(OUTPUT_FORMATS as readonly string[]).includes(format)) {
      throw usageError(
        `--output: unknown format "${flags.output}"; choose one of ${OUTPUT_FORMATS.join(', ')}`,
        { field: '--output' },
      );
    }
    return format as OutputFormat;
  }
  if (flags.json) return 'json';
  if (!ctx.io.stdoutIsTTY) return storedDefault && storedDefault !== 'table' ? storedDefault : 'json';
  return storedDefault ?? 'table';
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
