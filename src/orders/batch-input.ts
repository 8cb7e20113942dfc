/**
 * Reads a batch file, NDJSON or CSV with a header row (told apart by the first non-blank character),
 * as a stream of numbered lines in constant memory. What is wrong with the file as a whole (its
 * header, its encoding, a line longer than MAX_LINE_BYTES, a read error) is a usage error thrown
 * before the next line; what is wrong with one line is that line's `problem`, and the others go on.
 * Numbers stay the digits written: nothing here turns "19.99" into a floating-point number.
 */
import { isUtf8 } from 'node:buffer';
import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { nearest } from '../cli/suggestions.js';
import { CliError, usageError } from '../errors.js';
import { FIELD_ALIASES, FIELD_NAMES, fieldNamed, type OrderFields } from './draft.js';

/**
 * The longest line read, in bytes, without its line ending; a CSV record over several lines has
 * the same limit. A longer line stops the read with a usage error: past it, nothing says where the
 * next line starts without reading on without bound (`--input /dev/zero` has no line end at all).
 */
export const MAX_LINE_BYTES = 64 * 1024;

export interface InputLine {
  /** 1-based line number in the file (for CSV, the line the record starts on). */
  line: number;
  fields?: OrderFields;
  /** Why the line could not be read as an order. */
  problem?: string;
}

/** One line of an input file, as `readLines` gives it. */
export interface TextLine {
  /** 1-based. */
  line: number;
  /** The line without its ending ("\n" or "\r\n"), nor the byte order mark of line 1. */
  text: string;
  /** False when its bytes are not UTF-8; `text` then has U+FFFD in their place. */
  valid: boolean;
}

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

export function openInput(path: string, stdin: NodeJS.ReadableStream): Readable {
  if (path === '-') return stdin as Readable;
  return createReadStream(path);
}

const NOT_UTF8 = 'not valid UTF-8 (save the file as UTF-8)';
const REQUOTE = 'quote the whole value, doubling its quotes';
const COLUMNS_HINT = `the columns are amount or amount_cents, description, success, fail, notification_url, external_reference (also accepted: ${Object.keys(FIELD_ALIASES).join(', ')})`;

const fileError = (message: string, hint?: string) =>
  usageError(`--input: ${message}`, { field: '--input', ...(hint ? { hint } : {}) });

const isBlank = (text: string) => text.trim() === '';

/**
 * The lines of an input, numbered, in constant memory (`order get --input` reads its ids this way
 * too): a line longer than MAX_LINE_BYTES, a UTF-16 file or a read error is a usage error; a line
 * that is not UTF-8 is given with `valid: false` for the caller to refuse.
 */
export async function* readLines(stream: Readable, label: string): AsyncGenerator<TextLine> {
  let pending: Buffer[] = [];
  let size = 0;
  let line = 1;
  const tooLong = () => fileError(`line ${line} of ${label} is longer than ${MAX_LINE_BYTES} bytes`);
  const take = (end: Buffer): TextLine => {
    let bytes = pending.length > 0 ? Buffer.concat([...pending, end]) : end;
    pending = [];
    size = 0;
    if (line === 1) bytes = withoutByteOrderMark(bytes, label);
    if (bytes.at(-1) === 0x0d) bytes = bytes.subarray(0, -1);
    if (bytes.length > MAX_LINE_BYTES) throw tooLong();
    return { line: line++, text: bytes.toString('utf8'), valid: isUtf8(bytes) };
  };
  // Four bytes of slack for a byte order mark and a "\r", which take() removes before its exact check.
  const slack = 4;
  try {
    for await (const chunk of stream) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
      let start = 0;
      for (let end = bytes.indexOf(0x0a); end !== -1; end = bytes.indexOf(0x0a, start)) {
        if (size + end - start > MAX_LINE_BYTES + slack) throw tooLong();
        const piece = bytes.subarray(start, end);
        start = end + 1;
        yield take(piece);
      }
      size += bytes.length - start;
      if (size > MAX_LINE_BYTES + slack) throw tooLong();
      if (start < bytes.length) pending.push(bytes.subarray(start));
    }
  } catch (error) {
    if (error instanceof CliError) throw error;
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw fileError(`cannot read ${label} (${reason})`);
  }
  if (size > 0) yield take(Buffer.alloc(0));
}

function withoutByteOrderMark(bytes: Buffer, label: string): Buffer {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return bytes.subarray(3);
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))
    throw fileError(`${label} is in UTF-16; save it as UTF-8`);
  return bytes;
}

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
      throw fileError(`${label} starts with "[": give one JSON object per line (NDJSON), not a JSON array`);
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

const didYouMean = (key: string) => {
  const known = nearest(key.trim().toLowerCase(), [...FIELD_NAMES, ...Object.keys(FIELD_ALIASES)]);
  return known ? ` (did you mean "${known}"?)` : '';
};

