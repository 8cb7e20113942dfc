/**
 * `payorder order get`, the work: ids from arguments and --input, looked up with bounded
 * concurrency and shown in input order, every id with its row (an order, or what became of the
 * lookup); a failed lookup is also reported through the one error renderer and makes the command
 * fail once every id has been tried. With --wait, one order is looked up until it leaves PENDING.
 */
import type { OrderResult, Target } from '../../api/service.js';
import {
  type OutputFlags,
  parseConcurrency,
  parseOutputOptions,
  parseWaitOptions,
  type WaitFlags,
} from '../../cli/options.js';
import { type Context, withConnections } from '../../context.js';
import { CliError, usageError } from '../../errors.js';
import { type LedgerFlags, ledgerChoice } from '../../ledger/choice.js';
import type { SeenStatuses } from '../../ledger/seen.js';
import { openInput } from '../../orders/input-file.js';
import { readLines } from '../../orders/input-lines.js';
import { checkOrderId, idsOfLines, notFoundHint } from '../../orders/order-ids.js';
import { orderedPool } from '../../orders/ordered-pool.js';
import type { Waited, WaitPlan } from '../../orders/wait.js';
import type { OutputFormat, OutputOptions } from '../../output/formats.js';
import { createOrderWriter } from '../../output/order-writer.js';
import type { LinkRequests } from '../../output/payment-link.js';
import { chooseFormat, renderError } from '../../output/render.js';
import { requireCredentials } from '../../session/credentials.js';
import { openSession } from '../../session/session.js';
import { resolveTarget, type TargetFlags } from '../../session/target.js';

export interface OrderGetFlags extends TargetFlags, OutputFlags, WaitFlags, LedgerFlags {
  /** A file to read, or false for --no-input (which shares the name: never prompt). */
  input?: string | false;
  concurrency: string;
  web?: boolean;
  qr?: boolean;
}

interface GetCommon {
  target: Target;
  output: OutputOptions;
  storedOutput?: OutputFormat;
  /** --web and --qr: the payment link of the one order looked up. */
  link: LinkRequests;
  /** The target flags, for trying the other API version when an order is not found. */
  flags: TargetFlags;
  /** Whether the statuses seen update the order ledger (when it holds the order). */
  ledger: boolean;
}

/** Ids looked up once each; or, with --wait, the one order looked up until it leaves PENDING. */
export type OrderGetOptions =
  | (GetCommon & { kind: 'lookups'; ids: string[]; input?: string; concurrency: number })
  | (GetCommon & { kind: 'wait'; id: string; wait: WaitPlan });

export async function parseOrderGetOptions(
  ids: string[],
  flags: OrderGetFlags,
  ctx: Context,
): Promise<OrderGetOptions> {
  const input = typeof flags.input === 'string' ? flags.input : undefined;
  if (ids.length === 0 && input === undefined)
    throw usageError('give at least one order id or uuid, or --input FILE');
  const concurrency = parseConcurrency(flags.concurrency);
  const wait = parseWaitOptions(flags);
  const [first, ...others] = ids;
  if (wait && (first === undefined || others.length > 0 || input !== undefined))
    throw usageError('--wait follows one order: give one uuid (or v1 id), not several ids or --input', {
      field: '--wait',
    });
  for (const id of ids) checkOrderId(id);
  const link = { web: Boolean(flags.web), qr: Boolean(flags.qr) };
  if ((link.web || link.qr) && (ids.length !== 1 || input !== undefined))
    throw usageError(
      `${link.web ? '--web' : '--qr'} shows the payment link of one order: give one uuid (or v1 id)`,
      {
        field: link.web ? '--web' : '--qr',
      },
    );
  const output = parseOutputOptions(flags);
  const data = (await ctx.store()).read();
  const target = resolveTarget(ctx, flags, data);
  requireCredentials(ctx, data, target);
  const ledger = ledgerChoice(flags, data).keep;
  const common = { target, output, storedOutput: data.defaults?.output, link, flags, ledger };
  if (wait && first !== undefined) return { ...common, kind: 'wait', id: first, wait };
  return { ...common, kind: 'lookups', ids, input, concurrency };
}

async function* idsFrom(args: string[], input: string | undefined, ctx: Context): AsyncGenerator<string> {
  yield* args;
  if (input === undefined) return;
  // Lines are read by bytes with a length limit: `--input /dev/zero` is refused, not read forever.
  const label = input === '-' ? 'stdin' : input;
  yield* idsOfLines(readLines(openInput(input, ctx.io.stdin, ctx.signal), label));
}

/** One id's lookup: the order it gave, or the error that says why there is none. */
export type Lookup = { input: string } & ({ found: OrderResult } | { error: CliError });

export type OrderGetResult =
  | { kind: 'lookups'; lookups: AsyncGenerator<Lookup> }
  | {
      kind: 'waited';
      input: string;
      waited: Waited;
      /** The order left PENDING unpaid, or was still PENDING at the timeout. */
      unpaid?: CliError;
    };

/** A "not found" with the hint its id calls for: the other --api, or that only ids are looked up. */
function withHint(error: unknown, id: string, target: Target): unknown {
  if (!(error instanceof CliError) || error.kind !== 'not_found') return error;
  return new CliError('not_found', error.message, { ...error.details, hint: notFoundHint(id, target) });
}

