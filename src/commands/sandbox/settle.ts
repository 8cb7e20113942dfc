/**
 * `payorder sandbox pay|fail|refund ORDER`: settles an order of a running sandbox as a payer (pay,
 * fail) or the merchant (refund) would, without a browser. settle.run.ts does the work.
 */
import type { Command } from 'commander';
import type { OutputFlags } from '../../cli/options.js';
import { conventions, examples, outputOptions } from '../../cli/options.js';
import type { Context } from '../../context.js';
import type { Settlement } from './settle.run.js';

const HELP: Record<Settlement, { summary: string; examples: Array<[string, string]> }> = {
  pay: {
    summary: "mark a PENDING order PAID, as its payment page's Pay button does",
    examples: [
      ['pay an order', 'payorder sandbox pay 3f0c6a1e-8d2b-4f7a-9c1e-2b6d5a4e7f10'],
      [
        'create an order and pay it',
        'payorder sandbox pay "$(payorder order create --env sandbox --amount 5 --description Tea --success https://s.example/ok --fail https://s.example/ko --field uuid)"',
      ],
    ],
  },
  fail: {
    summary: "mark a PENDING order FAILED, as its payment page's Fail button does",
    examples: [
      ['a payment that fails', 'payorder sandbox fail 3f0c6a1e-8d2b-4f7a-9c1e-2b6d5a4e7f10'],
      [
        'a v1 order, by its id',
        'payorder sandbox fail "$(payorder order get "$uuid" --env sandbox --api v1 --field id)"',
      ],
    ],
  },
  refund: {
    summary: 'mark a PAID v2 order REFUNDED (REFUNDED exists only in v2)',
    examples: [
      ['refund a paid order', 'payorder sandbox refund 3f0c6a1e-8d2b-4f7a-9c1e-2b6d5a4e7f10'],
      ['its new status only', 'payorder sandbox refund "$uuid" --field status | tr A-Z a-z'],
    ],
  },
};

export function registerSandboxSettle(sandbox: Command, ctx: Context): void {
  for (const settlement of Object.keys(HELP) as Settlement[]) {
    const { summary, examples: list } = HELP[settlement];
    const command = sandbox
      .command(settlement)
      .summary(summary)
      .description(
        `${summary.charAt(0).toUpperCase()}${summary.slice(1)}, in the running sandbox (its address: PAYORDER_CHECKOUT_URL, ` +
          "sandbox.v2.checkout-url, else http://127.0.0.1:4010). The order's notification_url and every " +
          '`payorder sandbox listen` are notified.',
      )
      .argument('<order>', 'the uuid of the order (a v1 order also by its id)');
    outputOptions(command);
    conventions(command);
    examples(command, list);
    command.action(async (order: string, flags: OutputFlags) => {
      const run = await import('./settle.run.js');
      const options = run.parseSettleOptions(settlement, order, flags);
      await run.renderSettle(await run.runSettle(options, ctx), options, ctx);
    });
  }
}
