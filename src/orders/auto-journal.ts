/**
 * The journal of a batch run without --journal: payorder keeps one anyway, in its data folder, so the
 * same file run twice does not create its orders twice. A line is known by its content and its
 * target, as an idempotency key, for a window (the config key batch-window, 24 hours by default): a
 * rerun inside it creates only the lines not created yet; past it, the same file (a monthly run) is a
 * new batch. --again creates every line anew.
 *
 * Each run writes a file of its own, `batches/<target>-<start>-<random>.journal`, created with
 * O_EXCL: parallel batches never write to the same file, so none can cut another's records, and a
 * run reads the files of its target together. Files whose every record is older than the window are
 * removed as a batch starts, whatever their target.
 */
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, fstatSync, readdirSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { CliError } from '../errors.js';
import { dataFolderError } from '../store/data-folder.js';
import { openPrivateFile, openPrivateFileToRead, type PrivateLabel } from '../store/private-files.js';
import { BatchJournal } from './batch-journal.js';
import {
  EarlierRecords,
  type JournalRecord,
  type JournalTarget,
  type RecordPlace,
  readJournal,
} from './journal-file.js';

export interface AutomaticJournalOptions {
  /** The folder of the automatic journals (the data folder's `batches`). */
  folder: string;
  target: JournalTarget;
  now: Date;
  windowMs: number;
  /** --again: earlier runs are not consulted; this run's records count for the next ones. */
  again: boolean;
}

const AUTOMATIC: PrivateLabel = {
  name: 'the batch journal',
  instead:
    'payorder trusts only journals that you own and that no one else can write: if it is yours, fix it (chown, chmod go-w); otherwise move it away, or set PAYORDER_DATA_DIR to a folder of your own',
};

const NAME = /^([0-9a-f]{16})-(\d{8}T\d{6}Z)-[0-9a-f]{8}\.journal$/;

/** The part of a file's name that says its target: a hash of everything that makes an order land in one place. */
const targetId = (target: JournalTarget) =>
  createHash('sha256').update(JSON.stringify(target)).digest('hex').slice(0, 16);

/** 2026-06-01T12:00:00.000Z as 20260601T120000Z: sortable, and valid in a file name everywhere. */
const stampOf = (at: Date) =>
  at
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
const timeOfStamp = (stamp: string) =>
  Date.parse(stamp.replace(/^(\d{4})(\d\d)(\d\d)T(\d\d)(\d\d)(\d\d)Z$/, '$1-$2-$3T$4:$5:$6Z'));

/** Whether a record written `at` is inside the window that ends now. */
const inWindow = (at: string, since: number) => Date.parse(at) >= since;

/** An earlier run's file up to this size is read into memory; a larger one is read back as needed. */
const IN_MEMORY_BYTES = 256 * 1024;
/** The most earlier runs kept open to be read back: the others are read into memory. */
const MAX_OPEN_RUNS = 64;

export function openAutomaticJournal({
  folder,
  target,
  now,
  windowMs,
  again,
}: AutomaticJournalOptions): BatchJournal {
  const since = now.getTime() - windowMs;
  const id = targetId(target);
  const previous = new EarlierRecords();
  let names: string[];
  try {
    names = readdirSync(folder).sort();
  } catch (error) {
    throw dataFolderError(error, folder);
  }
  try {
    for (const name of names) readEarlierRun(name);
  } catch (error) {
    previous.close();
    throw error;
  }

  /** Keeps the records of an earlier run of ours still inside the window; removes a run that has expired. */
  function readEarlierRun(name: string): void {
    const match = NAME.exec(name);
    const stamp = match?.[2];
    if (!match || stamp === undefined) return;
    const path = join(folder, name);
    const started = timeOfStamp(stamp);
    const ours = match[1] === id;
    // A run begun inside the window has records inside it: it is kept, and read only if it is ours.
    if (started >= since && (again || !ours)) return;
    let fd: number;
    try {
      fd = openPrivateFileToRead(AUTOMATIC, path);
    } catch (error) {
      if (error instanceof CliError) throw error;
      // Removed by a batch that started at the same time: expired, then.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw dataFolderError(error, path);
    }
    // Another target's file is read only to see whether it has expired. A large run of ours stays
    // open while the batch may read its records back (previous.close()); a small one, or one past
    // MAX_OPEN_RUNS, is read into memory, so that a day of many batches does not use up descriptors.
    const keep = ours && !again;
    let inMemory = true;
    /** The last record of each key in the file, with its time: kept while that is inside the window. */
    const last = new Map<string, { at: string; kept?: JournalRecord | RecordPlace }>();
    try {
      inMemory = fstatSync(fd).size <= IN_MEMORY_BYTES || previous.files >= MAX_OPEN_RUNS;
      readJournal(fd, path, { target: ours ? target : undefined }, (record, place) =>
        last.set(record.key, { at: record.at, kept: keep ? (inMemory ? record : place) : undefined }),
      );
    } catch (error) {
      closeSync(fd);
      throw error instanceof CliError ? error : dataFolderError(error, path);
    }
    let recent = 0;
    for (const [key, { at, kept }] of last)
      if (inWindow(at, since)) {
        recent++;
        if (kept) previous.set(key, kept);
      }
    if (!keep || inMemory || recent === 0) closeSync(fd);
    if (recent === 0 && started < since) remove(path);
  }

  const path = join(folder, `${id}-${stampOf(now)}-${randomBytes(4).toString('hex')}.journal`);
  let fd: number;
  try {
    ({ fd } = openPrivateFile(AUTOMATIC, path, 'new'));
  } catch (error) {
    previous.close();
    throw dataFolderError(error, path);
  }
  try {
    return new BatchJournal(path, fd, {
      previous,
      target,
      created: true,
      endsTorn: false,
      kind: 'automatic',
    });
  } catch (error) {
    previous.close();
    closeSync(fd);
    throw error;
  }
}

/** Removes an expired run; one that another run removed first is gone all the same. */
function remove(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw dataFolderError(error, path);
  }
}
