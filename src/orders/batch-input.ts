/**
 * Reads a batch file, NDJSON or CSV with a header row (told apart by the first non-blank character),
 * as a stream of numbered lines in constant memory. What is wrong with the file as a whole (its
 * header, its encoding, a line longer than MAX_LINE_BYTES, a read error) is a usage error thrown
 * before the next line; what is wrong with one line is that line's `problem`, and the others go on.
 * Numbers stay the digits written: nothing here turns "19.99" into a floating-point number.
 * The lines come from input-lines.ts; CSV records and the header check from csv-input.ts.
 */
import type { Readable } from 'node:stream';
import { type CsvRecord, csvRecords, didYouMean, headerColumns } from './csv-input.js';
import { fieldNamed, type OrderFields } from './draft.js';
import { inputError, isBlank, readLines, type TextLine } from './input-lines.js';

export { MAX_LINE_BYTES, readLines, type TextLine } from './input-lines.js';

/**
 * A line of the input: its fields, or why it could not be read as an order (with what could be
 * read of it). `line` is 1-based (for CSV, the line the record starts on).
 */
export type InputLine =
  | { line: number; fields: OrderFields; problem?: undefined }
  | { line: number; fields?: OrderFields; problem: string };

export type BatchFormat = 'ndjson' | 'csv' | 'empty';

/** A batch file whose format, and for CSV whose header, has been read and checked. */
export interface Batch {
  /** 'empty' when the file has no line but blank ones. */
  format: BatchFormat;
  /** CSV: the field each column holds, in order. */
  columns?: (keyof OrderFields)[];
  /** The lines after the header, in input order. */
  lines: AsyncGenerator<InputLine>;
}

const NOT_UTF8 = 'not valid UTF-8 (save the file as UTF-8)';

/**
 * Reads the input up to its first line of orders: the format, and for CSV the header, which is
 * checked here (unknown, nameless or repeated columns, no header, another separator), so a file
 * that cannot be right is refused before any line of it is processed.
 */
export async function openBatch(stream: Readable, label: string): Promise<Batch> {
  const lines = readLines(stream, label);
  try {
    let first = await lines.next();
    while (!first.done && isBlank(first.value.text)) first = await lines.next();
    if (first.done) return { format: 'empty', lines: (async function* () {})() };
    const head = first.value;
    const rest = (async function* () {
      yield head;
      yield* lines;
    })();
    const start = head.text.trimStart()[0];
    if (start === '{') return { format: 'ndjson', lines: ndjsonLines(rest) };
    if (start === '[')
      throw inputError(`${label} starts with "[": give one JSON object per line (NDJSON), not a JSON array`);
    const records = csvRecords(rest, label);
    const header = await records.next();
    const columns = headerColumns(header.value as CsvRecord, label);
    return { format: 'csv', columns, lines: csvLines(columns, records) };
  } catch (error) {
    // Refused before any line: close the file now rather than when the stream is collected.
    await lines.return(undefined);
    throw error;
  }
}

/**
 * Yields each line of the input as fields, or as a problem; blank lines are skipped. What openBatch
 * refuses is thrown by the first `next()`, before any line.
 */
export async function* readBatch(stream: Readable, label: string): AsyncGenerator<InputLine> {
  yield* (await openBatch(stream, label)).lines;
}

async function* csvLines(
  columns: (keyof OrderFields)[],
  records: AsyncIterable<CsvRecord>,
): AsyncGenerator<InputLine> {
  for await (const { line, values, valid, problem } of records) {
    if (!valid) yield { line, problem: NOT_UTF8 };
    else if (problem) yield { line, problem: `not valid CSV: ${problem}` };
    else if (values.length !== columns.length)
      yield { line, problem: `has ${values.length} columns, the header has ${columns.length}` };
    else {
      const fields: OrderFields = {};
      values.forEach((value, i) => {
        const column = columns[i];
        if (column && value !== '') fields[column] = value;
      });
      yield { line, fields };
    }
  }
}

// ── NDJSON ──────────────────────────────────────────────────────────────────────────────────────

async function* ndjsonLines(lines: AsyncIterable<TextLine>): AsyncGenerator<InputLine> {
  for await (const line of lines) if (!isBlank(line.text)) yield ndjsonLine(line);
}

function ndjsonLine({ line, text, valid }: TextLine): InputLine {
  if (!valid) return { line, problem: NOT_UTF8 };
  let value: unknown;
  try {
    value = parseJsonAsWritten(text);
  } catch (error) {
    return { line, problem: error instanceof SyntaxError ? 'not valid JSON' : (error as Error).message };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { line, problem: 'must be a JSON object' };
  const fields = objectFields(value as Record<string, unknown>, text);
  return typeof fields === 'string' ? { line, problem: fields } : { line, fields };
}

/**
 * JSON.parse keeping every number as the text written: 19.999999999999999 stays that (and is then
 * refused for its decimals) where a double would make it 20. The contract's parseJsonExact does
 * the same for the service's `amount` only; a batch line has amount_cents, keys in any case, and
 * numbers in its text fields too.
 */
function parseJsonAsWritten(text: string): unknown {
  const value: unknown = JSON.parse(text);
  // The reviver triples the time of a parse: only a line with a number needs it.
  const numbers =
    typeof value === 'object' && value !== null && Object.values(value).some((v) => typeof v === 'number');
  if (!numbers) return value;
  return JSON.parse(text, (_key, parsed, context?: { source?: string }) => {
    if (typeof parsed !== 'number') return parsed;
    // Node.js below 21 gives no source text: refuse rather than guess the digits.
    if (context?.source === undefined)
      throw new Error('numbers must be written as strings here ("amount": "19.99")');
    return context.source;
  });
}

/**
 * The fields of one NDJSON object. An unknown key is a problem of that line, not of the file:
 * NDJSON has no header, so each line says its own keys, and a typo on one ("ammount") must not let
 * that line be sent without the value the person meant, nor stop the lines that are right.
 */
function objectFields(record: Record<string, unknown>, text: string): OrderFields | string {
  const fields: OrderFields = {};
  const keyOf: Partial<Record<keyof OrderFields, string>> = {};
  for (const [key, value] of Object.entries(record)) {
    const name = fieldNamed(key);
    if (name === undefined) return `unknown key "${key}"${didYouMean(key)}`;
    if (typeof value === 'object' && value !== null) return `${key} must be a string`;
    if (keyOf[name] !== undefined) return `keys "${keyOf[name]}" and "${key}" are the same field (${name})`;
    keyOf[name] = key;
    if (value !== null && value !== '') fields[name] = String(value);
  }
  const twice = repeatedKey(text, Object.keys(record).length);
  return twice === undefined ? fields : `key "${twice}" is given twice`;
}

/** A key the text gives more than once, which JSON.parse drops silently but for the last. */
function repeatedKey(text: string, keys: number): string | undefined {
  // Every string of the line in turn (nothing between them has a quote); the object is flat, as
  // objectFields made sure, so a string followed by ":" is one of its keys.
  const written = (text.match(/"[^"\\]*(?:\\.[^"\\]*)*"(?:\s*:)?/g) ?? []).filter((t) => t.endsWith(':'));
  if (written.length === keys) return undefined;
  const names = written.map((token) => JSON.parse(token.slice(0, token.lastIndexOf('"') + 1)) as string);
  return names.find((key, i) => names.indexOf(key) !== i);
}