// ── CSV (RFC 4180: "," between values, '"' around a value that has one, doubled inside) ─────────

interface CsvRecord {
  /** The line the record starts on. */
  line: number;
  values: string[];
  valid: boolean;
  problem?: string;
}

/** A record being read, with the state of its value in progress. */
interface OpenRecord extends CsvRecord {
  value: string;
  /** Inside quotes: the record goes on at the next line. */
  quoted: boolean;
  /** Just after a closing quote: only "," or the end of the line may follow. */
  closed: boolean;
  bytes: number;
}

async function* csvRecords(lines: AsyncIterable<TextLine>, label: string): AsyncGenerator<CsvRecord> {
  let record: OpenRecord | undefined;
  for await (const { line, text, valid } of lines) {
    if (record === undefined) {
      if (isBlank(text)) continue;
      record = { line, values: [], valid, value: '', quoted: false, closed: false, bytes: 0 };
    } else {
      record.value += '\n';
      record.valid &&= valid;
      record.bytes += 1;
    }
    record.bytes += Buffer.byteLength(text);
    if (record.bytes > MAX_LINE_BYTES)
      throw fileError(
        `the record starting on line ${record.line} of ${label} is longer than ${MAX_LINE_BYTES} bytes (a quote left open?)`,
      );
    record.problem = scanLine(record, text);
    if (record.problem !== undefined || !record.quoted) {
      const { line: start, values, valid: whole, problem } = record;
      record = undefined;
      yield { line: start, values, valid: whole, ...(problem ? { problem } : {}) };
    }
  }
  if (record !== undefined)
    yield {
      line: record.line,
      values: [],
      valid: record.valid,
      problem: `the quote opened in column ${record.values.length + 1} is never closed`,
    };
}

/** Reads one line into the record; a problem ends the record at the end of this line. */
function scanLine(record: OpenRecord, text: string): string | undefined {
  const column = () => record.values.length + 1;
  let i = 0;
  while (i < text.length) {
    if (record.quoted) {
      const quote = text.indexOf('"', i);
      if (quote === -1) {
        record.value += text.slice(i);
        return undefined;
      }
      record.value += text.slice(i, quote);
      if (text[quote + 1] === '"') {
        record.value += '"';
        i = quote + 2;
      } else {
        [record.quoted, record.closed] = [false, true];
        i = quote + 1;
      }
      continue;
    }
    const char = text[i];
    if (char === ',') {
      record.values.push(record.value);
      [record.value, record.closed] = ['', false];
      i++;
    } else if (record.closed) {
      return `column ${column()} goes on after its closing quote (${REQUOTE})`;
    } else if (char === '"') {
      if (record.value !== '') return `a quote inside the unquoted value of column ${column()} (${REQUOTE})`;
      record.quoted = true;
      i++;
    } else {
      let end = i;
      while (end < text.length && text[end] !== ',' && text[end] !== '"') end++;
      record.value += text.slice(i, end);
      i = end;
    }
  }
  if (!record.quoted) record.values.push(record.value);
  return undefined;
}

/** The field of each column; any header that cannot be right is a usage error naming the column. */
function headerColumns(header: CsvRecord, label: string): (keyof OrderFields)[] {
  const where = `the header of ${label}`;
  if (!header.valid) throw fileError(`${where} is not valid UTF-8`, 'save the file as UTF-8');
  if (header.problem) throw fileError(`${where} is not valid CSV: ${header.problem}`);
  const names = header.values;
  const separator = names.length === 1 ? [';', '\t', '|'].find((s) => names[0]!.includes(s)) : undefined;
  if (separator)
    throw fileError(
      `the columns of ${label} must be separated by commas; its header is separated by ${JSON.stringify(separator)}`,
    );
  const fields = names.map(fieldNamed);
  if (fields.every((field) => field === undefined))
    throw fileError(
      `the first line of ${label} is not a header row (no column has a known name, e.g. ${JSON.stringify(names[0])})`,
      'start the file with a header row naming its columns, e.g. amount,description,success,fail',
    );
  const columns: (keyof OrderFields)[] = [];
  fields.forEach((field, i) => {
    const name = names[i]!;
    if (isBlank(name)) throw fileError(`column ${i + 1} of ${where} has no name`, COLUMNS_HINT);
    if (field === undefined)
      throw fileError(`unknown column "${name}" in ${where}${didYouMean(name)}`, COLUMNS_HINT);
    const before = columns.indexOf(field);
    if (before !== -1)
      throw fileError(
        names[before] === name
          ? `column "${name}" is given twice in ${where}`
          : `columns "${names[before]}" and "${name}" are the same field (${field}) in ${where}`,
      );
    columns.push(field);
  });
  return columns;
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
        if (value !== '') fields[columns[i]!] = value;
      });
      yield { line, fields };
    }
  }
}
