/**
 * `payorder sandbox pay|fail|refund ORDER`, the work: check the order id, ask the running sandbox to
 * change the status (only from the state the change makes sense from), and show the order.
 */
import type { SandboxOrderView } from '../../api/sandbox-control.js';
import { type OutputFlags, parseOutputOptions } from '../../cli/options.js';
import type { Context } from '../../context.js';
import { ORDER_STATES } from '../../contract/fields.js';
import { usageError } from '../../errors.js';
import { isUuid, orderKey } from '../../orders/order-ids.js';
import type { OutputOptions } from '../../output/formats.js';
import { renderOrderViews, sandboxAddress, sandboxControl } from './shared.js';

/** Each settlement: the status it sets and the one it must find. */
export const SETTLEMENTS = {
  pay: { status: ORDER_STATES.paid, from: ORDER_STATES.pending },
  fail: { status: ORDER_STATES.failed, from: ORDER_STATES.pending },
  refund: { status: ORDER_STATES.refunded, from: ORDER_STATES.paid },
} as const;

export type Settlement = keyof typeof SETTLEMENTS;

export interface SettleOptions {
  settlement: Settlement;
  /** The uuid, or the last segment of a v1 id. */
  key: string;
  output: OutputOptions;
}

/** The last segment of a v1 id as the sandbox makes them ("/1/order/9a8b7c6d5e4f3a2b"): 16 hex digits. */
const V1_KEY = /^[0-9a-f]{16}$/i;

/** The key the sandbox finds an order by: a uuid, or a v1 id (or its resource path) reduced to its last segment. */
export function orderKeyOf(order: string): string {
  const key = orderKey(order);
  if (isUuid(key)) return key.toLowerCase();
  if (V1_KEY.test(key)) return key;
  throw usageError(`${JSON.stringify(order)} is not an order uuid or v1 id`, {
    field: 'order',
    hint: 'give the uuid of the order (a v1 order also by its id); payorder sandbox orders lists them',
  });
}

export function parseSettleOptions(settlement: Settlement, order: string, flags: OutputFlags): SettleOptions {
  return { settlement, key: orderKeyOf(order), output: parseOutputOptions(flags) };
}

export async function runSettle(options: SettleOptions, ctx: Context): Promise<SandboxOrderView> {
  const { status, from } = SETTLEMENTS[options.settlement];
  return (await sandboxControl(await sandboxAddress(ctx), ctx)).settle(options.key, status, from);
}

export async function renderSettle(
  view: SandboxOrderView,
  options: SettleOptions,
  ctx: Context,
): Promise<void> {
  await renderOrderViews([view], options.output, true, ctx);
}
