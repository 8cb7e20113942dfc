/**
 * Changing an order's status: the one place that also tells the merchant's notification_url.
 */
import { orderResponseBody } from '../contract/schemas.js';
import type { SandboxCore } from './core.js';
import type { SandboxOrder } from './orders.js';

export function changeStatus(core: SandboxCore, order: SandboxOrder, status: string): void {
  core.orders.setStatus(order, status, core.now());
  if (order.notificationUrl)
    core.notifier.notify(order.notificationUrl, order.uuid, status, orderResponseBody(order));
}
