/**
 * Writes orders to stdout in the chosen format, as they come, for every command that shows orders.
 * One order, many orders and batch results (each with its input line) share it, so the JSON shape
 * and the table look are the same everywhere. It says when stdout's buffer is full (`ready()`), so
 * a batch waits for a slow reader instead of holding every result in memory.
 */

import type { Context } from '../context.js';
import type { Order } from '../contract/schemas.js';
import type { CliError } from '../errors.js';
import { type OutputFormat, type OutputOptions, plain, tsvCell, valueAt } from './formats.js';
import { painter } from './messages.js';
import { colorStatus, ORDER_COLUMNS, orderRows } from './order-view.js';
import { escapeControl, escapeStrings } from './terminal-text.js';

/** What became of one input line of a batch; `order` is null unless it was created or found. */
export type LineOutcome = 'created' | 'skipped' | 'failed' | 'unknown';

/** What a batch line said: kept with every record so a failed or unknown line can be found. */
export interface BatchInput {
  amount: string | null;
  description: string | null;
  external_reference: string | null;
}

export interface BatchRecord {
  line: number;
  outcome: LineOutcome;
  order: Order | null;
  input: BatchInput;
  error: ReturnType<CliError['toJSON']>['error'] | null;
}

export interface WriterShape {
  /** One order expected (create, get with one id): JSON is an object, the table field/value rows. */
  single: boolean;
  /** Batch results: records carry their input line and outcome. */
  batch: boolean;
}

export interface OrderWriter {
  format: OutputFormat;
  order(order: Order, raw: string): void;
  record(record: BatchRecord, raw?: string): void;
  /**
   * Resolves once stdout can take more: at once unless a write filled its buffer, else when the
   * reader has taken it (or stdout is gone, or the command is stopping).
   */
  ready(): Promise<void>;
  end(): Promise<void>;
}

/** A writer of orders in `format` (chosen by output/render.ts's rule) with the output options. */
export function createOrderWriter(
  ctx: Context,
  flags: OutputOptions,
  format: OutputFormat,
  shape: WriterShape,
): OrderWriter {
  // Set when a write fills stdout's buffer: the caller waits in ready() before the next order.
  let full = false;
  const out = (text: string) => {
    if (!ctx.io.stdout.write(text)) full = true;
  };
  const paint = painter(ctx.io.colorOut);
  const tableRows: Order[] = [];
  let count = 0;
  let headerDone = false;

  const emitJson = (value: unknown) => {
    if (format === 'ndjson') return out(`${JSON.stringify(value)}\n`);
    if (shape.single) return out(`${JSON.stringify(value, null, 2)}\n`);
    out(`${count === 0 ? '[\n' : ',\n'}${indent(JSON.stringify(value, null, 2))}`);
  };

  const batchHeader = ['line', 'outcome', ...ORDER_COLUMNS, 'description', 'error'];
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
  const emit = (given: Order | null, raw: string | undefined, givenRecord?: BatchRecord) => {
    const order = toTerminal ? escapeStrings(given) : given;
    const record = toTerminal ? escapeStrings(givenRecord) : givenRecord;
    if (flags.field) {
      // Every batch line gets its output line, empty when it made no order, so lines stay aligned.
      if (order || record) out(`${order ? plain(valueAt(order, flags.field)) : ''}\n`);
      return;
    }
    if (flags.raw) {
      if (raw !== undefined)
        out(`${toTerminal ? escapeControl(raw.trim(), { keepNewlines: true }) : raw.trim()}\n`);
      return;
    }
    switch (format) {
      case 'json':
      case 'ndjson':
        emitJson(record ?? order);
        break;
      case 'tsv': {
        const cells = ORDER_COLUMNS.map((column) => (order ? valueAt(order, column) : ''));
        if (record) {
          // A line without an order still shows what it asked for, so it can be found.
          const asked = (column: keyof BatchInput) => (order ? valueAt(order, column) : record.input[column]);
          emitTsv(
            [
              record.line,
              record.outcome,
              ...ORDER_COLUMNS.map((column, i) =>
                column === 'amount' || column === 'external_reference' ? asked(column) : cells[i],
              ),
              record.input.description,
              record.error?.message ?? '',
            ],
            batchHeader,
          );
        } else emitTsv(cells, ORDER_COLUMNS);
        break;
      }
      default:
        if (record) out(`${batchLine(record, paint)}\n`);
        else if (shape.single) out(`${singleTable(order!, paint)}\n`);
        else tableRows.push(order!);
    }
    count++;
  };

  return {
    format,
    order: (order, raw) => emit(order, raw),
    record: (record, raw) => emit(record.order, raw, record),
    async ready() {
      if (!full) return;
      full = false;
      await drained(ctx);
    },
    async end() {
      // A TSV of no orders is still a TSV: its header says what its columns would be.
      if (format === 'tsv' && !flags.raw && !flags.field)
        writeHeader(shape.batch ? batchHeader : ORDER_COLUMNS);
      if (format === 'json' && !shape.single && !flags.raw && !flags.field)
        out(count === 0 ? '[]\n' : '\n]\n');
      if (format === 'table' && tableRows.length > 0) out(`${await manyTable(tableRows, paint)}\n`);
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

function singleTable(order: Order, paint: ReturnType<typeof painter>): string {
  const rows = orderRows(order, paint);
  const width = Math.max(...rows.map(([key]) => key.length));
  const lines = rows.map(([key, value]) => `${paint.dim(key.padEnd(width))}  ${value}`);
  // The payment link stands alone on the last line so it can be copied whole.
  if (order.links.checkout) lines.push('', `${paint.bold('payment link')}`, order.links.checkout);
  return lines.join('\n');
}

async function manyTable(orders: Order[], paint: ReturnType<typeof painter>): Promise<string> {
  const { default: Table } = await import('cli-table3');
  const table = new Table({
    head: ['uuid', 'status', 'amount', 'api', 'payment link'],
    style: { head: paint.level > 0 ? ['bold'] : [], border: paint.level > 0 ? ['grey'] : [], compact: true },
  });
  for (const order of orders) {
    table.push([
      order.uuid,
      colorStatus(paint, order.status),
      order.amount,
      order.version,
      order.links.checkout ?? '',
    ]);
  }
  return table.toString();
}

function batchLine(record: BatchRecord, paint: ReturnType<typeof painter>): string {
  const line = paint.dim(`line ${record.line}`);
  if (record.order && record.outcome !== 'failed') {
    const mark = record.outcome === 'skipped' ? paint.cyan('↷ already created') : paint.green('✓');
    return `${line}  ${mark}  ${record.order.amount}  ${colorStatus(paint, record.order.status)}  ${record.order.links.checkout ?? ''}`;
  }
  const mark = record.outcome === 'unknown' ? paint.yellow('? outcome unknown') : paint.red('✗');
  const { amount, description, external_reference: reference } = record.input;
  const asked = [amount, description === null ? null : JSON.stringify(description), reference].filter(
    (v) => v !== null,
  );
  return `${line}  ${mark}  ${asked.length > 0 ? `${asked.join(' ')}  ` : ''}${record.error?.message ?? ''}`;
}
