/**
 * Writes orders to stdout in the chosen format, as they come, for every command that shows orders.
 * One order, many orders and batch results (each with its input line) share it, so the JSON shape
 * and the table look are the same everywhere.
 */

import type { Context } from '../context.js';
import type { Order } from '../contract/schemas.js';
import type { CliError } from '../errors.js';
import { chooseFormat, type OutputFlags, type OutputFormat, plain, tsvCell, valueAt } from './formats.js';
import { painter } from './messages.js';
import { colorStatus, ORDER_COLUMNS, orderRows } from './order-view.js';

/** What became of one input line of a batch; `order` is null unless it was created or found. */
export type LineOutcome = 'created' | 'skipped' | 'failed' | 'unknown';

export interface BatchRecord {
  line: number;
  outcome: LineOutcome;
  order: Order | null;
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
  end(): Promise<void>;
}

export function createOrderWriter(
  ctx: Context,
  flags: OutputFlags,
  shape: WriterShape,
  storedDefault?: OutputFormat,
): OrderWriter {
  const format = chooseFormat(ctx, flags, storedDefault);
  const out = (text: string) => ctx.io.stdout.write(text);
  const paint = painter(ctx.io.colorOut);
  const tableRows: Order[] = [];
  let count = 0;
  let headerDone = false;

  const emitJson = (value: unknown) => {
    if (format === 'ndjson') return out(`${JSON.stringify(value)}\n`);
    if (shape.single) return out(`${JSON.stringify(value, null, 2)}\n`);
    out(`${count === 0 ? '[\n' : ',\n'}${indent(JSON.stringify(value, null, 2))}`);
  };

  const emitTsv = (cells: unknown[], header: readonly string[]) => {
    if (!headerDone && flags.headers !== false) out(`${header.join('\t')}\n`);
    headerDone = true;
    out(`${cells.map(tsvCell).join('\t')}\n`);
  };

  const emit = (order: Order | null, raw: string | undefined, record?: BatchRecord) => {
    if (flags.raw) {
      if (raw !== undefined) out(`${raw.trim()}\n`);
      return;
    }
    if (flags.field) {
      if (order) out(`${plain(valueAt(order, flags.field))}\n`);
      return;
    }
    switch (format) {
      case 'json':
      case 'ndjson':
        emitJson(record ?? order);
        break;
      case 'tsv': {
        const cells = ORDER_COLUMNS.map((column) => (order ? valueAt(order, column) : ''));
        if (record)
          emitTsv(
            [record.line, record.outcome, ...cells, record.error?.message ?? ''],
            ['line', 'outcome', ...ORDER_COLUMNS, 'error'],
          );
        else emitTsv(cells, ORDER_COLUMNS);
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
    async end() {
      if (format === 'json' && !shape.single && !flags.raw && !flags.field)
        out(count === 0 ? '[]\n' : '\n]\n');
      if (format === 'table' && tableRows.length > 0) out(`${await manyTable(tableRows, paint)}\n`);
    },
  };
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
  return `${line}  ${mark}  ${record.error?.message ?? ''}`;
}
