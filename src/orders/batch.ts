/**
 * `order create --input`: creates one order per input line, streaming, with bounded concurrency,
 * results in input order, an optional journal to resume from, and never a blind retry of a line
 * whose outcome is unknown. It yields each line's record; showing them is the caller's business.
 *
 * Up to --concurrency lines are recorded ahead of those in flight, each waiting for a free slot: when
 * an answer comes, the next line's request leaves without waiting for its records to be synced.
 *
 * It stops taking lines (those in flight finish and are recorded) on Ctrl-C, SIGTERM, SIGHUP or a closed
 * stdout, when the service refuses the token even after a renewal, when the service cannot be
 * reached (nothing of that line was sent: it stays resumable), and when the journal cannot be
 * written (no line is sent that the journal cannot record).
 */

import { setImmediate as nextTurn } from 'node:timers/promises';
import pLimit, { type LimitFunction } from 'p-limit';
import type { Context } from '../context.js';
import { formatAmount } from '../contract/money.js';
import { type OrderDraft, orderRequestBody } from '../contract/schemas.js';
import { CliError, type ErrorKind } from '../errors.js';
import type { Session } from '../session/session.js';
import { warn } from '../terminal/messages.js';
import { openAutomaticJournal } from './auto-journal.js';
import { type InputLine, readBatch } from './batch-input.js';
import { type BatchJournal, draftKey, openJournal } from './batch-journal.js';
import type { BatchSummary, JournalUsed } from './batch-outcome.js';
import type { BatchInput, BatchRecord, LineOutcome } from './batch-record.js';
import { columnName, draftFrom, NOTIFICATION_V2_WARNING, type OrderFields } from './draft.js';
import { openInput } from './input-file.js';
import type { JournalRecord, JournalTarget } from './journal-file.js';
import { LineKeys } from './line-keys.js';
import {
  type BatchLedger,
  LineRecorder,
  NOT_SENT_ERROR,
  NotRecorded,
  type Recording,
} from './line-recorder.js';
import { orderedPool } from './ordered-pool.js';

/**
 * Where a batch records its lines: a journal file the user names (--journal), or one payorder keeps
 * in its data folder (auto-journal.ts), whose lines count as created for `window`.
 */
export type JournalChoice =
  | { kind: 'file'; path: string }
  | { kind: 'automatic'; window: string; windowMs: number; again: boolean };

export interface BatchOptions {
  input: string;
  concurrency: number;
  journal: JournalChoice;
  retryUnknown: boolean;
  /** --description, --success, --fail (or their config defaults): for the lines that have none. */
  lineDefaults?: Partial<Pick<OrderFields, 'description' | 'success' | 'fail'>>;
  /** The order ledger that records each line sent and refuses a reference in use; none with --no-ledger. */
  ledger?: BatchLedger;
}

/** Errors after which no further line is sent: the next lines would fail the same way. */
const STOPPING: readonly ErrorKind[] = ['auth', 'network', 'io'];

export interface BatchRun {
  /** Each line's record in input order, with the service's body for --raw. */
  records: AsyncGenerator<{ record: BatchRecord; raw?: string }>;
  /** Counts so far, of every line done (handed out in `records` or not yet); final once `records` is exhausted. */
  summary(): BatchSummary;
  /**
   * The lines done but not handed out yet, in input order: `records` gives lines in input order, so
   * a line still in flight holds back those after it. What a second Ctrl-C prints before payorder ends.
   */
  heldBack(): LineResult[];
}

/** What the line said, kept with its record so a failed or unknown line can be found. */
function inputOf(fields: OrderFields | undefined, draft?: OrderDraft): BatchInput {
  return {
    amount: draft ? formatAmount(draft.amountCents) : (fields?.amount ?? fields?.amount_cents ?? null),
    description: fields?.description ?? null,
    external_reference: fields?.external_reference ?? null,
  };
}

/** Opens the journal the batch asked for: the user's file, or a new run in the data folder. */
function openBatchJournal(ctx: Context, session: Session, choice: JournalChoice): BatchJournal {
  const { target } = session;
  const journalTarget: JournalTarget = {
    env: target.env,
    api: target.version,
    auth: target.authBase,
    checkout: target.checkoutBase,
    client_id: session.credentials.clientId,
  };
  if (choice.kind === 'file') return openJournal(choice.path, journalTarget);
  return openAutomaticJournal({
    folder: ctx.dataFolder().folder('batches'),
    target: journalTarget,
    now: ctx.clock(),
    windowMs: choice.windowMs,
    again: choice.again,
  });
}

