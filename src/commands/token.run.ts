/**
 * `payorder token`, the work: a valid access token for the target, renewed when needed.
 */
import type { Target } from '../api/service.js';
import type { Context } from '../context.js';
import { openSession } from '../session/session.js';
import { resolveTarget, type TargetFlags } from '../session/target.js';

export interface TokenOptions {
  target: Target;
}

export async function parseTokenOptions(flags: TargetFlags, ctx: Context): Promise<TokenOptions> {
  return { target: resolveTarget(ctx, flags, (await ctx.store()).read()) };
}

export async function runToken(options: TokenOptions, ctx: Context): Promise<string> {
  return (await openSession(ctx, options.target)).token();
}

/** The token alone on stdout, whatever the terminal: it is meant for $(…) and pipes. */
export function renderToken(token: string, ctx: Context): void {
  ctx.io.stdout.write(`${token}\n`);
}
