/** `payorder sandbox orders`: every order a running sandbox holds. orders.run.ts does the work. */
import type { Command } from 'commander';
import { conventions, examples, outputOptions } from '../../cli/options.js';
import type { Context } from '../../context.js';
import type { SandboxOrdersFlags } from './orders.run.js';

export function registerSandboxOrders(sandbox: Command, ctx: Context): void {
  const command = sandbox
    .command('orders')
    .summary('list the orders of a running sandbox')
    .description(
      'List every order the running sandbox holds, oldest first, on both versions and of every account ' +
        '(its address: PAYORDER_CHECKOUT_URL, sandbox.v2.checkout-url, else http://127.0.0.1:4010). ' +
        'Each comes with its owner, description and created_at (JSON and TSV).',
    )
    .option('--status <state>', 'only orders in this state: PENDING, PAID, FAILED or REFUNDED (any case)')
    .option('--owner <username>', 'only the orders of this account')
    .option(
      '--since <when>',
      'only orders made since then: a date (2026-11-26) or a duration before now (2h)',
    )
    .option('--limit <n>', 'at most this many orders, the newest');
  outputOptions(command);
  conventions(command);
  examples(command, [
    ['every order', 'payorder sandbox orders'],
    ['the last 20 orders of the past hour', 'payorder sandbox orders --since 1h --limit 20'],
    [
      'pay every pending order',
      'payorder sandbox orders --status PENDING --field uuid | xargs -n1 payorder sandbox pay',
    ],
    [
      'counts by status',
      'payorder sandbox orders --json | jq -r \'group_by(.status)[] | "\\(.[0].status) \\(length)"\'',
    ],
  ]);
  command.action(async (flags: SandboxOrdersFlags) => {
    const run = await import('./orders.run.js');
    const options = run.parseSandboxOrdersOptions(flags, ctx);
    await run.renderSandboxOrders(await run.runSandboxOrders(options, ctx), options, ctx);
  });
}
