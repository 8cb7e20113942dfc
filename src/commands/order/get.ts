/**
 * `payorder order get ID…`: looks orders up by uuid (both versions) or by the v1 order id; many at
 * once from arguments or --input, in input order.
 */
import type { Command } from 'commander';
import { withConventions, withExamples, withOutput, withTarget } from '../../cli/shared-options.js';
import type { Context } from '../../context.js';
import { CliError, usageError } from '../../errors.js';
import type { OutputFlags } from '../../output/formats.js';
import { errorLine } from '../../output/messages.js';
import type { TargetFlags } from '../../session/target.js';

export interface GetFlags extends TargetFlags, OutputFlags {
  /** A file to read, or false for --no-input (which shares the name: never prompt). */
  input?: string | false;
  concurrency: string;
}

/** "/1/order/abc" → "abc": a resource path is reduced to its last segment. */
export function orderKey(id: string): string {
  const trimmed = id.trim().replace(/\/+$/, '');
  return trimmed.slice(trimmed.lastIndexOf('/') + 1);
}

async function* idsFrom(args: string[], input: string | undefined, ctx: Context): AsyncGenerator<string> {
  yield* args;
  if (input === undefined) return;
  const { createInterface } = await import('node:readline');
  const { openInput } = await import('../../orders/batch-input.js');
  const stream = openInput(input, ctx.io.stdin);
  for await (const line of createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY })) {
    if (line.trim() !== '' && !line.trim().startsWith('#')) yield line.trim();
  }
}

export async function runOrderGet(ids: string[], flags: GetFlags, ctx: Context): Promise<void> {
  const input = typeof flags.input === 'string' ? flags.input : undefined;
  if (ids.length === 0 && input === undefined)
    throw usageError('give at least one order id or uuid, or --input FILE');
  const concurrency = Number(flags.concurrency);
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 64) {
    throw usageError('--concurrency: must be a whole number from 1 to 64', { field: '--concurrency' });
  }
  for (const id of ids)
    if (orderKey(id) === '') throw usageError(`"${id}" is not an order id`, { field: 'id' });
  const { openSession } = await import('../../session/session.js');
  const { createOrderWriter } = await import('../../output/order-writer.js');
  const { orderedPool } = await import('../../orders/ordered-pool.js');
  const session = await openSession(ctx, flags);
  const single = ids.length === 1 && input === undefined;
  const writer = createOrderWriter(
    ctx,
    flags,
    { single, batch: false },
    (await ctx.store()).read().defaults?.output,
  );
  const lookup = async (id: string) => {
    try {
      return await session.authorized((token) => session.client.getOrder(token, orderKey(id)));
    } catch (error) {
      if (single || !(error instanceof CliError)) throw error;
      return error;
    }
  };
  let worst: CliError | undefined;
  let failures = 0;
  try {
    for await (const result of orderedPool(idsFrom(ids, input, ctx), lookup, {
      concurrency,
      stopped: () => ctx.signal.aborted,
    })) {
      if (result instanceof CliError) {
        failures++;
        if (!worst || result.exitCode > worst.exitCode) worst = result;
        if (ctx.flags.json) ctx.io.stderr.write(`${JSON.stringify(result.toJSON())}\n`);
        else errorLine(ctx, result.message);
        continue;
      }
      writer.order(result.order, result.raw);
    }
  } finally {
    await writer.end();
  }
  if (worst)
    throw new CliError(worst.kind, `${failures} lookup${failures === 1 ? '' : 's'} failed`, {
      hint: worst.details.hint,
    });
}

export function registerOrderGet(order: Command, ctx: Context): void {
  const command = order
    .command('get')
    .summary('look orders up by uuid or v1 id')
    .description(
      'Look orders up: by uuid on both versions, or by the v1 order id (a resource path such as /1/order/abc is ' +
        'reduced to its last segment). Several ids, or --input with one per line, for bulk lookups.',
    )
    .argument('[id...]', 'order uuids or v1 ids')
    .option('--input <file>', 'read ids from this file, one per line (- for stdin)')
    .option('--concurrency <n>', 'lookups in flight at once', '4');
  withTarget(command);
  withOutput(command);
  withConventions(command);
  withExamples(command, [
    ['what happened to this order?', 'payorder order get 3f0c6a1e-8d2b-4f7a-9c1e-2b6d5a4e7f10'],
    ['a v1 order by its id', 'payorder order get --api v1 /1/order/9a8b7c6d5e4f3a2b'],
    [
      'statuses of many orders',
      'cut -f1 orders.tsv | payorder order get --input - -o tsv --no-headers | cut -f1,4',
    ],
  ]);
  command.action((ids: string[], flags: GetFlags) => runOrderGet(ids, flags, ctx));
}