/** The fields a line gives (an absent key or column is undefined, not a value). */
const definedOf = (fields: OrderFields) =>
  Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as OrderFields;

export function startBatch(ctx: Context, session: Session, options: BatchOptions): BatchRun {
  const batch = new Batch(ctx, session, options);
  return { records: batch.records(), summary: () => batch.summary(), heldBack: () => batch.heldBack() };
}

export type LineResult = { record: BatchRecord; raw?: string };

/** What a line gives when the batch stopped before its request could leave. */
const NOT_SENT = Symbol('not sent');

/** A line ready to send: its order, what it said, and its key in the journal. */
interface ReadyLine {
  line: number;
  draft: OrderDraft;
  input: BatchInput;
  key: string;
}

/** One run of a batch: its journal, its counts, and why it stopped taking lines, if it did. */
class Batch {
  readonly #journal: BatchJournal;
  readonly #journalUsed: JournalUsed;
  readonly #counts: Record<LineOutcome, number> = { created: 0, skipped: 0, failed: 0, unknown: 0 };
  readonly #started = performance.now();
  #lines = 0;
  /** Lines done and counted, not yet handed out by records(). */
  readonly #held = new Map<number, LineResult>();
  #inFlight = 0;
  #stoppedBy: CliError | undefined;
  #warnedNotification = false;
  /**
   * The external references of lines this run has sent, with their line: a second line is refused.
   * Kept for the whole run, even once the ledger has the line: the ledger holds a reference only while
   * its order is PENDING or PAID or in flight, and a line whose outcome is unknown must keep it.
   */
  readonly #references = new Map<string, number>();
  readonly #recorder: LineRecorder;
  readonly #keys = new LineKeys();
  /** The --concurrency slots of the lines in flight; recorded lines wait here for one, in input order. */
  readonly #slots: LimitFunction;

