/**
 * Writes orders to stdout in the chosen format, as they come, for every command that shows orders.
 * One order, many orders (with the ids of a lookup that gave none) and batch results (each with its
 * input line) share it, so the JSON shape and the table look are the same everywhere. It says when
 * stdout's buffer is full (`ready()`), so a batch waits for a slow reader instead of holding every
 * result in memory.
 */

import type { Context } from '../context.js';
import type { Order } from '../contract/schemas.js';
import type { CliError } from '../errors.js';
import type { BatchInput, BatchRecord } from '../orders/batch-record.js';
import { painter } from '../terminal/messages.js';
import { escapeControl, escapeStrings } from '../terminal/terminal-text.js';
import { type OutputFormat, type OutputOptions, plain, tsvCell, valueAt } from './formats.js';
import type { LookupRow } from './order-tables.js';
import { ORDER_COLUMNS } from './order-view.js';

/**
 * An id given to `order get` that gave no order: what it was, what became of it (not_found, or
 * failed for any other error) and the error. Every id of a lookup gets its row, in input order.
 */
export interface LookupMiss {
  input: string;
  /** unknown: an order of the ledger sent with no answer (order find). */
  outcome: 'not_found' | 'failed' | 'unknown';
  order: null;
  error: ReturnType<CliError['toJSON']>['error'];
}

/**
 * What the writer is given. Orders (create, sandbox) and a lookup's results (order get, whose TSV
 * rows also say which id each was and how its lookup went) are `single` when one order is expected:
 * JSON is then an object and the table field/value rows. Batch results are records that carry their
 * input line and outcome.
 */
export type WriterShape =
  | {
      of: 'orders' | 'lookup';
      single: boolean;
      /**
       * Fields beyond the order's that each order comes with (`sandbox orders`: owner, description),
       * after the order's in JSON and as the last TSV columns.
       */
      extra?: readonly string[];
    }
  | { of: 'batch' };

export interface OrderWriter {
  format: OutputFormat;
  /** An order; `input` is the id it was looked up by; `extra` the values of the shape's extra fields. */
  order(order: Order, raw: string, input?: string, extra?: Record<string, string>): void;
  /** An id that gave no order: a row of its own wherever orders have one. */
  miss(miss: LookupMiss): void;
  record(record: BatchRecord, raw?: string): void;
  /**
   * Resolves once stdout can take more: at once unless a write filled its buffer, else when the
   * reader has taken it (or stdout is gone, or the command is stopping).
   */
  ready(): Promise<void>;
  end(): Promise<void>;
}

/** The TSV columns of a batch line and of a lookup's row, after the order's. */
const BATCH_HEADER = ['line', 'outcome', ...ORDER_COLUMNS, 'description', 'error'];
const LOOKUP_HEADER = [...ORDER_COLUMNS, 'input', 'outcome', 'error'];

/** The TSV cells of an order, a lookup's row or a batch line, and the header they follow. */
function tsvRow(
  shape: WriterShape,
  order: Order | null,
  record: BatchRecord | undefined,
  miss: LookupMiss | undefined,
  input: string | undefined,
  extra: Record<string, string> | undefined,
): { cells: unknown[]; header: readonly string[] } {
  const cells = ORDER_COLUMNS.map((column) => (order ? valueAt(order, column) : ''));
  if (shape.of !== 'batch' && shape.extra)
    return {
      cells: [...cells, ...shape.extra.map((name) => extra?.[name] ?? '')],
      header: [...ORDER_COLUMNS, ...shape.extra],
    };
  if (shape.of === 'lookup') {
    const lookup = miss ? [miss.input, miss.outcome, miss.error.message] : [input ?? '', 'found', ''];
    return { cells: [...cells, ...lookup], header: LOOKUP_HEADER };
  }
  if (!record) return { cells, header: ORDER_COLUMNS };
  // A line without an order still shows what it asked for, so it can be found.
  const asked = (column: keyof BatchInput) => (order ? valueAt(order, column) : record.input[column]);
  const orderCells = ORDER_COLUMNS.map((column, i) =>
    column === 'amount' || column === 'external_reference' ? asked(column) : cells[i],
  );
  return {
    cells: [
      record.line,
      record.outcome,
      ...orderCells,
      record.input.description,
      record.error?.message ?? '',
    ],
    header: BATCH_HEADER,
  };
}

/** One thing to write: an order (with the id it was looked up by), an id that gave none, or a batch line. */
interface Row {
  order: Order | null;
  /** The service's body, for --raw. */
  raw?: string;
  input?: string;
  miss?: LookupMiss;
  record?: BatchRecord;
  /** The values of the shape's extra fields. */
  extra?: Record<string, string>;
}

/** Where rows go in one format; `end` writes what the format needs at the end. */
interface Sink {
  write(row: Row): void;
  end(): void;
}

type Out = (text: string) => void;

/** --field: a line per row, the value at the path, empty when the row has no order (lines stay aligned). */
const fieldSink = (out: Out, field: string): Sink => ({
  write: ({ order }) => out(`${order ? plain(valueAt(order, field)) : ''}\n`),
  end: () => {},
});

/** --raw: the service's body as it came; an empty line for an id that gave none. */
const rawSink = (out: Out, toTerminal: boolean): Sink => ({
  write({ raw, miss }) {
    if (raw !== undefined)
      out(`${toTerminal ? escapeControl(raw.trim(), { keepNewlines: true }) : raw.trim()}\n`);
    else if (miss) out('\n');
  },
  end: () => {},
});

