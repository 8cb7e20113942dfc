/**
 * Changing an order's status: the one place that also tells the merchant's notification_url and
 * every registered listener (`payorder sandbox listen`).
 */
import { orderResponseBody } from '../contract/schemas.js';
import type { SandboxCore } from './core.js';
import type { SandboxOrder } from './orders.js';

/** A state an order may be put in (POST /_sandbox/orders/:uuid/status): an upper-case name. */
export const STATE_NAME = /^[A-Z][A-Z_]{1,31}$/;

export function changeStatus(core: SandboxCore, order: SandboxOrder, status: string): void {
  core.orders.setStatus(order, status, core.now());
  const targets = new Set(core.listeners.values());
  if (order.notificationUrl) targets.add(order.notificationUrl);
  if (targets.size === 0) return;
  const payload = orderResponseBody(order);
  for (const url of targets) core.notifier.notify(url, order.uuid, status, payload);
}
