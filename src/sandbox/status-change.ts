/**
 * Changing an order's status: the one place that also tells the merchant's notification_url.
 */
import { orderResponseBody } from '../contract/schemas.js';
import type { SandboxOrder } from './orders.js';
import type { SandboxCore } from './server.js';

export function changeStatus(core: SandboxCore, order: SandboxOrder, status: string): void {
  core.orders.setStatus(order, status, core.now());
  if (order.notificationUrl)
    core.notifier.notify(order.notificationUrl, order.uuid, status, orderResponseBody(order));
}
