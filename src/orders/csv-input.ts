/**
 * The CSV side of a batch file. csv-parse reads the records (RFC 4180: "," between values, '"'
 * around a value that has one, doubled inside) from the lines readLines gives; this module numbers
 * each record by the line it starts on, marks one that spans a line not UTF-8, holds a record over
 * several lines to MAX_LINE_BYTES, words csv-parse's errors for the person who wrote the file, and
 * checks the header.
 */
import { finished } from 'node:stream/promises';
import { type CsvError, type Parser, parse } from 'csv-parse';
import { nearest } from '../terminal/suggestions.js';
import { FIELD_ALIASES, FIELD_NAMES, fieldNamed, type OrderFields } from './draft.js';
import { inputError, isBlank, MAX_LINE_BYTES, type TextLine } from './input-lines.js';

/** One record of a CSV file, or what kept it from being read. */
export interface CsvRecord {
  /** The line the record starts on. */
  line: number;
  values: string[];
  /** False when one of its lines is not UTF-8. */
  valid: boolean;
  /** Why it is not valid CSV; such a record ends at the end of the line where the problem is. */
  problem?: string;
}

const REQUOTE = 'quote the whole value, doubling its quotes';
const COLUMNS_HINT = `the columns are amount or amount_cents, description, success, fail, notification_url, external_reference (also accepted: ${Object.keys(FIELD_ALIASES).join(', ')})`;

/** What csv-parse met, in input order; `raw` is the record's text up to there, line ends included. */
type Parsed =
  | { raw: string; values: string[] }
  | { raw: string; error: CsvError }
  | { raw: string; failure: Error };

interface Reader {
  parser: Parser;
  /** Filled by the parser's callbacks, emptied by the reader's caller. */
  parsed: Parsed[];
}

function startReader(): Reader {
  const parsed: Parsed[] = [];
  const parser = parse({
    // readLines took the "\r" of each line ending off; any "\r" left is a value's.
    record_delimiter: '\n',
    raw: true,
    // A record's column count is compared with the header's by the caller, with its own message.
    relax_column_count: true,
    skip_records_with_error: true,
    // Records and errors are collected here, in the order csv-parse meets them, not pushed to the
    // stream, where the errors would come ahead of records read before them.
    on_record: (record) => {
      // With `raw: true`, csv-parse gives { record, raw } where its types say string[].
      const { record: values, raw } = record as unknown as { record: string[]; raw: string };
      parsed.push({ raw, values });
      return null;
    },
    on_skip: (error, raw) => {
      if (error) parsed.push({ raw: raw ?? '', error });
      return undefined;
    },
  });
  parser.on('error', (failure) => parsed.push({ raw: '', failure }));
  return { parser, parsed };
}

/**
 * The records of CSV lines, in input order, blank lines left out. A record longer than
 * MAX_LINE_BYTES is a usage error. After an error csv-parse reads on as best it can (after text
 * that follows a closing quote, as if still inside the quotes, swallowing the lines after); here
 * such a record ends with the line where csv-parse found the error, and a new parser reads on from
 * the next line, so one stray quote costs one record.
 */
/** The lines given to the parser that no record has taken yet, and the records they make. */
function openLines(label: string) {
  const lines: Array<TextLine & { bytes: number }> = [];
  /** Their size in bytes, a "\n" after each. */
  let size = 0;
  const tooLong = (line: number) =>
    inputError(
      `the record starting on line ${line} of ${label} is longer than ${MAX_LINE_BYTES} bytes (a quote left open?)`,
    );
  return {
    lines,
    add(line: TextLine): void {
      const bytes = Buffer.byteLength(line.text);
      lines.push({ ...line, bytes });
      size += bytes + 1;
    },
    /** The record made of the first `count` open lines. */
    take(count: number, values: string[], problem?: string): CsvRecord {
      const taken = lines.splice(0, Math.max(count, 1));
      let bytes = 0;
      let valid = true;
      for (const line of taken) {
        bytes += line.bytes + 1;
        valid &&= line.valid;
      }
      size -= bytes;
      const [first] = taken;
      // A record is taken only once the parser has read it from the open lines.
      if (!first) throw new Error('a CSV record taken from no open line');
      // Without the "\n" after its last line.
      if (bytes - 1 > MAX_LINE_BYTES) throw tooLong(first.line);
      return { line: first.line, values, valid, ...(problem ? { problem } : {}) };
    },
    /**
     * csv-parse parses a write before it returns, but for the last few bytes, which it keeps until
     * more come (to look ahead): the open lines may still hold a record that has ended. An open
     * record is held to twice the limit, which those few bytes cannot reach; take() holds each
     * record to the limit itself.
     */
    checkHeld(): void {
      const [oldest] = lines;
      if (oldest && size > 2 * MAX_LINE_BYTES) throw tooLong(oldest.line);
    },
  };
}

