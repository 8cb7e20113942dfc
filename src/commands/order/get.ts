/**
 * `payorder order get ID…`: looks orders up by uuid (both versions) or by the v1 order id; many at
 * once from arguments or --input, in input order, a row for every id; or one until it is paid
 * (--wait). This file declares the command; get.run.ts does the work.
 */
import type { Command } from 'commander';
import {
  concurrencyOption,
  conventions,
  examples,
  insecureHttpOption,
  outputOptions,
  targetOptions,
  waitOptions,
} from '../../cli/options.js';
import type { Context } from '../../context.js';
import { EXIT } from '../../errors.js';
import type { OrderGetFlags } from './get.run.js';

export function registerOrderGet(order: Command, ctx: Context): void {
  const command = order
    .command('get')
    .summary('look orders up by uuid or v1 id')
    .description(
      'Look orders up: by uuid on both versions, or by the v1 order id (a resource path such as /1/order/abc is ' +
        'reduced to its last segment). Several ids, or --input with one per line, for bulk lookups: every id ' +
        'gets a row, in input order, one that gave no order with outcome not_found or failed. --wait looks one ' +
        'order up until it leaves PENDING and exits by how it ended.',
    )
    .argument('[id...]', 'order uuids or v1 ids')
    .option(
      '--input <file>',
      "read ids from this file, one per line, or payorder's own -o tsv output (its uuid column) (- for stdin)",
    );
  command
    .option('--web', "open the order's payment link in the browser ($BROWSER, else the system default)")
    .option('--qr', "print the order's payment link as a QR code (on stderr when stdout carries data)")
    .option('--no-ledger', 'leave the order ledger as it is (by default the statuses seen update it)');
  concurrencyOption(command, 'lookups in flight at once');
  waitOptions(command, 'look the order up until it leaves PENDING (a spinner on a terminal), then print it');
  targetOptions(command);
  insecureHttpOption(command);
  outputOptions(command);
  conventions(command);
  examples(command, [
    ['what happened to this order?', 'payorder order get 3f0c6a1e-8d2b-4f7a-9c1e-2b6d5a4e7f10'],
    ['a v1 order by its id', 'payorder order get --api v1 /1/order/9a8b7c6d5e4f3a2b'],
    [
      'statuses of many orders',
      'cut -f1 orders.tsv | payorder order get --input - -o tsv --no-headers | cut -f1,4',
    ],
    [
      'show the customer the payment link again, as a QR code',
      'payorder order get 3f0c6a1e-8d2b-4f7a-9c1e-2b6d5a4e7f10 --qr',
    ],
    [
      'wait until the customer has paid (at most 30 minutes)',
      'payorder order get 3f0c6a1e-8d2b-4f7a-9c1e-2b6d5a4e7f10 --wait --timeout 30m && echo paid',
    ],
  ]);
  command.addHelpText(
    'after',
    `Exit codes with --wait:\n  ${EXIT.ok}  paid\n  ${EXIT.paymentFailed}  failed (or another status but PAID and REFUNDED)\n` +
      `  ${EXIT.refunded}  refunded\n  ${EXIT.waitTimedOut}  still PENDING when --timeout ran out\n`,
  );
  command.action(async (ids: string[], flags: OrderGetFlags) => {
    const run = await import('./get.run.js');
    const options = await run.parseOrderGetOptions(ids, flags, ctx);
    await run.renderOrderGet(await run.runOrderGet(options, ctx), options, ctx);
  });
}
