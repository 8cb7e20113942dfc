/**
 * Reads a batch file as a stream of numbered lines, NDJSON or CSV with a header row (told apart by
 * the first character), so any size is read in constant memory.
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { usageError } from '../errors.js';
import { FIELD_ALIASES, type OrderFields } from './draft.js';

export interface InputLine {
  /** 1-based line number in the file (for CSV, the line the record starts on). */
  line: number;
  fields?: OrderFields;
  /** Why the line could not be read as an order. */
  problem?: string;
}

export function openInput(path: string, stdin: NodeJS.ReadableStream): Readable {
  if (path === '-') return stdin as Readable;
  const stream = createReadStream(path);
  return stream;
}

function normalize(record: Record<string, unknown>): OrderFields | string {
  const fields: Record<string, string> = {};
  for (const [rawKey, value] of Object.entries(record)) {
    const key = rawKey.trim().toLowerCase();
    const name = FIELD_ALIASES[key] ?? key;
    if (value === null || value === undefined || value === '') continue;
    if (typeof value === 'object') return `${key} must be a string`;
    fields[name] = String(value);
  }
  return fields as OrderFields;
}

/** The first chunk of a stream, put back so the stream still reads from its start. */
function peek(stream: Readable): Promise<string> {
  return new Promise((resolve, reject) => {
    const done = (text: string) => {
      stream.off('readable', onReadable).off('error', reject).off('end', onEnd);
      resolve(text);
    };
    const onReadable = () => {
      const chunk = stream.read() as Buffer | string | null;
      if (chunk === null) return;
      stream.unshift(chunk);
      done(chunk.toString());
    };
    const onEnd = () => done('');
    stream.on('readable', onReadable).once('error', reject).once('end', onEnd);
  });
}

/** Yields each line of the input as fields, or as a problem; blank lines are skipped. */
export async function* readBatch(stream: Readable, label: string): AsyncGenerator<InputLine> {
  let first: string;
  try {
    first = await peek(stream);
  } catch (error) {
    throw usageError(
      `--input: cannot read ${label} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
      {
        field: '--input',
      },
    );
  }
  if (first.trimStart().startsWith('{')) yield* ndjsonLines(stream);
  else yield* csvLines(stream);
}

async function* ndjsonLines(stream: Readable): AsyncGenerator<InputLine> {
  let line = 0;
  for await (const text of createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY })) {
    line++;
    if (text.trim() !== '') yield ndjsonLine(text, line);
  }
}

function ndjsonLine(text: string, line: number): InputLine {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { line, problem: 'not valid JSON' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { line, problem: 'must be a JSON object' };
  const fields = normalize(value as Record<string, unknown>);
  return typeof fields === 'string' ? { line, problem: fields } : { line, fields };
}

async function* csvLines(stream: Readable): AsyncGenerator<InputLine> {
  const { parse } = await import('csv-parse');
  const skipped: InputLine[] = [];
  const parser = stream.pipe(
    parse({
      bom: true,
      info: true,
      skip_empty_lines: true,
      relax_column_count: true,
      skip_records_with_error: true,
      on_skip: (error) => {
        skipped.push({
          line: Number(error?.lines ?? 0),
          problem: `not valid CSV (${error?.message ?? 'unreadable record'})`,
        });
        return undefined;
      },
    }),
  );
  let columns: string[] | undefined;
  for await (const { record, info } of parser as AsyncIterable<{
    record: string[];
    info: { lines: number };
  }>) {
    yield* skipped.splice(0);
    if (!columns) {
      columns = record.map((c) => c.trim().toLowerCase());
      continue;
    }
    const line = info.lines;
    if (record.length !== columns.length) {
      yield { line, problem: `has ${record.length} columns, the header has ${columns.length}` };
      continue;
    }
    const fields = normalize(Object.fromEntries(columns.map((c, i) => [c, record[i]])));
    yield typeof fields === 'string' ? { line, problem: fields } : { line, fields };
  }
  yield* skipped.splice(0);
}