export async function* csvRecords(lines: AsyncIterable<TextLine>, label: string): AsyncGenerator<CsvRecord> {
  const open = openLines(label);
  let reader = startReader();
  const write = (line: TextLine) => reader.parser.write(`${line.text}\n`);

  /** The records of what the parser has read so far. */
  function* settle(): Generator<CsvRecord> {
    while (reader.parsed.length > 0) {
      for (const item of reader.parsed.splice(0)) {
        if ('failure' in item) throw item.failure;
        if ('values' in item) {
          const record = open.take(newlines(item.raw), item.values);
          if (!isBlank(item.raw)) yield record;
          continue;
        }
        // The record ends with the line csv-parse found the error on; the lines after it that the
        // old parser was given are given again, to a new one.
        yield open.take(newlines(item.raw) + 1, [], csvProblem(item.error));
        reader.parser.destroy();
        reader = startReader();
        for (const line of open.lines) write(line);
        break;
      }
    }
  }

  try {
    for await (const line of lines) {
      open.add(line);
      write(line);
      yield* settle();
      open.checkHeld();
    }
    // The end of the input ends the last record; an error in it starts a parser for the lines after.
    for (let ended: Reader | undefined; ended !== reader; ) {
      ended = reader;
      reader.parser.end();
      await finished(reader.parser, { readable: false });
      yield* settle();
    }
  } finally {
    reader.parser.destroy();
  }
}

function newlines(text: string): number {
  let count = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) count++;
  return count;
}

/** csv-parse's error in the file's terms: the column, and how to write the value instead. */
function csvProblem(error: CsvError): string {
  const column = typeof error.column === 'number' ? error.column + 1 : '?';
  switch (error.code) {
    case 'INVALID_OPENING_QUOTE':
      return `a quote inside the unquoted value of column ${column} (${REQUOTE})`;
    case 'CSV_INVALID_CLOSING_QUOTE':
      return `column ${column} goes on after its closing quote (${REQUOTE})`;
    case 'CSV_QUOTE_NOT_CLOSED':
      return `the quote opened in column ${column} is never closed`;
    default:
      return error.message;
  }
}

/** The field of each column; any header that cannot be right is a usage error naming the column. */
export function headerColumns(header: CsvRecord, label: string): (keyof OrderFields)[] {
  const where = `the header of ${label}`;
  if (!header.valid) throw inputError(`${where} is not valid UTF-8`, 'save the file as UTF-8');
  if (header.problem) throw inputError(`${where} is not valid CSV: ${header.problem}`);
  const names = header.values;
  const [only, ...others] = names;
  const separator =
    only !== undefined && others.length === 0 ? [';', '\t', '|'].find((s) => only.includes(s)) : undefined;
  if (separator)
    throw inputError(
      `the columns of ${label} must be separated by commas; its header is separated by ${JSON.stringify(separator)}`,
    );
  const fields = names.map(fieldNamed);
  if (fields.every((field) => field === undefined))
    throw inputError(
      `the first line of ${label} is not a header row (no column has a known name, e.g. ${JSON.stringify(names[0])})`,
      'start the file with a header row naming its columns, e.g. amount,description,success,fail',
    );
  const columns: (keyof OrderFields)[] = [];
  names.forEach((name, i) => {
    const field = fields[i];
    if (isBlank(name)) throw inputError(`column ${i + 1} of ${where} has no name`, COLUMNS_HINT);
    if (field === undefined)
      throw inputError(`unknown column "${name}" in ${where}${didYouMean(name)}`, COLUMNS_HINT);
    const before = columns.indexOf(field);
    if (before !== -1)
      throw inputError(
        names[before] === name
          ? `column "${name}" is given twice in ${where}`
          : `columns "${names[before]}" and "${name}" are the same field (${field}) in ${where}`,
      );
    columns.push(field);
  });
  return columns;
}

/** The end of a message about an unknown column or key: the known name nearest to it, if any. */
export const didYouMean = (key: string) => {
  const known = nearest(key.trim().toLowerCase(), [...FIELD_NAMES, ...Object.keys(FIELD_ALIASES)]);
  return known ? ` (did you mean "${known}"?)` : '';
};
