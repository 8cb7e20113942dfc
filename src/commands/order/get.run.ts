/**
 * `payorder order get`, the work: ids from arguments and --input, looked up with bounded
 * concurrency and shown in input order; a failed lookup is reported through the one error
 * renderer and makes the command fail once every id has been tried.
 */
import type { OrderResult, Target } from '../../api/service.js';
import { openInput } from '../../cli/input-file.js';
import { type OutputFlags, parseConcurrency, parseOutputOptions } from '../../cli/options.js';
import { type Context, withConnections } from '../../context.js';
import { CliError, usageError } from '../../errors.js';
import { readLines } from '../../orders/input-lines.js';
import { orderedPool } from '../../orders/ordered-pool.js';
import type { OutputFormat, OutputOptions } from '../../output/formats.js';
import { createOrderWriter } from '../../output/order-writer.js';
import { chooseFormat, renderError } from '../../output/render.js';
import { requireCredentials } from '../../session/credentials.js';
import { openSession } from '../../session/session.js';
import { resolveTarget, type TargetFlags } from '../../session/target.js';

export interface OrderGetFlags extends TargetFlags, OutputFlags {
  /** A file to read, or false for --no-input (which shares the name: never prompt). */
  input?: string | false;
  concurrency: string;
}

export interface OrderGetOptions {
  ids: string[];
  input?: string;
  concurrency: number;
  target: Target;
  output: OutputOptions;
  storedOutput?: OutputFormat;
}

/** "/1/order/abc" → "abc": a resource path is reduced to its last segment. */
export function orderKey(id: string): string {
  const trimmed = id.trim().replace(/\/+$/, '');
  return trimmed.slice(trimmed.lastIndexOf('/') + 1);
}

/**
 * The id to look up, or a usage error: an empty id, "." and "..", dot segments and control
 * characters would make the lookup address point elsewhere (with the token attached).
 */
export function checkOrderId(id: string): string {
  const key = orderKey(id);
  if (
    key === '' ||
    /[\u0000-\u001f\u007f]/.test(id) ||
    id.split('/').some((part) => part === '.' || part === '..')
  )
    throw usageError(`${JSON.stringify(id)} is not an order id`, {
      field: 'id',
      hint: 'give the uuid of the order (v1 also takes its id or resource path)',
    });
  return key;
}

export async function parseOrderGetOptions(
  ids: string[],
  flags: OrderGetFlags,
  ctx: Context,
): Promise<OrderGetOptions> {
  const input = typeof flags.input === 'string' ? flags.input : undefined;
  if (ids.length === 0 && input === undefined)
    throw usageError('give at least one order id or uuid, or --input FILE');
  const concurrency = parseConcurrency(flags.concurrency);
  for (const id of ids) checkOrderId(id);
  const output = parseOutputOptions(flags);
  const data = (await ctx.store()).read();
  const target = resolveTarget(ctx, flags, data);
  requireCredentials(ctx, data, target.env);
  return { ids, input, concurrency, target, output, storedOutput: data.defaults?.output };
}

async function* idsFrom(args: string[], input: string | undefined, ctx: Context): AsyncGenerator<string> {
  yield* args;
  if (input === undefined) return;
  // Lines are read by bytes with a length limit: `--input /dev/zero` is refused, not read forever.
  const label = input === '-' ? 'stdin' : input;
  for await (const { text } of readLines(openInput(input, ctx.io.stdin, ctx.signal), label)) {
    if (text.trim() !== '' && !text.trim().startsWith('#')) yield text.trim();
  }
}

/** Each lookup's order or error, in input order. One id alone throws its error instead. */
export async function runOrderGet(
  options: OrderGetOptions,
  ctx: Context,
): Promise<AsyncGenerator<OrderResult | CliError>> {
  // Ids from a file are many: they go through a keep-alive agent sized to --concurrency.
  const session = await openSession(
    options.input === undefined ? ctx : withConnections(ctx, options.concurrency),
    options.target,
  );
  const single = isSingle(options);
  const lookup = async (id: string) => {
    try {
      const key = checkOrderId(id);
      return await session.authorized((token) => session.client.getOrder(token, key));
    } catch (error) {
      if (single || !(error instanceof CliError)) throw error;
      return error;
    }
  };
  return orderedPool(idsFrom(options.ids, options.input, ctx), lookup, {
    concurrency: options.concurrency,
    signal: ctx.signal,
  });
}

const isSingle = (options: OrderGetOptions) => options.ids.length === 1 && options.input === undefined;

export async function renderOrderGet(
  results: AsyncIterable<OrderResult | CliError>,
  options: OrderGetOptions,
  ctx: Context,
): Promise<void> {
  const format = chooseFormat(ctx, { asked: options.output.format, stored: options.storedOutput });
  const writer = createOrderWriter(ctx, options.output, format, { single: isSingle(options), batch: false });
  let worst: CliError | undefined;
  let failures = 0;
  try {
    for await (const result of results) {
      if (result instanceof CliError) {
        failures++;
        if (!worst || result.exitCode > worst.exitCode) worst = result;
        renderError(ctx, result);
        continue;
      }
      writer.order(result.order, result.raw);
      await writer.ready();
    }
  } finally {
    await writer.end();
  }
  if (ctx.signal.aborted)
    throw ctx.signal.reason === 'EPIPE'
      ? new CliError('closed_pipe', 'stdout was closed: stopped looking orders up')
      : new CliError('interrupted', 'interrupted: stopped looking orders up');
  if (worst)
    throw new CliError(worst.kind, `${failures} lookup${failures === 1 ? '' : 's'} failed`, {
      hint: worst.details.hint,
    });
}
