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

interface Waiting extends LineToRecord {
  resolve(recording: Recording | undefined): void;
  reject(error: unknown): void;
}

export class LineRecorder {
  readonly #waiting: Waiting[] = [];
  #recording = false;

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
      while (this.#waiting.length > 0) await this.#recordGroup(this.#waiting.splice(0));
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
      for (const line of group) line.reject(error);
      return;
    }
    const accepted: Array<[Waiting, Recording | undefined]> = [];
    for (const [i, line] of group.entries()) {
      const recording = recordings[i];
      if (recording instanceof CliError) line.reject(recording);
      else accepted.push([line, recording]);
    }
    try {
      const at = this.clock().toISOString();
      for (const [{ key, line }] of accepted) this.journal.write({ key, line, event: 'sending', at });
      await this.journal.synced();
    } catch (error) {
      // Nothing of the group was sent, and the batch stops: the ledger says so of each line.
      for (const [line, recording] of accepted) {
        recording?.failed('failed', new Error(NOT_SENT_ERROR));
        line.reject(error);
      }
      return;
    }
    for (const [line, recording] of accepted) line.resolve(recording);
  }
}
