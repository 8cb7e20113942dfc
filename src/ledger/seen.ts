/**
 * The statuses `order get` sees, written to the ledger when it holds the order: opened after the
 * first answer (a lookup never waits for it), never created for a lookup, and a ledger that cannot
 * be written only warns (the lookup's answer is the command's).
 */
import type { Target } from '../api/service.js';
import type { Context } from '../context.js';
import type { Order } from '../contract/schemas.js';
import { CliError } from '../errors.js';
import { warn } from '../terminal/messages.js';
import { type Ledger, openLedger } from './ledger.js';

export interface SeenStatuses {
  note(target: Target, order: Order): Promise<void>;
  close(): void;
}

export function seenStatuses(ctx: Context): SeenStatuses {
  let ledger: Promise<Ledger | undefined> | undefined;
  let warned = false;
  const complain = (error: unknown) => {
    if (warned || !(error instanceof CliError)) throw error;
    warned = true;
    warn(ctx, `the order ledger was not updated: ${error.message}`);
  };
  return {
    async note(target, order) {
      try {
        ledger ??= openLedger(ctx, { create: false });
        (await ledger)?.seen(target, order, ctx.clock());
      } catch (error) {
        complain(error);
      }
    },
    close() {
      void ledger?.then((open) => open?.close()).catch(() => {});
    },
  };
}
