/**
 * `payorder order find`, the work: the criteria checked (nothing is read before they all are), the
 * ledger searched, each order found looked up again with --refresh, and the orders shown through
 * the shared order writer as `order get` shows many (an order sent with no answer shows its outcome).
 */
import type { Target } from '../../api/service.js';
import { type OutputFlags, parseOutputOptions } from '../../cli/options.js';
import type { Context } from '../../context.js';
import { AmountError, parseAmount } from '../../contract/money.js';
import type { Order } from '../../contract/schemas.js';
import { CliError, invalidField, usageError } from '../../errors.js';
import { ledgerChoice } from '../../ledger/choice.js';
import { parseDate } from '../../ledger/dates.js';
import { type LedgerEntry, type LedgerQuery, openLedger, orderOf } from '../../ledger/ledger.js';
import type { OutputFormat, OutputOptions } from '../../output/formats.js';
import { createOrderWriter } from '../../output/order-writer.js';
import { chooseFormat, renderError } from '../../output/render.js';
import type { Session } from '../../session/session.js';
import { resolveEnv, resolveProfile, resolveTarget, type TargetFlags } from '../../session/target.js';
import { wholeNumber } from '../../values.js';

export interface OrderFindFlags extends TargetFlags, OutputFlags {
  ref?: string;
  text?: string;
  amount?: string;
  since?: string;
  until?: string;
  status?: string;
  outcome?: 'created' | 'failed' | 'unknown';
  limit: string;
  refresh?: boolean;
}

export interface OrderFindOptions {
  query: LedgerQuery;
  refresh: boolean;
  flags: TargetFlags;
  output: OutputOptions;
  storedOutput?: OutputFormat;
}

export const MAX_LIMIT = 10_000;

export async function parseOrderFindOptions(flags: OrderFindFlags, ctx: Context): Promise<OrderFindOptions> {
  const limit = wholeNumber('--limit', 1, MAX_LIMIT)(flags.limit);
  let amountCents: bigint | undefined;
  try {
    amountCents = flags.amount === undefined ? undefined : parseAmount(flags.amount.trim());
  } catch (error) {
    if (error instanceof AmountError) throw invalidField('--amount', error.rule);
    throw error;
  }
  const since = flags.since === undefined ? undefined : parseDate('--since', flags.since);
  const until = flags.until === undefined ? undefined : parseDate('--until', flags.until, { endOfDay: true });
  if (since && until && since >= until)
    throw usageError(`--since ${flags.since} is not before --until ${flags.until}`, { field: '--until' });
  for (const [name, value] of [
    ['--ref', flags.ref],
    ['--text', flags.text],
    ['--status', flags.status],
  ] as const)
    if (value !== undefined && value.trim() === '') throw invalidField(name, 'must not be empty');
  const output = parseOutputOptions(flags);
  if (output.raw)
    throw usageError("--raw prints the service's body; the ledger keeps none (drop --raw)", {
      field: '--raw',
    });
  const data = (await ctx.store()).read();
  if (!ledgerChoice({}, data).keep)
    throw new CliError(
      'config',
      'the order ledger is off (config ledger false): there is nothing to search',
      {
        field: 'ledger',
        hint: 'payorder config set ledger true keeps it from now on',
      },
    );
  const query: LedgerQuery = {
    profile: resolveProfile(ctx, flags),
    env: resolveEnv(ctx, flags, data),
    api: flags.api as LedgerQuery['api'],
    reference: flags.ref?.trim(),
    text: flags.text,
    amountCents,
    since,
    until,
    status: flags.status?.trim().toUpperCase(),
    outcome: flags.outcome,
    limit,
  };
  return { query, refresh: Boolean(flags.refresh), flags, output, storedOutput: data.defaults?.output };
}

/** An order found: the ledger's entry, and the order as the service shows it now with --refresh. */
export interface Found {
  entry: LedgerEntry;
  order?: Order;
  /** --refresh: why the order could not be looked up. */
  error?: CliError;
}

export async function runOrderFind(options: OrderFindOptions, ctx: Context): Promise<Found[]> {
  const ledger = await openLedger(ctx, { create: false });
  if (!ledger) return [];
  let entries: LedgerEntry[];
  try {
    entries = ledger.find(options.query);
  } finally {
    ledger.close();
  }
  const found: Found[] = entries.map((entry) => ({ entry, order: orderOf(entry) }));
  if (options.refresh) await refresh(found, options, ctx);
  return found;
}

/** Looks each order found up on its own version, and writes the statuses seen to the ledger. */
async function refresh(found: Found[], options: OrderFindOptions, ctx: Context): Promise<void> {
  const [{ openSession }, { seenStatuses }] = await Promise.all([
    import('../../session/session.js'),
    import('../../ledger/seen.js'),
  ]);
  const sessions = new Map<string, Promise<Session>>();
  const data = (await ctx.store()).read();
  const seen = seenStatuses(ctx);
  try {
    for (const item of found) {
      if (!item.entry.uuid) continue;
      try {
        const target: Target = resolveTarget(ctx, { ...options.flags, api: item.entry.api }, data);
        const opening = sessions.get(target.version) ?? openSession(ctx, target);
        sessions.set(target.version, opening);
        const session = await opening;
        const key = item.entry.uuid;
        const { order } = await session.authorized((token) => session.client.getOrder(token, key));
        item.order = order;
        await seen.note(target, order);
      } catch (error) {
        if (!(error instanceof CliError)) throw error;
        item.error = error;
      }
    }
  } finally {
    seen.close();
  }
}

export async function renderOrderFind(
  found: Found[],
  options: OrderFindOptions,
  ctx: Context,
): Promise<void> {
  const format = chooseFormat(ctx, { asked: options.output.format, stored: options.storedOutput });
  const writer = await createOrderWriter(ctx, options.output, format, { of: 'lookup', single: false });
  try {
    for (const { entry, order, error } of found) {
      const input = entry.external_reference ?? entry.description ?? '';
      if (error) renderError(ctx, new CliError(error.kind, `${entry.uuid}: ${error.message}`, error.details));
      if (order) writer.order(order, '', input);
      else {
        const unknown = entry.outcome === 'unknown';
        const message = entry.error ?? (unknown ? 'sent, no answer recorded' : 'failed');
        writer.miss({
          input,
          outcome: unknown ? 'unknown' : 'failed',
          order: null,
          error: new CliError(unknown ? 'outcome_unknown' : 'rejected', message).toJSON().error,
        });
      }
      await writer.ready();
    }
  } finally {
    await writer.end();
  }
  if (found.length === 0)
    throw new CliError('not_found', 'no order in the order ledger matches', {
      hint: 'the ledger holds the orders payorder created on this profile and environment; add others with payorder ledger import FILE',
    });
}
