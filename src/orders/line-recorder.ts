/**
 * Records a batch's lines before they are sent, in groups: the order ledger's entries of a group in
 * one transaction, then their "sending" records in the journal with one sync. A group begins as soon
 * as the one before it is on the disk, with every line started meanwhile: a line of an idle batch is
 * recorded at once, and a busy batch records many lines per transaction and per sync. No line waits
 * for more than the group before its own.
 */
import type { Order, OrderDraft } from '../contract/schemas.js';
import { CliError } from '../errors.js';
import type { BatchJournal } from './batch-journal.js';

/** One order's record in the order ledger, from before it is sent to its answer. */
export interface Recording {
  created(order: Order): void;
  failed(outcome: 'failed' | 'unknown', error: unknown): void;
  /**
   * It was not sent after all (`why`): written at once, so that its reference is free again even if
   * payorder ends (a second Ctrl-C) before the ledger closes.
   */
  notSent(why: string): void;
}

/** What a batch asks of the order ledger (src/ledger/recording.ts keeps it). */
export interface BatchLedger {
  /** --allow-duplicate-reference was given. */
  readonly allowsDuplicates: boolean;
  /**
   * Records lines as about to be sent, in one transaction: each line's recording, or the refusal of
   * its reference (naming `field`).
   */
  sendingLines(drafts: OrderDraft[], field: string): Array<Recording | CliError>;
  close(): void;
}

/** The journal record's error of a line recorded but not sent: a rerun sends it. */
export const NOT_SENT_ERROR = 'not sent: the batch stopped before this line left';

/** A line to record: its number, its key in the journal and its order. */
export interface LineToRecord {
  line: number;
  key: string;
  draft: OrderDraft;
}

/**
 * A line not recorded because an earlier group could not be: nothing of it was written, and the
 * batch has stopped.
 */
export class NotRecorded extends Error {
  constructor() {
    super(NOT_SENT_ERROR);
  }
}

interface Waiting extends LineToRecord {
  resolve(recording: Recording | undefined): void;
  reject(error: unknown): void;
}

export class LineRecorder {
  readonly #waiting: Waiting[] = [];
  #recording = false;
  /** A group could not be recorded: no line is recorded after it. */
  #failed = false;

  constructor(
    private readonly journal: BatchJournal,
    private readonly ledger: BatchLedger | undefined,
    private readonly clock: () => Date,
  ) {}

  /**
   * Resolves once the line's ledger entry is committed and its "sending" record synced, with its
   * ledger recording. Rejects with the ledger's refusal of its reference (a usage error: that line
   * only, with no journal record), or with the error of a ledger or journal that cannot be written.
   */
  record(line: LineToRecord): Promise<Recording | undefined> {
    if (this.#failed) return Promise.reject(new NotRecorded());
    return new Promise((resolve, reject) => {
      this.#waiting.push({ ...line, resolve, reject });
      if (!this.#recording) void this.#recordGroups();
    });
  }

  async #recordGroups(): Promise<void> {
    this.#recording = true;
    try {
      // The lines started with this one (in the same callback) join its group.
      await Promise.resolve();
      while (this.#waiting.length > 0) {
        const group = this.#waiting.splice(0);
        if (this.#failed) for (const line of group) line.reject(new NotRecorded());
        else await this.#recordGroup(group);
      }
    } finally {
      this.#recording = false;
    }
  }

  async #recordGroup(group: Waiting[]): Promise<void> {
    let recordings: Array<Recording | CliError | undefined>;
    try {
      recordings = this.ledger
        ? this.ledger.sendingLines(
            group.map(({ draft }) => draft),
            'external_reference',
          )
        : group.map(() => undefined);
    } catch (error) {
      this.#failed = true;
      for (const line of group) line.reject(error);
      return;
    }
    const accepted: Array<[Waiting, Recording | undefined]> = [];
    for (const [i, line] of group.entries()) {
      const recording = recordings[i];
      if (recording instanceof CliError) line.reject(recording);
      else accepted.push([line, recording]);
    }
    const at = this.clock().toISOString();
    let written = 0;
    try {
      for (const [{ key, line }] of accepted) {
        this.journal.write({ key, line, event: 'sending', at });
        written++;
      }
      await this.journal.synced();
    } catch (error) {
      // Nothing of the group was sent, and the batch stops. The ledger says so of each line; so
      // does the journal of each line it has a "sending" record of, while it can still be written
      // (after a failed write it cannot: those lines are reported unknown on a rerun).
      this.#failed = true;
      for (const [i, [line, recording]] of accepted.entries()) {
        if (i < written) this.#notSent(line, at);
        recording?.notSent(NOT_SENT_ERROR);
        line.reject(error);
      }
      return;
    }
    for (const [line, recording] of accepted) line.resolve(recording);
  }

  /** Records a line as failed and not sent, if the journal can still be written. */
  #notSent({ key, line }: LineToRecord, at: string): void {
    try {
      this.journal.write({ key, line, event: 'failed', at, error: NOT_SENT_ERROR });
    } catch {
      // The write's error was the group's: said once, with the line that met it.
    }
  }
}
