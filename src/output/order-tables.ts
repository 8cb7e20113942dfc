/**
 * Orders as text for people, fitted to the terminal's width: one order as field/value rows with
 * its payment link on its own line, many orders (and the ids that gave none) as a borderless
 * table, and a batch's results as aligned lines. Nothing here is wider than the width it is given
 * (0: no limit), save an order's uuid and status and its payment link, which are never cut: a link
 * that does not fit goes whole on a line of its own (the terminal wraps it; it still copies whole).
 * The texts given are safe for a terminal already (order-writer.ts escapes them).
 */
import type { ChalkInstance } from 'chalk';
import type { Order } from '../contract/schemas.js';
import { padText, textWidth, truncateText, wrapText } from '../terminal/text-width.js';
import { type Cell, type Column, layoutTable } from './columns.js';
import { colorStatus, orderRows } from './order-view.js';

/** An id of a bulk lookup that gave no order, as its table row shows it. */
export interface MissedRow {
  input: string;
  outcome: 'not_found' | 'failed' | 'unknown';
}

export type LookupRow = { order: Order } | { missed: MissedRow };

/** Field/value rows that are never cut: what identifies the order and where it stands. */
const WHOLE_FIELDS = new Set(['uuid', 'status']);

/** One order: field/value rows, then the payment link alone on the last line so it can be copied whole. */
export function singleTable(order: Order, paint: ChalkInstance, width: number): string {
  const rows = orderRows(order, paint);
  const keyWidth = Math.max(...rows.map(([key]) => key.length));
  const room = width > 0 ? Math.max(1, width - keyWidth - 2) : 0;
  const lines = rows.map(([key, value]) => {
    const shown = room > 0 && !WHOLE_FIELDS.has(key) ? truncateText(value, room) : value;
    return `${paint.dim(key.padEnd(keyWidth))}  ${shown}`;
  });
  const link = order.links.checkout;
  if (link) lines.push('', paint.bold('payment link'), link);
  return lines.join('\n');
}

const MANY_COLUMNS: Column[] = [
  { header: 'UUID', rank: 0 },
  { header: 'STATUS', rank: 1 },
  { header: 'AMOUNT', rank: 2, optional: true, align: 'right' },
  { header: 'API', rank: 4, optional: true },
  // Whole or left out: a cut link cannot be used. Left out, the links follow the table.
  { header: 'PAYMENT LINK', rank: 5, optional: true },
];

/** The widest a uuid is: an id that gave no order is cut to it in the uuid column. */
const UUID_WIDTH = 36;

const OUTCOME_TEXT: Record<MissedRow['outcome'], string> = {
  not_found: 'not found',
  failed: 'failed',
  unknown: 'unknown',
};

/** Many orders: a row each, in the order they came; an id that gave none shows what became of it. */
export function manyTable(rows: readonly LookupRow[], paint: ChalkInstance, width: number): string {
  const cells = rows.map((row): Cell[] => {
    if ('missed' in row)
      return [
        { text: truncateText(row.missed.input, UUID_WIDTH) },
        { text: OUTCOME_TEXT[row.missed.outcome], color: paint.red },
      ];
    const { order } = row;
    return [
      { text: order.uuid },
      { text: order.status, color: (text) => colorStatus(paint, text) },
      { text: order.amount },
      { text: order.version },
      { text: order.links.checkout ?? '' },
    ];
  });
  const table = layoutTable(MANY_COLUMNS, cells, width, paint);
  const links = rows.flatMap((row) => {
    const link = 'order' in row ? row.order.links.checkout : undefined;
    return 'order' in row && link ? ['', paint.dim(row.order.uuid), link] : [];
  });
  if (links.length === 0 || table[0]?.includes('PAYMENT LINK')) return table.join('\n');
  // Too narrow for the links beside their orders: each below the table, whole, under its uuid.
  return [...table, '', paint.bold('payment links'), ...links.slice(1)].join('\n');
}

/** A batch result as it comes: what was asked, and what became of it. */
export interface BatchLine {
  line: number;
  outcome: 'created' | 'skipped' | 'failed' | 'unknown';
  order: Order | null;
  input: { amount: string | null; description: string | null; external_reference: string | null };
  message: string | null;
}

const MARKS: Record<BatchLine['outcome'], [string, 'green' | 'cyan' | 'red' | 'yellow']> = {
  created: ['✓ created', 'green'],
  skipped: ['↷ skipped', 'cyan'],
  failed: ['✗ failed', 'red'],
  unknown: ['? unknown', 'yellow'],
};

/** Widths of the fixed columns of a batch line: "line 9999", the outcome, the amount, the status. */
const LINE_WIDTH = 'line 9999'.length;
const MARK_WIDTH = '✓ created'.length;
const AMOUNT_WIDTH = 8;
const STATUS_WIDTH = 'REFUNDED'.length;

/**
 * A batch result as aligned columns (the line, the outcome, the amount, the status, then the
 * payment link, whole: on the next line when it does not fit). A line without an order shows what it asked for and its error, the
 * error wrapped onto lines of its own below rather than cut: it says what to fix.
 */
export function batchLines(record: BatchLine, paint: ChalkInstance, width: number): string {
  const [mark, color] = MARKS[record.outcome];
  const order = record.outcome === 'failed' ? null : record.order;
  const amount = order?.amount ?? record.input.amount ?? '';
  const status = order ? colorStatus(paint, order.status) : '';
  const prefix = [
    paint.dim(padText(`line ${record.line}`, LINE_WIDTH)),
    paint[color](padText(mark, MARK_WIDTH)),
    padText(amount, AMOUNT_WIDTH, 'right'),
    padText(status, STATUS_WIDTH),
  ].join('  ');
  const room = width > 0 ? width - textWidth(prefix) - 2 : 0;
  const cut = (text: string) => (width > 0 ? truncateText(text, Math.max(0, room)) : text);
  if (order) {
    const link = order.links.checkout ?? '';
    // A link is never cut: one that does not fit beside the line goes whole on the next.
    return width <= 0 || textWidth(link) <= room
      ? `${prefix}  ${link}`.trimEnd()
      : `${prefix.trimEnd()}\n${link}`;
  }
  const { description, external_reference: reference } = record.input;
  const asked = [description === null ? null : JSON.stringify(description), reference]
    .filter((v) => v !== null)
    .join(' ');
  const message = record.message ?? '';
  if (width <= 0) return [prefix, asked, message].filter((part) => part !== '').join('  ');
  // The error goes below, indented under the outcome, in as many lines as it takes.
  const indent = ' '.repeat(LINE_WIDTH + 2);
  const below = wrapText(message, width - indent.length).map((part) => indent + part);
  return [`${prefix}  ${cut(asked)}`.trimEnd(), ...below].join('\n');
}
