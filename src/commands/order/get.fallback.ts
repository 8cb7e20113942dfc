/**
 * What `order get ID` tries when the order is not found: the other API version of the same profile
 * and environment (never another profile: that may be another merchant), for an id the other version
 * could know; then the order ledger, whose orders are found by their external reference with
 * `payorder order find --ref`. Loaded only after a "not found".
 */
import type { OrderResult, Target } from '../../api/service.js';
import { commandLine } from '../../command-line.js';
import type { Context } from '../../context.js';
import { CliError } from '../../errors.js';
import { idShape, orderKey } from '../../orders/order-ids.js';
import { openSession } from '../../session/session.js';
import { resolveTarget, type TargetFlags } from '../../session/target.js';
import { note } from '../../terminal/messages.js';

/** The other version's target, when the id could be one of its orders and the version can be reached. */
async function otherTarget(ctx: Context, flags: TargetFlags, target: Target, input: string) {
  const shape = idShape(input);
  const other = target.version === 'v2' ? 'v1' : 'v2';
  // v2 looks orders up by uuid only; v1 by uuid or by its own ids.
  if (shape !== 'uuid' && !(other === 'v1' && shape === 'v1-id')) return undefined;
  try {
    return resolveTarget(ctx, { ...flags, api: other }, (await ctx.store()).read());
  } catch {
    // v1 past its sunset, or no address for the other version: there is nothing to try.
    return undefined;
  }
}

/**
 * The order on the other version, said on stderr; else `error`, its hint naming `order find --ref`
 * when the ledger has orders with that reference.
 */
export async function afterNotFound(
  ctx: Context,
  flags: TargetFlags,
  target: Target,
  input: string,
  error: CliError,
  { ledger }: { ledger: boolean },
): Promise<{ found: OrderResult; target: Target } | { error: CliError }> {
  const other = await otherTarget(ctx, flags, target, input);
  if (other) {
    try {
      const session = await openSession(ctx, other);
      const found = await session.authorized((token) => session.client.getOrder(token, orderKey(input)));
      note(ctx, `order ${input} is a ${other.version} order: found with --api ${other.version}`);
      return { found, target: other };
    } catch (otherError) {
      // Not there either: the hint no longer sends the reader to the other version. Not reachable:
      // the first answer stands.
      if (otherError instanceof CliError && otherError.kind === 'not_found')
        error = new CliError(error.kind, error.message, {
          ...error.details,
          hint: `not found with --api ${other.version} either: check the ${idShape(input) === 'uuid' ? 'uuid' : 'id'} and the environment`,
        });
    }
  }
  if (ledger && (await referenceInLedger(ctx, target, input.trim()))) {
    return {
      error: new CliError(error.kind, error.message, {
        ...error.details,
        hint: `${JSON.stringify(input.trim())} is the external reference of orders payorder knows: ${commandLine(['order', 'find', '--ref', input.trim()], target, { api: false })}`,
      }),
    };
  }
  return { error };
}

async function referenceInLedger(ctx: Context, target: Target, reference: string): Promise<boolean> {
  const { openLedger } = await import('../../ledger/ledger.js');
  try {
    const ledger = await openLedger(ctx, { create: false });
    if (!ledger) return false;
    try {
      return ledger.hasReference(target, reference);
    } finally {
      ledger.close();
    }
  } catch {
    return false;
  }
}
