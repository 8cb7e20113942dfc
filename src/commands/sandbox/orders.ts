/** `payorder sandbox orders`: every order a running sandbox holds. orders.run.ts does the work. */
import type { Command } from 'commander';
import { conventions, examples, type OutputFlags, outputOptions } from '../../cli/options.js';
import type { Context } from '../../context.js';

export function registerSandboxOrders(sandbox: Command, ctx: Context): void {
  const command = sandbox
    .command('orders')
    .summary('list the orders of a running sandbox')
    .description(
      'List every order the running sandbox holds, oldest first, on both versions and of every account ' +
        '(its address: PAYORDER_CHECKOUT_URL, sandbox.v2.checkout-url, else http://127.0.0.1:4010).',
    )
    .option('--status <state>', 'only orders in this state, e.g. PENDING')
    .option('--owner <username>', 'only the orders of this account');
  outputOptions(command);
  conventions(command);
  examples(command, [
    ['every order', 'payorder sandbox orders'],
    [
      'pay every pending order',
      'payorder sandbox orders --status PENDING --field uuid | xargs -n1 payorder sandbox pay',
    ],
    [
      'counts by status',
      'payorder sandbox orders --json | jq -r \'group_by(.status)[] | "\\(.[0].status) \\(length)"\'',
    ],
  ]);
  command.action(async (flags: OutputFlags & { status?: string; owner?: string }) => {
    const run = await import('./orders.run.js');
    const options = run.parseSandboxOrdersOptions(flags);
    await run.renderSandboxOrders(await run.runSandboxOrders(options, ctx), options, ctx);
  });
}