/** JSON: one object when one order is expected, else an array written as it grows; NDJSON: a line each. */
function jsonSink(out: Out, format: 'json' | 'ndjson', single: boolean): Sink {
  let count = 0;
  return {
    write({ order, record, miss, extra }) {
      const value = record ?? miss ?? (extra ? { ...order, ...extra } : order);
      if (format === 'ndjson') out(`${JSON.stringify(value)}\n`);
      else if (single) out(`${JSON.stringify(value, null, 2)}\n`);
      else out(`${count === 0 ? '[\n' : ',\n'}${indent(JSON.stringify(value, null, 2))}`);
      count++;
    },
    end() {
      if (format === 'json' && !single) out(count === 0 ? '[]\n' : '\n]\n');
    },
  };
}

/** TSV: the header once, then a row each; a TSV of no orders is still a TSV, its header saying what its columns would be. */
function tsvSink(out: Out, shape: WriterShape, headers: boolean): Sink {
  let headerDone = false;
  const writeHeader = (header: readonly string[]) => {
    if (!headerDone && headers) out(`${header.join('\t')}\n`);
    headerDone = true;
  };
  return {
    write({ order, record, miss, input, extra }) {
      const row = tsvRow(shape, order, record, miss, input, extra);
      writeHeader(row.header);
      out(`${row.cells.map(tsvCell).join('\t')}\n`);
    },
    end: () =>
      writeHeader(
        shape.of === 'lookup'
          ? LOOKUP_HEADER
          : shape.of === 'batch'
            ? BATCH_HEADER
            : [...ORDER_COLUMNS, ...(shape.extra ?? [])],
      ),
  };
}

/** The table view: a batch's lines as they come, one order's field/value rows, or one table of many at the end. */
async function tableSink(ctx: Context, out: Out, single: boolean): Promise<Sink> {
  const [tables, { stdoutWidth }] = await Promise.all([
    import('./order-tables.js'),
    import('../terminal/text-width.js'),
  ]);
  const paint = painter(ctx.io.colorOut);
  const width = stdoutWidth(ctx);
  const rows: LookupRow[] = [];
  return {
    write({ order, record, miss }) {
      if (record)
        out(`${tables.batchLines({ ...record, message: record.error?.message ?? null }, paint, width)}\n`);
      // One id that gave no order: its error on stderr says it all.
      else if (single) {
        if (order) out(`${tables.singleTable(order, paint, width)}\n`);
      } else if (miss) rows.push({ missed: miss });
      else if (order) rows.push({ order });
    },
    end() {
      if (rows.length > 0) out(`${tables.manyTable(rows, paint, width)}\n`);
    },
  };
}

/** stdout as the writer uses it: `out` writes, `ready` waits while a write has filled its buffer. */
function stdoutOf(ctx: Context): { out: Out; ready(): Promise<void> } {
  let full = false;
  return {
    out(text) {
      if (!ctx.io.stdout.write(text)) full = true;
    },
    async ready() {
      if (!full) return;
      full = false;
      await drained(ctx);
    },
  };
}

/**
 * A writer of orders in `format` (chosen by output/render.ts's rule) with the output options. The
 * tables and the terminal's text measures are loaded only for the table view: JSON, TSV and
 * --field output never pay for them.
 */
export async function createOrderWriter(
  ctx: Context,
  flags: OutputOptions,
  format: OutputFormat,
  shape: WriterShape,
): Promise<OrderWriter> {
  const { out, ready } = stdoutOf(ctx);
  // Text for a terminal shows control characters as escapes; JSON escapes them itself.
  const toTerminal = ctx.io.stdoutIsTTY && format !== 'json' && format !== 'ndjson';
  const single = shape.of !== 'batch' && shape.single;
  const sink = flags.field
    ? fieldSink(out, flags.field)
    : flags.raw
      ? rawSink(out, toTerminal)
      : format === 'json' || format === 'ndjson'
        ? jsonSink(out, format, single)
        : format === 'tsv'
          ? tsvSink(out, shape, flags.headers !== false)
          : await tableSink(ctx, out, single);
  const write = (row: Row) =>
    sink.write(
      toTerminal
        ? {
            ...row,
            order: escapeStrings(row.order),
            record: escapeStrings(row.record),
            miss: escapeStrings(row.miss),
            extra: escapeStrings(row.extra),
          }
        : row,
    );
  return {
    format,
    order: (order, raw, input, extra) => write({ order, raw, input, extra }),
    miss: (miss) => write({ order: null, input: miss.input, miss }),
    record: (record, raw) => write({ order: record.order, raw, record }),
    ready,
    async end() {
      sink.end();
    },
  };
}

/** Resolves on stdout's next 'drain', or when it closes or fails, or when the command is stopping. */
function drained(ctx: Context): Promise<void> {
  const { stdout } = ctx.io;
  return new Promise((resolve) => {
    const done = () => {
      stdout.off('drain', done);
      stdout.off('close', done);
      stdout.off('error', done);
      ctx.signal.removeEventListener('abort', done);
      resolve();
    };
    if (ctx.signal.aborted) return resolve();
    stdout.on('drain', done);
    stdout.on('close', done);
    stdout.on('error', done);
    ctx.signal.addEventListener('abort', done);
  });
}

const indent = (text: string) => text.replace(/^/gm, '  ');
