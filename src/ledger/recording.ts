/**
 * How `order create` keeps the ledger: each order is recorded before it is sent (its outcome unknown
 * until the answer says otherwise), refused when its external reference belongs to an order on the
 * same target that is PENDING or PAID as last seen, and given its answer (the order, or the error).
 * Loaded only by the commands that keep the ledger.
 */
import type { Target } from '../api/service.js';
import { commandLine } from '../command-line.js';
import type { Context } from '../context.js';
import type { OrderDraft } from '../contract/schemas.js';
import { CliError } from '../errors.js';
import type { BatchLedger, Recording } from '../orders/line-recorder.js';
import { warn } from '../terminal/messages.js';
import type { LedgerChoice } from './choice.js';
import { type Ledger, type LedgerEntry, type LedgerSource, openLedger } from './ledger.js';

/** The refusal of a reference in use: exit 2, naming the order that holds it and how to look again. */
export function referenceInUse(holder: LedgerEntry, field: string, target: Target): CliError {
  const reference = holder.external_reference ?? '';
  const seen = holder.status_at ? ` (seen so since ${holder.status_at.slice(0, 10)})` : '';
  if (holder.uuid === null)
    return new CliError(
      'usage',
      `${field}: ${reference} is the reference of an order sent at ${holder.at} whose answer has not been recorded (still in flight, or lost); nothing was sent`,
      {
        field,
        hint: 'check the merchant panel for it; --allow-duplicate-reference creates this one all the same',
      },
    );
  return new CliError(
    'usage',
    `${field}: ${reference} is the reference of order ${holder.uuid}, ${holder.status} as last seen${seen}; nothing was sent`,
    {
      field,
      hint: `if that order has failed since, look it up again (${commandLine(['order', 'get', holder.uuid], target)}, or ${commandLine(['order', 'find', '--ref', reference, '--refresh'], target)}) and create this one after; --allow-duplicate-reference creates it all the same`,
    },
  );
}

/** The ledger of a command that creates orders, open for as long as it runs. */
export class CreationLedger implements BatchLedger {
  constructor(
    private readonly ctx: Context,
    private readonly ledger: Ledger,
    private readonly target: Target,
    private readonly choice: LedgerChoice,
  ) {}

  /**
   * Records `draft` as about to be sent; throws the refusal (naming `field`) when its reference is
   * held by another order and duplicates are not allowed.
   */
  sending(draft: OrderDraft, source: LedgerSource, field: string): Recording {
    const result = this.ledger.sending(this.target, draft, this.#options(source));
    if ('holder' in result) throw referenceInUse(result.holder, field, this.target);
    return this.#recording(result.entry);
  }

  /**
   * `sending` for lines of a batch recorded together, in one transaction: each line's recording, or
   * the refusal of its reference.
   */
  sendingLines(drafts: OrderDraft[], field: string): Array<Recording | CliError> {
    return this.ledger
      .sendingAll(this.target, drafts, this.#options('batch'))
      .map((result) =>
        'holder' in result
          ? referenceInUse(result.holder, field, this.target)
          : this.#recording(result.entry),
      );
  }

  #options(source: LedgerSource) {
    return { source, at: this.ctx.clock(), checkReference: !this.choice.allowDuplicateReference };
  }

  /** The answers of entry `entry`, written with the next lines' records (a batch), or as the ledger closes. */
  #recording(entry: number): Recording {
    const { ledger, ctx } = this;
    return {
      created: (order) => {
        const at = ctx.clock();
        ledger.later(() => ledger.created(entry, order, at));
      },
      failed: (outcome, error) => ledger.later(() => ledger.failed(entry, outcome, (error as Error).message)),
      notSent: (why) => {
        try {
          ledger.now(() => ledger.failed(entry, 'failed', why));
        } catch (error) {
          if (!(error instanceof CliError)) throw error;
          warn(ctx, `the order ledger was not updated: ${error.message}`);
        }
      },
    };
  }

  /**
   * Closes the ledger, writing the answers it keeps: once an order is sent, its answer is the
   * command's whatever becomes of the ledger, whose failure is said (the entries stay "unknown").
   */
  close(): void {
    try {
      this.ledger.close();
    } catch (error) {
      if (!(error instanceof CliError)) throw error;
      warn(this.ctx, `the order ledger was not updated: ${error.message}`);
    }
  }

  /** --allow-duplicate-reference was given. */
  get allowsDuplicates(): boolean {
    return this.choice.allowDuplicateReference;
  }
}

/** The ledger for a command creating orders on `target`, or undefined when it keeps none. */
export async function creationLedger(
  ctx: Context,
  target: Target,
  choice: LedgerChoice,
): Promise<CreationLedger | undefined> {
  if (!choice.keep) return undefined;
  const ledger = await openLedger(ctx, { create: true });
  return ledger && new CreationLedger(ctx, ledger, target, choice);
}

/** Errors after which the service may have created the order: their outcome is unknown. */
export const outcomeOf = (error: unknown): 'failed' | 'unknown' =>
  error instanceof CliError && error.kind === 'outcome_unknown' ? 'unknown' : 'failed';
