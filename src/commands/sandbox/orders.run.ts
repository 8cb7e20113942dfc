/**
 * `payorder sandbox orders`, the work: the orders of the running sandbox, filtered, shown as
 * `order get` shows orders (the same JSON shape, table and --field), each with what only the
 * sandbox knows: its owner, its description and when it was made.
 */
import type { SandboxOrderView } from '../../api/sandbox-control.js';
import { type OutputFlags, parseOutputOptions } from '../../cli/options.js';
import type { Context } from '../../context.js';
import { ORDER_STATES } from '../../contract/fields.js';
import { usageError } from '../../errors.js';
import type { OutputOptions } from '../../output/formats.js';
import { duration } from '../../values.js';
import { renderOrderViews, sandboxAddress, sandboxControl } from './shared.js';

export interface SandboxOrdersFlags extends OutputFlags {
  status?: string;
  owner?: string;
  limit?: string;
  since?: string;
}

export interface SandboxOrdersOptions {
  status?: string;
  owner?: string;
  /** At most this many orders: the newest ones. */
  limit?: number;
  /** Only orders made at this time or later. */
  since?: Date;
  output: OutputOptions;
}

const STATES: readonly string[] = Object.values(ORDER_STATES);
/** The fields each listed order comes with beyond the order's own. */
export const SANDBOX_ORDER_EXTRA = ['owner', 'description', 'created_at'] as const;

function parseStatus(given: string | undefined): string | undefined {
  if (given === undefined) return undefined;
  const status = given.trim().toUpperCase();
  if (!STATES.includes(status))
    throw usageError(`--status: must be one of ${STATES.join(', ')}, got ${JSON.stringify(given)}`, {
      field: '--status',
    });
  return status;
}

function parseLimit(given: string | undefined): number | undefined {
  if (given === undefined) return undefined;
  if (!/^[1-9]\d{0,8}$/.test(given.trim()))
    throw usageError(`--limit: must be a whole number from 1, got ${JSON.stringify(given)}`, {
      field: '--limit',
    });
  return Number(given.trim());
}

/** --since: an ISO date or time, or a duration before now (30m, 2h, 48h). */
function parseSince(given: string | undefined, now: Date): Date | undefined {
  if (given === undefined) return undefined;
  if (/^\d{4}-\d\d-\d\d([T ]\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:?\d\d)?)?$/.test(given.trim())) {
    const date = new Date(given.trim());
    if (!Number.isNaN(date.getTime())) return date;
  }
  if (/^\d/.test(given.trim()) && !given.includes('-'))
    return new Date(now.getTime() - duration('--since', 1, 720 * 3600)(given.trim()));
  throw usageError(
    `--since: must be a date (2026-11-26, 2026-11-26T09:00Z) or a duration before now (30m, 2h), got ${JSON.stringify(given)}`,
    { field: '--since' },
  );
}

export function parseSandboxOrdersOptions(flags: SandboxOrdersFlags, ctx: Context): SandboxOrdersOptions {
  return {
    status: parseStatus(flags.status),
    owner: flags.owner,
    limit: parseLimit(flags.limit),
    since: parseSince(flags.since, ctx.clock()),
    output: parseOutputOptions(flags),
  };
}

export async function runSandboxOrders(
  options: SandboxOrdersOptions,
  ctx: Context,
): Promise<SandboxOrderView[]> {
  const orders = await (await sandboxControl(await sandboxAddress(ctx), ctx)).orders();
  const since = options.since?.getTime();
  const kept = orders.filter(
    (view) =>
      (options.status === undefined || view.order.status === options.status) &&
      (options.owner === undefined || view.owner === options.owner) &&
      (since === undefined || (view.createdAt !== undefined && Date.parse(view.createdAt) >= since)),
  );
  return options.limit === undefined ? kept : kept.slice(-options.limit);
}

export async function renderSandboxOrders(
  views: SandboxOrderView[],
  options: SandboxOrdersOptions,
  ctx: Context,
): Promise<void> {
  await renderOrderViews(views, options.output, false, ctx, SANDBOX_ORDER_EXTRA);
}