  constructor(
    private readonly ctx: Context,
    private readonly session: Session,
    private readonly options: BatchOptions,
  ) {
    this.#journal = openBatchJournal(ctx, session, options.journal);
    this.#recorder = new LineRecorder(this.#journal, options.ledger, ctx.clock);
    // A line still waiting for a slot when the batch stops is not sent: cleared, it is recorded so.
    this.#slots = pLimit({ concurrency: options.concurrency, rejectOnClear: true });
    this.#journalUsed =
      options.journal.kind === 'file'
        ? { kind: 'file', path: this.#journal.path }
        : { kind: 'automatic', path: this.#journal.path, window: options.journal.window };
  }

  async *records(): AsyncGenerator<LineResult> {
    const { ctx, options } = this;
    const onStop = () => this.#slots.clearQueue();
    ctx.signal.addEventListener('abort', onStop, { once: true });
    try {
      const input = readBatch(
        openInput(options.input, ctx.io.stdin, ctx.signal),
        options.input === '-' ? 'stdin' : options.input,
      );
      // The lines in flight, and as many recorded ahead of them.
      for await (const result of orderedPool(input, (line) => this.#done(line), {
        concurrency: options.concurrency * 2,
        stopped: () => this.#stoppedBy !== undefined,
        signal: ctx.signal,
      })) {
        // A line the stop came for while its record was being synced or it waited for a slot: not
        // sent, so not one of this run's lines (its journal says so, and a rerun sends it).
        if (result === NOT_SENT) continue;
        this.#held.delete(result.record.line);
        yield result;
      }
    } finally {
      ctx.signal.removeEventListener('abort', onStop);
      try {
        await this.#journal.close();
      } finally {
        options.ledger?.close();
      }
    }
  }

  heldBack(): LineResult[] {
    return [...this.#held.values()].sort((a, b) => a.record.line - b.record.line);
  }

  /** A line's result, counted as soon as it is known (not when its turn to be shown comes). */
  async #done(line: InputLine): Promise<LineResult | typeof NOT_SENT> {
    const result = await this.#handle(line);
    if (result === NOT_SENT) return result;
    this.#counts[result.record.outcome]++;
    this.#lines++;
    this.#held.set(result.record.line, result);
    return result;
  }

  summary(): BatchSummary {
    const { signal } = this.ctx;
    return {
      lines: this.#lines,
      seconds: (performance.now() - this.#started) / 1000,
      counts: this.#counts,
      journal: this.#journalUsed,
      inFlight: this.#inFlight,
      stopped: this.#stoppedBy
        ? { by: 'error', error: this.#stoppedBy }
        : signal.aborted
          ? { by: signal.reason === 'EPIPE' ? 'closed-pipe' : 'signal' }
          : undefined,
    };
  }

  /** A line's record: refused as read, decided by an earlier run, or sent now. */
  async #handle(input: InputLine): Promise<LineResult | typeof NOT_SENT> {
    const { line } = input;
    if (input.problem !== undefined)
      return failed(line, inputOf(input.fields), new CliError('usage', input.problem));
    // A field the line does not have at all (no such column or key) comes from the flags or config.
    const fields = { ...this.options.lineDefaults, ...definedOf(input.fields) };
    const { target } = this.session;
    let draft: OrderDraft;
    try {
      draft = draftFrom(fields, target.version, columnName);
    } catch (error) {
      return failed(line, inputOf(fields), error);
    }
    if (draft.notificationUrl && target.version === 'v2' && !this.#warnedNotification) {
      this.#warnedNotification = true;
      warn(this.ctx, NOTIFICATION_V2_WARNING);
    }
    const ready = { line, draft, input: inputOf(fields, draft), key: this.#keys.keyFor(draftKey(draft)) };
    let earlier: LineResult | undefined;
    try {
      earlier = this.#earlier(ready);
    } catch (error) {
      // An earlier run's record that cannot be read back: that line's outcome is not known here.
      this.#stop(error as CliError);
      return failed(line, ready.input, error);
    }
    return earlier ?? this.#send(ready);
  }

  /** What an earlier run decided for the line: created (skipped now), or sent with no answer. */
  #earlier({ line, input, key }: ReadyLine): LineResult | undefined {
    const before = this.#journal.previous.get(key);
    if (before?.event === 'created' && before.order)
      return { record: { line, outcome: 'skipped', order: before.order, input, error: null } };
    if ((before?.event === 'sending' || before?.event === 'unknown') && !this.options.retryUnknown)
      return recordOf(
        line,
        'unknown',
        input,
        new CliError(
          'outcome_unknown',
          'outcome unknown from an earlier run (it was sent, no answer was recorded)',
          {
            hint: 'check the merchant panel; rerun with --retry-unknown only if the order does not exist',
          },
        ),
      );
    return undefined;
  }

  /**
   * Records the line, then sends its order once a slot is free (#request). Nothing is sent that the
   * journal cannot record.
   */
  async #send(ready: ReadyLine): Promise<LineResult | typeof NOT_SENT> {
    const { line, draft, input, key } = ready;
    let recording: Recording | undefined;
    try {
      this.#takeReference(line, draft);
      recording = await this.#recorder.record({ line, key, draft });
    } catch (error) {
      this.#freeReference(line, draft);
      // Not recorded after an earlier line's failure stopped the batch: not one of this run's lines.
      if (error instanceof NotRecorded) return NOT_SENT;
      // A reference in use is that line's refusal; a ledger or journal that cannot be written stops
      // the batch, and nothing of that line was sent.
      if (!(error instanceof CliError) || error.kind !== 'usage') this.#stop(error as CliError);
      return failed(line, input, error);
    }
    let started = false;
    let result: LineResult | typeof NOT_SENT;
    try {
      result = await this.#slots(() => {
        started = true;
        return this.#request(ready, recording);
      });
    } catch (error) {
      if (started) throw error;
      // Still waiting for a slot when the batch stopped (the queue was cleared): never sent.
      return this.#notSent(ready, recording);
    }
    // What follows the line (its output, the next line read and recorded) waits two turns of the
    // event loop; its slot is free already. undici writes a request to a connection it reuses one
    // turn after it is given it: answers that come together are all taken in one turn, and the
    // requests they freed slots for then leave first, not each behind the work of those before it.
    await nextTurn();
    await nextTurn();
    return result;
  }

  /**
   * Sends the recorded line's order and records the outcome. Nothing is sent once the batch has
   * stopped (Ctrl-C, a hang-up, a closed pipe, an error that stops it).
   */
  async #request(ready: ReadyLine, recording: Recording | undefined): Promise<LineResult | typeof NOT_SENT> {
    const { ctx, session } = this;
    const { line, draft, input, key } = ready;
    const at = () => ctx.clock().toISOString();
    if (this.#stoppedBy || ctx.signal.aborted) return this.#notSent(ready, recording);
    this.#inFlight++;
    try {
      const body = orderRequestBody(session.target.version, draft, session.credentials.username);
      const created = await session.authorized((token) => session.client.createOrder(token, body));
      // Should this record not be written, the "sending" one stands: the line is reported unknown
      // on a rerun, never sent again.
      this.#record({ key, line, event: 'created', at: at(), order: created.order });
      recording?.created(created.order);
      return {
        record: { line, outcome: 'created', order: created.order, input, error: null },
        raw: created.raw,
      };
    } catch (error) {
      if (error instanceof CliError && STOPPING.includes(error.kind)) this.#stop(error);
      const unknown = error instanceof CliError && error.kind === 'outcome_unknown';
      recording?.failed(unknown ? 'unknown' : 'failed', error);
      if (!unknown) this.#freeReference(line, draft);
      this.#record({
        key,
        line,
        event: unknown ? 'unknown' : 'failed',
        at: at(),
        error: (error as Error).message,
      });
      return recordOf(line, unknown ? 'unknown' : 'failed', input, error);
    } finally {
      this.#inFlight--;
    }
  }

  /**
   * A recorded line the batch stopped before it could leave: recorded failed, so a rerun sends it,
   * and not one of this run's lines.
   */
  #notSent({ key, line }: ReadyLine, recording: Recording | undefined): typeof NOT_SENT {
    this.#record({ key, line, event: 'failed', at: this.ctx.clock().toISOString(), error: NOT_SENT_ERROR });
    recording?.notSent(NOT_SENT_ERROR);
    return NOT_SENT;
  }

  /** The batch takes no further line (the first reason stands); those waiting for a slot are not sent. */
  #stop(error: CliError): void {
    this.#stoppedBy ??= error;
    this.#slots.clearQueue();
  }

  /**
   * Takes the line's external reference for this run, or throws its refusal when a line of this run
   * sent it (with the ledger, and without --allow-duplicate-reference). Taken before the ledger
   * answers: a line started together with the same reference is refused without waiting for it.
   */
  #takeReference(line: number, { externalReference: reference }: OrderDraft): void {
    const { ledger } = this.options;
    if (!ledger || reference === undefined) return;
    const earlier = this.#references.get(reference);
    if (earlier !== undefined && !ledger.allowsDuplicates)
      throw new CliError(
        'usage',
        `external_reference: ${reference} is the reference of line ${earlier} of this batch; nothing was sent`,
        { field: 'external_reference', hint: '--allow-duplicate-reference creates it all the same' },
      );
    this.#references.set(reference, line);
  }

  /** Gives the line's reference back: it was not sent, or its order was refused. */
  #freeReference(line: number, { externalReference: reference }: OrderDraft): void {
    if (reference !== undefined && this.#references.get(reference) === line)
      this.#references.delete(reference);
  }

  /** Writes a record; a journal that cannot be written stops the batch. */
  #record(record: JournalRecord): void {
    try {
      this.#journal.write(record);
    } catch (error) {
      this.#stop(error as CliError);
    }
  }
}

/** A line's record with no order: failed or unknown, its error naming the line. */
function recordOf(line: number, outcome: LineOutcome, input: BatchInput, error: unknown): LineResult {
  const failure = asCliError(error, line);
  return { record: { line, outcome, order: null, input, error: failure.toJSON().error } };
}

const failed = (line: number, input: BatchInput, error: unknown) => recordOf(line, 'failed', input, error);

/** A line's error as a CliError whose message names the line. */
function asCliError(error: unknown, line: number): CliError {
  const cli = error instanceof CliError ? error : new CliError('rejected', (error as Error).message);
  return new CliError(cli.kind, `line ${line}: ${cli.message}`, cli.details);
}
