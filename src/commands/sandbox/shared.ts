/**
 * What the commands that drive a running sandbox share: its address, resolved as every command
 * resolves its target (PAYORDER_CHECKOUT_URL, else `sandbox.<version>.checkout-url`, else the
 * default http://127.0.0.1:4010), and the control client for it.
 */
import { SandboxControl, type SandboxOrderView } from '../../api/sandbox-control.js';
import { type Context, debugTrace } from '../../context.js';
import { checkBaseUrl } from '../../contract/urls.js';
import type { OutputOptions } from '../../output/formats.js';
import { createOrderWriter } from '../../output/order-writer.js';
import { chooseFormat } from '../../output/render.js';
import { findAddress, resolveProfile, resolveVersion } from '../../session/target.js';
import { timeoutSeconds } from '../../variables.js';

/** The sandbox's address: the sandbox environment's checkout address. */
export async function sandboxAddress(ctx: Context): Promise<string> {
  const data = (await ctx.store()).read();
  const version = resolveVersion(ctx, {}, data, 'sandbox');
  const found = findAddress(ctx, data, 'sandbox', version, 'checkout', resolveProfile(ctx, {}));
  // findAddress always has one for the sandbox: its default.
  if (!found) throw new Error('the sandbox environment has no default checkout address');
  return checkBaseUrl(found.from, found.url);
}

/**
 * Shows the sandbox's orders as `order get` shows orders: the same JSON shape, table and --field;
 * `single` when the command is about one order (its view, not a list); `extra`, the sandbox's own
 * fields each order comes with (JSON and TSV).
 */
export async function renderOrderViews(
  views: SandboxOrderView[],
  output: OutputOptions,
  single: boolean,
  ctx: Context,
  extra?: readonly ('owner' | 'description' | 'created_at')[],
): Promise<void> {
  const writer = await createOrderWriter(ctx, output, chooseFormat(ctx, { asked: output.format }), {
    of: 'orders',
    single,
    extra,
  });
  for (const view of views) {
    const values = { owner: view.owner, description: view.description, created_at: view.createdAt ?? '' };
    writer.order(
      view.order,
      view.raw,
      undefined,
      extra && Object.fromEntries(extra.map((k) => [k, values[k]])),
    );
    await writer.ready();
  }
  await writer.end();
}

/** The control client of the sandbox at `base`. */
export async function sandboxControl(base: string, ctx: Context): Promise<SandboxControl> {
  return new SandboxControl(base, {
    timeoutMs: timeoutSeconds(ctx.env) * 1000,
    trace: debugTrace(ctx),
    secrets: [],
    signal: ctx.signal,
    refusalRetries: 0,
    transport: await ctx.transport(),
  });
}
