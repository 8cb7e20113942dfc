/**
 * The batch journal (`--journal FILE`): an append-only NDJSON record of each line's outcome, written
 * (and so flushed to the OS) as it happens, so a batch cut by Ctrl-C, kill -9 or a lost network can
 * be resumed with no duplicate and no lost order.
 *
 * Each run starts with a header naming its target (environment, version, addresses, client id): a
 * journal belongs to one target, and a run for another is refused, since its orders would all be
 * created again. Lines are matched by content, not by position: the key is a hash of the normalized
 * order (amount in cents, description, links, reference) plus how many identical lines came before
 * it. Reordering or inserting lines therefore does not confuse a resume.
 *
 * A record cut by a crash or a full disk is the last line of its run; it is recognized as torn and
 * ignored (its line's "sending" record stands, so that line is reported unknown, never resent).
 *
 * A line's request leaves only once its "sending" record is on the disk (fdatasync), so that a power
 * cut never loses it; the records written before a sync begins share it, and a sync begins once the
 * one before it has ended, so a batch with many lines in flight does not wait for a sync per line.
 *
 * A journal decides what is sent, so it is used only when it is safely the user's (no link, owned by
 * the user, writable by no one else), and a new one is created with O_EXCL, never through a link.
 */
import { hash } from 'node:crypto';
import { closeSync, fdatasync, fsyncSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import type { OrderDraft } from '../contract/schemas.js';
import { CliError } from '../errors.js';
import { openPrivateFile, type PrivateLabel } from '../store/private-files.js';
import {
  EarlierRecords,
  type JournalHeader,
  type JournalRecord,
  type JournalTarget,
  readJournal,
} from './journal-file.js';

export function draftKey(draft: OrderDraft): string {
  const canonical = JSON.stringify([
    draft.amountCents.toString(),
    draft.description,
    draft.successUrl,
    draft.failUrl,
    draft.notificationUrl ?? null,
    draft.externalReference ?? null,
  ]);
  // The first 16 bytes, as hex. crypto.hash: a one-shot digest, without a Hash object per line.
  return hash('sha256', canonical).slice(0, 32);
}

const JOURNAL: PrivateLabel = {
  name: 'the journal',
  field: '--journal',
  instead:
    'payorder trusts only a journal that you own and that no one else can write (a forged one could skip lines or show links of its own): if it is yours, fix it (chown, chmod go-w, or replace the link with its file); otherwise give a new journal file',
};

/** Opens `path` (--journal FILE) for a run: its records from earlier runs, then this run's header. */
export function openJournal(path: string, target: JournalTarget): BatchJournal {
  let opened: ReturnType<typeof openPrivateFile>;
  try {
    opened = openPrivateFile(JOURNAL, path, 'new-or-existing');
  } catch (error) {
    throw error instanceof CliError ? error : writeError(path, error, 'file');
  }
  try {
    const previous = new EarlierRecords();
    const { endsTorn } = opened.created
      ? { endsTorn: false }
      : readJournal(opened.fd, path, { target, field: '--journal' }, (record, place) =>
          previous.set(record.key, place),
        );
    return new BatchJournal(path, opened.fd, {
      previous,
      target,
      created: opened.created,
      kind: 'file',
      endsTorn,
    });
  } catch (error) {
    closeSync(opened.fd);
    throw error instanceof CliError ? error : writeError(path, error, 'file');
  }
}

/** What a journal starts a run with. */
export interface JournalStart {
  /** The last record of each key from earlier runs. */
  previous: EarlierRecords;
  target: JournalTarget;
  /** Whether the file was made for this run (its name is then made durable too). */
  created: boolean;
  /** A file the user named (--journal), or one in the data folder: what a failure's hint says. */
  kind: 'file' | 'automatic';
  /** Whether the file ends in the middle of a record (cut by a crash or a full disk). */
  endsTorn: boolean;
}

export class BatchJournal {
  /**
   * The last event per key from earlier runs. This run's records are not added: a key never comes
   * twice in one run (identical lines get keys of their own, line-keys.ts), and a batch's memory must
   * not grow with its input.
   */
  readonly previous: EarlierRecords;
  readonly #kind: JournalStart['kind'];
  /** Whether records were written since the last sync began. */
  #unsynced = false;
  /** The sync that will cover the records written since the last one began. */
  #gathering: Promise<void> | undefined;
  /** The last sync begun. */
  #last: Promise<void> = Promise.resolve();
  /** The error of a write that failed: no record is appended after it. */
  #failedWrite: CliError | undefined;

  constructor(
    readonly path: string,
    readonly fd: number,
    { previous, target, created, endsTorn, kind }: JournalStart,
  ) {
    this.previous = previous;
    this.#kind = kind;
    // A torn last record gets a line of its own, so this run's header is whole.
    this.#append(
      `${endsTorn ? '\n' : ''}${JSON.stringify({ payorder_journal: 1, target } satisfies JournalHeader)}\n`,
    );
    if (created) syncFolderOf(path, kind);
  }

  /**
   * Appends a record (to the OS at once); a failed write (full disk, I/O error) throws an 'io' error.
   * It reaches the disk with the next sync: the next synced(), or close().
   */
  write(record: JournalRecord): void {
    this.#append(`${JSON.stringify(record)}\n`);
    this.#unsynced = true;
  }

  /**
   * Resolves once every record written so far is on the disk; rejects with an 'io' error. Only a
   * record that must be on the disk before something happens is waited for ("sending"): the others
   * go with it, and a crash before then leaves their line "sending", reported unknown, never resent.
   */
  synced(): Promise<void> {
    if (this.#unsynced) this.#gathering ??= this.#sync();
    return this.#gathering ?? this.#last;
  }

  /** Waits for the last records to be on the disk, then closes the file. */
  async close(): Promise<void> {
    try {
      await this.synced();
    } finally {
      this.previous.close(this.fd);
      closeSync(this.fd);
    }
  }

  #sync(): Promise<void> {
    const before = this.#last;
    const sync = (async () => {
      await before.catch(() => {});
      // Records written from now on wait for the next sync.
      this.#gathering = undefined;
      this.#unsynced = false;
      await new Promise<void>((resolve, reject) =>
        fdatasync(this.fd, (error) => (error ? reject(writeError(this.path, error, this.#kind)) : resolve())),
      );
    })();
    // Whoever waits for it sees a failure; a sync nobody waits for is not an unhandled rejection.
    sync.catch(() => {});
    this.#last = sync;
    return sync;
  }

  /**
   * Appends `text`. After a failed write nothing more is appended (the same error is thrown): the
   * record it may have cut stays the last line of this run, which a resume takes as torn.
   */
  #append(text: string): void {
    if (this.#failedWrite) throw this.#failedWrite;
    try {
      writeSync(this.fd, text);
    } catch (error) {
      this.#failedWrite = writeError(this.path, error, this.#kind);
      throw this.#failedWrite;
    }
  }
}

/** Makes a new file's name durable: without it, a power cut could lose the file with its records. */
function syncFolderOf(path: string, kind: JournalStart['kind']): void {
  // Windows cannot open a folder as a file; NTFS keeps its names in its own journal.
  if (process.platform === 'win32') return;
  let fd: number | undefined;
  try {
    fd = openSync(dirname(path), 'r');
    fsyncSync(fd);
  } catch (error) {
    throw writeError(path, error, kind);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function writeError(path: string, error: unknown, kind: JournalStart['kind']): CliError {
  const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
  const message = `cannot write the journal ${path} (${code})`;
  if (kind === 'automatic')
    return new CliError('io', message, {
      hint: 'free some space on that disk (or set PAYORDER_DATA_DIR to a folder on another), then rerun the same command to resume',
    });
  return new CliError('io', message, {
    field: '--journal',
    hint: 'free some space or give a journal on another disk, then rerun with the same --journal to resume',
  });
}
