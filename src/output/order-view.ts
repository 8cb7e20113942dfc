/**
 * How orders look: the table of one order (field/value rows, the payment link on its own line,
 * the status colored), a row per order for many, and the TSV columns. JSON needs no view: it is
 * the contract's Order shape as it is.
 */
import type { ChalkInstance } from 'chalk';
import type { Order } from '../contract/schemas.js';
import { plain } from './formats.js';

/** The columns of `-o tsv` and of the many-orders table, in order. */
export const ORDER_COLUMNS = [
  'uuid',
  'id',
  'version',
  'status',
  'amount',
  'currency',
  'order_number',
  'ref_number',
  'external_reference',
  'links.checkout',
] as const;

export function colorStatus(paint: ChalkInstance, status: string): string {
  switch (status) {
    case 'PENDING':
      return paint.yellow(status);
    case 'PAID':
      return paint.green(status);
    case 'FAILED':
      return paint.red(status);
    case 'REFUNDED':
      return paint.magenta(status);
    default:
      return status;
  }
}

/** Field/value rows for one order; v1-only fields are left out when null. */
export function orderRows(order: Order, paint: ChalkInstance): Array<[string, string]> {
  const rows: Array<[string, string | null]> = [
    ['uuid', order.uuid],
    ['id', order.id],
    ['status', colorStatus(paint, order.status)],
    ['amount', order.currency ? `${order.amount} (currency ${order.currency})` : order.amount],
    ['order number', order.order_number],
    ['ref number', order.ref_number],
    ['external reference', order.external_reference],
    ['api', order.version],
    ['success link', order.links.success],
    ['fail link', order.links.failed],
  ];
  return rows
    .filter((row): row is [string, string] => row[1] !== null && row[1] !== '')
    .map(([k, v]) => [k, plain(v)]);
}
