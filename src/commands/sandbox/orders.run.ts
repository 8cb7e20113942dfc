/**
 * `payorder sandbox orders`, the work: the orders of the running sandbox, filtered, shown as
 * `order get` shows orders (the same JSON shape, table and --field).
 */
import type { SandboxOrderView } from '../../api/sandbox-control.js';
import { type OutputFlags, parseOutputOptions } from '../../cli/options.js';
import type { Context } from '../../context.js';
import type { OutputOptions } from '../../output/formats.js';
import { renderOrderViews, sandboxAddress, sandboxControl } from './shared.js';

export interface SandboxOrdersOptions {
  status?: string;
  owner?: string;
  output: OutputOptions;
}

export function parseSandboxOrdersOptions(
  flags: OutputFlags & { status?: string; owner?: string },
): SandboxOrdersOptions {
  return { status: flags.status?.toUpperCase(), owner: flags.owner, output: parseOutputOptions(flags) };
}

export async function runSandboxOrders(
  options: SandboxOrdersOptions,
  ctx: Context,
): Promise<SandboxOrderView[]> {
  const orders = await (await sandboxControl(await sandboxAddress(ctx), ctx)).orders();
  return orders.filter(
    (view) =>
      (options.status === undefined || view.order.status === options.status) &&
      (options.owner === undefined || view.owner === options.owner),
  );
}

export async function renderSandboxOrders(
  views: SandboxOrderView[],
  options: SandboxOrdersOptions,
  ctx: Context,
): Promise<void> {
  await renderOrderViews(views, options.output, false, ctx);
}
