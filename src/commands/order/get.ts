/**
 * `payorder order get ID…`: looks orders up by uuid (both versions) or by the v1 order id; many at
 * once from arguments or --input, in input order. This file declares the command; get.run.ts does
 * the work.
 */
import type { Command } from 'commander';
import { concurrencyOption, conventions, examples, outputOptions, targetOptions } from '../../cli/options.js';
import type { Context } from '../../context.js';
import type { OrderGetFlags } from './get.run.js';

export function registerOrderGet(order: Command, ctx: Context): void {
  const command = order
    .command('get')
    .summary('look orders up by uuid or v1 id')
    .description(
      'Look orders up: by uuid on both versions, or by the v1 order id (a resource path such as /1/order/abc is ' +
        'reduced to its last segment). Several ids, or --input with one per line, for bulk lookups.',
    )
    .argument('[id...]', 'order uuids or v1 ids')
    .option('--input <file>', 'read ids from this file, one per line (- for stdin)');
  concurrencyOption(command, 'lookups in flight at once');
  targetOptions(command);
  outputOptions(command);
  conventions(command);
  examples(command, [
    ['what happened to this order?', 'payorder order get 3f0c6a1e-8d2b-4f7a-9c1e-2b6d5a4e7f10'],
    ['a v1 order by its id', 'payorder order get --api v1 /1/order/9a8b7c6d5e4f3a2b'],
    [
      'statuses of many orders',
      'cut -f1 orders.tsv | payorder order get --input - -o tsv --no-headers | cut -f1,4',
    ],
  ]);
  command.action(async (ids: string[], flags: OrderGetFlags) => {
    const run = await import('./get.run.js');
    const options = await run.parseOrderGetOptions(ids, flags, ctx);
    await run.renderOrderGet(await run.runOrderGet(options, ctx), options, ctx);
  });
}
