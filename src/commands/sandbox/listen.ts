/**
 * `payorder sandbox listen`: receives a running sandbox's status notifications on this machine,
 * prints each one and forwards it to the merchant's handler. listen.run.ts does the work.
 */
import type { Command } from 'commander';
import { conventions, examples, jsonOption } from '../../cli/options.js';
import type { Context } from '../../context.js';
import type { ListenFlags } from './listen.run.js';

export function registerSandboxListen(sandbox: Command, ctx: Context): void {
  const command = sandbox
    .command('listen')
    .summary("print the sandbox's notifications and forward them to your handler")
    .description(
      'Receive every status notification of the running sandbox (pay, fail, refund, the control API) on a local ' +
        'port, print each one, and forward it unchanged to --forward-to: what your notification handler will get. ' +
        'It registers itself with the sandbox, so orders need no notification_url; an order that has one is ' +
        "notified there too. The sandbox hears your handler's status back and retries failures as usual. " +
        'The sandbox: PAYORDER_CHECKOUT_URL, sandbox.v2.checkout-url, else http://127.0.0.1:4010. Stops on Ctrl-C.',
    )
    .option('--forward-to <url>', 'your notification handler, e.g. http://localhost:3000/hooks/payorder')
    .option('-p, --port <n>', 'local port to receive on; 0 picks a free one', '0')
    .option('--host <address>', 'local address to receive on', '127.0.0.1');
  jsonOption(
    command,
    'print each notification as one JSON line (the default when stdout is not a terminal)',
    { jq: false },
  );
  conventions(command);
  examples(command, [
    ['watch notifications', 'payorder sandbox listen'],
    [
      'and forward them to your handler',
      'payorder sandbox listen --forward-to http://localhost:3000/hooks/payorder',
    ],
    ['the statuses, for a script', "payorder sandbox listen --json | jq -r '.body.status'"],
  ]);
  command.action(async (flags: ListenFlags) => {
    const run = await import('./listen.run.js');
    const options = run.parseListenOptions(flags);
    await run.runListen(options, ctx);
  });
}