/** Each id's lookup, in input order; or, with --wait, the one order once it has left PENDING. */
export async function runOrderGet(options: OrderGetOptions, ctx: Context): Promise<OrderGetResult> {
  if (options.kind === 'wait') {
    const session = await openSession(ctx, options.target);
    const input = options.id;
    try {
      // Waiting (its spinner and timing) is loaded only for --wait.
      const { orderLookup, waitError, waitForPayment } = await import('../../orders/wait.js');
      const key = checkOrderId(input);
      // The payer needs the link (its QR code, the browser) while payorder waits: shown at the first answer.
      const plan = {
        ...options.wait,
        target: options.target,
        onFirstAnswer: (found: OrderResult) => showLink(found, options, ctx),
      };
      const waited = await waitForPayment(ctx, orderLookup(session, key), plan, { key });
      const seen = await seenIn(options, ctx);
      await seen?.note(options.target, waited.order);
      seen?.close();
      return { kind: 'waited', input, waited, unpaid: waitError(waited, plan) };
    } catch (error) {
      throw withHint(error, input, options.target);
    }
  }
  // Ids from a file are many: they go through a keep-alive agent sized to --concurrency.
  const session = await openSession(
    options.input === undefined ? ctx : withConnections(ctx, options.concurrency),
    options.target,
  );
  let seen: Promise<SeenStatuses | undefined> | undefined;
  const lookup = async (input: string): Promise<Lookup> => {
    try {
      const key = checkOrderId(input);
      const found = await session.authorized((token) => session.client.getOrder(token, key));
      // The ledger is opened after the first answer: a lookup never waits for it.
      seen ??= seenIn(options, ctx);
      await (await seen)?.note(options.target, found.order);
      return { input, found };
    } catch (error) {
      const failure = withHint(error, input, options.target);
      if (!(failure instanceof CliError)) throw failure;
      if (failure.kind === 'not_found' && isSingle(options)) return fallBack(options, ctx, input, failure);
      return { input, error: failure };
    }
  };
  const lookups = orderedPool(idsFrom(options.ids, options.input, ctx), lookup, {
    concurrency: options.concurrency,
    signal: ctx.signal,
  });
  return { kind: 'lookups', lookups: closing(lookups, () => void seen?.then((open) => open?.close())) };
}

/** The order ledger's statuses, when the command keeps it. */
async function seenIn(options: OrderGetOptions, ctx: Context): Promise<SeenStatuses | undefined> {
  return options.ledger ? (await import('../../ledger/seen.js')).seenStatuses(ctx) : undefined;
}

/** One id not found: the other API version, then the ledger's hint (get.fallback.ts). */
async function fallBack(
  options: OrderGetOptions,
  ctx: Context,
  input: string,
  error: CliError,
): Promise<Lookup> {
  const { afterNotFound } = await import('./get.fallback.js');
  const after = await afterNotFound(ctx, options.flags, options.target, input, error, {
    ledger: options.ledger,
  });
  if ('error' in after) return { input, error: after.error };
  const seen = await seenIn(options, ctx);
  await seen?.note(after.target, after.found.order);
  seen?.close();
  return { input, found: after.found };
}

/** `lookups`, then `done` once they are all taken (or the taking stops). */
async function* closing<T>(lookups: AsyncGenerator<T>, done: () => void): AsyncGenerator<T> {
  try {
    yield* lookups;
  } finally {
    done();
  }
}

/** --qr and --web for the order found: the QR code on stdout when stdout shows a table, else on stderr. */
async function showLink(found: OrderResult, options: OrderGetOptions, ctx: Context): Promise<void> {
  if (!options.link.web && !options.link.qr) return;
  const format = chooseFormat(ctx, { asked: options.output.format, stored: options.storedOutput });
  const stdoutIsData = format !== 'table' || options.output.field !== undefined || options.output.raw;
  const { showPaymentLink } = await import('../../output/payment-link.js');
  await showPaymentLink(ctx, found.order.links.checkout, options.link, { stdoutIsData });
}

const isSingle = (options: OrderGetOptions) =>
  options.kind === 'wait' || (options.ids.length === 1 && options.input === undefined);

export async function renderOrderGet(
  result: OrderGetResult,
  options: OrderGetOptions,
  ctx: Context,
): Promise<void> {
  const format = chooseFormat(ctx, { asked: options.output.format, stored: options.storedOutput });
  const single = isSingle(options);
  const writer = await createOrderWriter(ctx, options.output, format, { of: 'lookup', single });
  if (result.kind === 'waited') {
    const { waited, input } = result;
    writer.order(waited.order, waited.raw, input);
    await writer.end();
    if (result.unpaid) throw result.unpaid;
    return;
  }
  let worst: CliError | undefined;
  let failures = 0;
  let found: OrderResult | undefined;
  try {
    for await (const lookup of result.lookups) {
      if ('found' in lookup) {
        writer.order(lookup.found.order, lookup.found.raw, lookup.input);
        if (single) found = lookup.found;
      } else {
        const { error } = lookup;
        failures++;
        if (!worst || error.exitCode > worst.exitCode) worst = error;
        writer.miss({
          input: lookup.input,
          outcome: error.kind === 'not_found' ? 'not_found' : 'failed',
          order: null,
          error: error.toJSON().error,
        });
        // One id alone: its error is the command's, said once by the entry point.
        if (!single) renderError(ctx, error);
      }
      await writer.ready();
    }
  } finally {
    await writer.end();
  }
  if (found) await showLink(found, options, ctx);
  if (ctx.signal.aborted)
    throw ctx.signal.reason === 'EPIPE'
      ? new CliError('closed_pipe', 'stdout was closed: stopped looking orders up')
      : new CliError('interrupted', 'interrupted: stopped looking orders up');
  if (worst && single) throw worst;
  if (worst)
    throw new CliError(worst.kind, `${failures} lookup${failures === 1 ? '' : 's'} failed`, {
      hint: worst.details.hint,
    });
}
