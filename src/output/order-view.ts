/**
 * How orders look: the table of one order (field/value rows, the payment link on its own line,
 * the status colored), a row per order for many, and the TSV columns. JSON needs no view: it is
 * the contract's Order shape as it is.
 */
import type { ChalkInstance } from 'chalk';
import { LINK_FIELDS, ORDER_FIELDS } from '../contract/fields.js';
import type { Order } from '../contract/schemas.js';
import { usageError } from '../errors.js';
import { nearest } from '../terminal/suggestions.js';
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

/** Every path of payorder's documented JSON shape of an order that --field can print. */
export const ORDER_PATHS = [
  'version',
  'id',
  'uuid',
  'type',
  'status',
  'amount',
  'amount_cents',
  'currency',
  'order_number',
  'ref_number',
  'external_reference',
  'links',
  'links.checkout',
  'links.success',
  'links.failed',
] as const;

/** The paths that hold an object, not one value. */
const OBJECT_PATHS: ReadonlySet<string> = new Set(['links']);

/** The service's own names (v1 and v2 bodies) for paths of the shape, which --field accepts too. */
const API_NAMES: Record<string, (typeof ORDER_PATHS)[number]> = {
  [`${ORDER_FIELDS.links}.${LINK_FIELDS.checkout.v1}`]: 'links.checkout',
  [`${ORDER_FIELDS.links}.${LINK_FIELDS.checkout.v2}`]: 'links.checkout',
  [ORDER_FIELDS.orderNumber]: 'order_number',
  [ORDER_FIELDS.refNumber]: 'ref_number',
};

/**
 * The --field path in the documented shape: one of its paths, or the API's name for one. Anything
 * else is a usage error with the nearest path, before anything is sent.
 */
export function orderFieldPath(given: string): { path: string; leaf: boolean } {
  const path = (ORDER_PATHS as readonly string[]).includes(given) ? given : API_NAMES[given];
  if (path) return { path, leaf: !OBJECT_PATHS.has(path) };
  const near = nearest(given, [...ORDER_PATHS, ...Object.keys(API_NAMES)]);
  throw usageError(
    `--field: no field "${given}" in an order${near ? `; did you mean ${API_NAMES[near] ?? near}?` : ''}`,
    {
      field: '--field',
      hint: `the fields are ${ORDER_PATHS.join(', ')}`,
    },
  );
}
