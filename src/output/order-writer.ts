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
import { type OutputFormat, type OutputOptions, plain, tsvCell, valueAt } from './formats.js';
import { painter } from './messages.js';
import type { LookupRow } from './order-tables.js';
import { ORDER_COLUMNS } from './order-view.js';
import { escapeControl, escapeStrings } from './terminal-text.js';

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

export interface WriterShape {
  /** One order expected (create, get with one id): JSON is an object, the table field/value rows. */
  single: boolean;
  /** Batch results: records carry their input line and outcome. */
  batch: boolean;
  /** A lookup (order get): TSV rows also say which id each was and how its lookup went. */
  lookup?: boolean;
}

export interface OrderWriter {
  format: OutputFormat;
  /** An order; `input` is the id it was looked up by. */
  order(order: Order, raw: string, input?: string): void;
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
): { cells: unknown[]; header: readonly string[] } {
  const cells = ORDER_COLUMNS.map((column) => (order ? valueAt(order, column) : ''));
  if (shape.lookup) {
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
  // Set when a write fills stdout's buffer: the caller waits in ready() before the next order.
  let full = false;
  const out = (text: string) => {
    if (!ctx.io.stdout.write(text)) full = true;
  };
  const paint = painter(ctx.io.colorOut);
  const tables =
    format === 'table' && !flags.field && !flags.raw
      ? await Promise.all([import('./order-tables.js'), import('./text-width.js')])
      : undefined;
  const width = tables ? tables[1].stdoutWidth(ctx) : 0;
  const tableRows: LookupRow[] = [];
  let count = 0;
  let headerDone = false;

  const emitJson = (value: unknown) => {
    if (format === 'ndjson') return out(`${JSON.stringify(value)}\n`);
    if (shape.single) return out(`${JSON.stringify(value, null, 2)}\n`);
    out(`${count === 0 ? '[\n' : ',\n'}${indent(JSON.stringify(value, null, 2))}`);
  };

  const orderHeader = shape.lookup ? LOOKUP_HEADER : ORDER_COLUMNS;
  const writeHeader = (header: readonly string[]) => {
    if (!headerDone && flags.headers !== false) out(`${header.join('\t')}\n`);
    headerDone = true;
  };
  const emitTsv = (cells: unknown[], header: readonly string[]) => {
    writeHeader(header);
    out(`${cells.map(tsvCell).join('\t')}\n`);
  };

  // Text for a terminal shows control characters as escapes; JSON escapes them itself.
  const toTerminal = ctx.io.stdoutIsTTY && format !== 'json' && format !== 'ndjson';
  const emit = (
    given: Order | null,
    raw: string | undefined,
    givenRecord?: BatchRecord,
    input?: string,
    givenMiss?: LookupMiss,
  ) => {
    const order = toTerminal ? escapeStrings(given) : given;
    const record = toTerminal ? escapeStrings(givenRecord) : givenRecord;
    const miss = toTerminal ? escapeStrings(givenMiss) : givenMiss;
    if (flags.field) {
      // Every batch line and every id gets its output line, empty when it gave no order, so lines stay aligned.
      out(`${order ? plain(valueAt(order, flags.field)) : ''}\n`);
      return;
    }
    if (flags.raw) {
      if (raw !== undefined)
        out(`${toTerminal ? escapeControl(raw.trim(), { keepNewlines: true }) : raw.trim()}\n`);
      else if (miss) out('\n');
      return;
    }
    switch (format) {
      case 'json':
      case 'ndjson':
        emitJson(record ?? miss ?? order);
        break;
      case 'tsv': {
        const row = tsvRow(shape, order, record, miss, input);
        emitTsv(row.cells, row.header);
        break;
      }
      default:
        if (!tables) break;
        if (record)
          out(
            `${tables[0].batchLines({ ...record, message: record.error?.message ?? null }, paint, width)}\n`,
          );
        // One id that gave no order: its error on stderr says it all.
        else if (shape.single) {
          if (order) out(`${tables[0].singleTable(order, paint, width)}\n`);
        } else tableRows.push(miss ? { missed: miss } : { order: order! });
    }
    count++;
  };

  return {
    format,
    order: (order, raw, input) => emit(order, raw, undefined, input),
    miss: (miss) => emit(null, undefined, undefined, miss.input, miss),
    record: (record, raw) => emit(record.order, raw, record),
    async ready() {
      if (!full) return;
      full = false;
      await drained(ctx);
    },
    async end() {
      // A TSV of no orders is still a TSV: its header says what its columns would be.
      if (format === 'tsv' && !flags.raw && !flags.field)
        writeHeader(shape.batch ? BATCH_HEADER : orderHeader);
      if (format === 'json' && !shape.single && !flags.raw && !flags.field)
        out(count === 0 ? '[]\n' : '\n]\n');
      if (tables && tableRows.length > 0) out(`${tables[0].manyTable(tableRows, paint, width)}\n`);
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
