/**
 * What the commands that drive a running sandbox share: its address, resolved as every command
 * resolves its target (PAYORDER_CHECKOUT_URL, else `sandbox.<version>.checkout-url`, else the
 * default http://127.0.0.1:4010), and the control client for it.
 */
import { SandboxControl } from '../../api/sandbox-control.js';
import type { Context } from '../../context.js';
import { checkBaseUrl } from '../../contract/urls.js';
import { escapeControl } from '../../output/terminal-text.js';
import { findAddress, resolveProfile, resolveVersion } from '../../session/target.js';
import { timeoutSeconds } from '../../variables.js';

/** The sandbox's address: the sandbox environment's checkout address. */
export async function sandboxAddress(ctx: Context): Promise<string> {
  const data = (await ctx.store()).read();
  const version = resolveVersion(ctx, {}, data, 'sandbox');
  // findAddress always has one for the sandbox: its default.
  const { url, from } = findAddress(ctx, data, 'sandbox', version, 'checkout', resolveProfile(ctx, {}))!;
  return checkBaseUrl(from, url);
}

/** The control client of the sandbox at `base`. */
export function sandboxControl(base: string, ctx: Context): SandboxControl {
  return new SandboxControl(base, {
    timeoutMs: timeoutSeconds(ctx.env) * 1000,
    trace: ctx.flags.debug ? (line) => ctx.io.stderr.write(`[debug] ${escapeControl(line)}\n`) : undefined,
    secrets: [],
    signal: ctx.signal,
    refusalRetries: 0,
  });
}
