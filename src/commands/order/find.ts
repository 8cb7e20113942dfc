/**
 * `payorder order find`: the orders of the order ledger (those payorder created, and those
 * `payorder ledger import` added) by external reference, description, amount, day, status or
 * outcome, newest first, shown as `order get` shows orders. This file declares the command;
 * find.run.ts does the work.
 */
import { type Command, Option } from 'commander';
import {
  conventions,
  examples,
  insecureHttpOption,
  outputOptions,
  targetOptions,
} from '../../cli/options.js';
import type { Context } from '../../context.js';
import type { OrderFindFlags } from './find.run.js';

export function registerOrderFind(order: Command, ctx: Context): void {
  const command = order
    .command('find')
    .summary('find orders in the order ledger by reference, text, amount or day')
    .description(
      'Find orders in the order ledger: the orders payorder created (one by one or in a batch) and those ' +
        '`payorder ledger import` added, on the profile and environment (and --api, when given). Every criterion ' +
        'given must hold; newest first. Statuses are as last seen: --refresh looks each order found up and ' +
        'updates the ledger. Exits 1 when no order matches.',
    )
    .option('--ref <reference>', 'the external reference, exactly')
    .option('--text <text>', 'the description contains this text (any case)')
    .option('--amount <decimal>', 'the amount in major units, e.g. 12.50')
    .option('--since <date>', 'sent on or after this day (YYYY-MM-DD, UTC) or time (ISO 8601)')
    .option('--until <date>', 'sent before the end of this day (YYYY-MM-DD, UTC) or before this time')
    .option('--status <status>', 'the status last seen, e.g. PENDING, PAID, FAILED')
    .addOption(
      new Option('--outcome <outcome>', 'what came of sending it').choices(['created', 'failed', 'unknown']),
    )
    .option('--limit <n>', 'at most this many orders', '20')
    .option('--refresh', 'look each order found up and update the ledger with its status');
  targetOptions(command);
  insecureHttpOption(command);
  outputOptions(command);
  conventions(command);
  examples(command, [
    ['the customer has the shop order number', 'payorder order find --ref WEB-1003'],
    ['what did we charge 12.50 for last week?', 'payorder order find --amount 12.50 --since 2026-11-16'],
    [
      'orders sent that got no answer: check them in the merchant panel',
      'payorder order find --outcome unknown',
    ],
    ['is it paid now?', 'payorder order find --ref WEB-1003 --refresh --field status'],
  ]);
  command.action(async (flags: OrderFindFlags) => {
    const run = await import('./find.run.js');
    const options = await run.parseOrderFindOptions(flags, ctx);
    await run.renderOrderFind(await run.runOrderFind(options, ctx), options, ctx);
  });
}
