/**
 * `payorder order create`: one order from flags, or many from --input (NDJSON or CSV). Everything
 * is checked before any request; --dry-run shows the exact request and sends nothing. This file
 * declares the command; create.run.ts does the work.
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
import type { OrderCreateFlags } from './create.run.js';

export function registerOrderCreate(order: Command, ctx: Context): void {
  const command = order
    .command('create')
    .summary('create an order and get its payment link')
    .description(
      'Create a payment order and print it with its payment link. --amount is a decimal in major units on both ' +
        'versions (payorder sends "12.50" on v1 and "1250" on v2). With --input, create one order per line of an ' +
        'NDJSON or CSV file (columns: amount or amount_cents, description, success, fail, notification_url, ' +
        'external_reference), streaming, with a resumable --journal. On a terminal, payorder asks for a missing ' +
        'amount, description, success or fail link (each checked as it is typed) and, for production, shows ' +
        'the request and asks before sending it; with --no-input or without a terminal, missing flags are an error.',
    )
    .option('--amount <decimal>', 'amount in major units, at most 2 decimals, e.g. 12.50')
    .option('--description <text>', 'what the order is for')
    .option('--success <url>', 'where the payer goes after a successful payment')
    .option('--fail <url>', 'where the payer goes after a failed payment')
    .option('--notification-url <url>', 'where status notifications go')
    .option('--external-reference <ref>', 'your own id for the order (v2 only)')
    .option('--input <file>', 'create one order per line of this NDJSON or CSV file (- for stdin)');
  concurrencyOption(command, 'orders in flight at once with --input');
  command
    .option(
      '--journal <file>',
      'record each line in this file as it happens and skip lines already created on rerun (without it, payorder keeps a journal in its data folder)',
    )
    .option('--retry-unknown', 'with --input: send again lines whose earlier outcome is unknown')
    .option(
      '--again',
      'with --input and no --journal: create every line, even those an earlier batch created within batch-window',
    )
    .option(
      '--allow-duplicate-reference',
      'create the order even if an order that is PENDING or PAID (as last seen) has its external reference',
    )
    .option(
      '--no-ledger',
      'keep no record of the orders in the order ledger (or: payorder config set ledger false)',
    )
    .option('--dry-run', 'print the exact request (token masked) and send nothing')
    .option('--web', 'open the payment link in the browser ($BROWSER, else the system default)')
    .option('--qr', 'print the payment link as a QR code (on stderr when stdout carries data)');
  waitOptions(
    command,
    'show the payment link, then wait until the order leaves PENDING (exit codes as order get --wait)',
  );
  targetOptions(command);
  insecureHttpOption(command);
  outputOptions(command);
  conventions(command);
  examples(command, [
    [
      'a payment link on stage',
      'payorder order create --amount 12.50 --description "Invoice 42" --success https://shop.example/ok --fail https://shop.example/ko',
    ],
    [
      'just the link, for a script',
      'link=$(payorder order create --amount 5 --description Tea --success https://s.example/ok --fail https://s.example/ko --field links.checkout)',
    ],
    [
      'on a terminal: asked for what is missing, then a QR code to scan',
      'payorder order create --env sandbox --qr',
    ],
    [
      'a resumable batch from CSV',
      'payorder order create --input orders.csv --journal orders.journal -o ndjson > results.ndjson',
    ],
  ]);
  command.action(async (flags: OrderCreateFlags) => {
    const run = await import('./create.run.js');
    const options = await run.resolveOrderCreate(run.parseOrderCreateFlags(flags), ctx);
    await run.renderOrderCreate(await run.runOrderCreate(options, ctx), options, ctx);
  });
}
