/**
 * A batch journal's file as a resume reads it: its runs' headers and records, read in pieces of
 * READ_BYTES, and the last record of each key from earlier runs (EarlierRecords). A journal holds
 * every order a batch created, about 650 bytes a line: a resume keeps where each key's last record
 * is and reads it back when its line comes, so that its memory does not grow with the journal's size.
 */
import { closeSync, readSync } from 'node:fs';
import type { Order } from '../contract/schemas.js';
import { CliError, usageError } from '../errors.js';
import { isBlank } from './input-lines.js';

export type JournalEvent = 'sending' | 'created' | 'failed' | 'unknown';

export interface JournalRecord {
  key: string;
  line: number;
  event: JournalEvent;
  at: string;
  order?: Order;
  error?: string;
}

/** What a journal's orders were sent to: everything that makes an order land in one place. */
export interface JournalTarget {
  env: string;
  api: string;
  auth: string;
  checkout: string;
  client_id: string;
}

export interface JournalHeader {
  payorder_journal: 1;
  target: JournalTarget;
}

/** How much of a journal is read at a time (a longer line is read whole all the same). */
const READ_BYTES = 1024 * 1024;

const isHeader = (value: unknown): value is JournalHeader =>
  typeof value === 'object' && value !== null && (value as JournalHeader).payorder_journal === 1;

const isRecord = (value: unknown): value is JournalRecord =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as JournalRecord).key === 'string' &&
  typeof (value as JournalRecord).line === 'number' &&
  ['sending', 'created', 'failed', 'unknown'].includes((value as JournalRecord).event);

const describeTarget = (t: JournalTarget) =>
  `${t.env} ${t.api} (auth ${t.auth}, checkout ${t.checkout}, client id ${t.client_id})`;

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Where a record is in a journal file, and the bytes it takes (its newline left out). */
export interface RecordPlace {
  path: string;
  fd: number;
  offset: number;
  length: number;
}

/**
 * A journal file's lines, read from the file open at `fd`: each with where it begins, and whether
 * a newline ends it (only the last may lack one).
 */
function* linesOf(fd: number): Generator<{ text: string; offset: number; length: number; whole: boolean }> {
  let buffer = Buffer.allocUnsafe(READ_BYTES);
  /** The file's offset of buffer[0], and how much of the buffer holds what was read. */
  let start = 0;
  let filled = 0;
  for (;;) {
    if (filled === buffer.length) {
      const larger = Buffer.allocUnsafe(buffer.length * 2);
      buffer.copy(larger, 0, 0, filled);
      buffer = larger;
    }
    const read = readSync(fd, buffer, filled, buffer.length - filled, start + filled);
    filled += read;
    let from = 0;
    for (let end = buffer.indexOf(10, from); end !== -1 && end < filled; end = buffer.indexOf(10, from)) {
      yield {
        text: buffer.toString('utf8', from, end),
        offset: start + from,
        length: end - from,
        whole: true,
      };
      from = end + 1;
    }
    if (read === 0) {
      if (from < filled) {
        const length = filled - from;
        yield { text: buffer.toString('utf8', from, filled), offset: start + from, length, whole: false };
      }
      return;
    }
    // What is left is the beginning of a line: moved to the front, for the rest of it.
    buffer.copy(buffer, 0, from, filled);
    start += from;
    filled -= from;
  }
}

export interface JournalReading {
  /** The target its records are for (none: a file read only for its records' times). */
  target?: JournalTarget;
  /** The option that named the file (--journal), for the errors. */
  field?: string;
}

/**
 * Reads the journal open at `fd` (from its start), checking each run's header against the target,
 * and gives `each` every record with its place. Returns whether the file ends in the middle of a
 * line (a record cut by a crash or a full disk, which the next run's header must not be joined to).
 */
export function readJournal(
  fd: number,
  path: string,
  { target, field }: JournalReading,
  each: (record: JournalRecord, place: RecordPlace) => void,
): { endsTorn: boolean } {
  const named = field ? `${field}: ${path}` : path;
  const details = (hint: string) => (field ? { field, hint } : { hint });
  const notARecord = (line: number) =>
    usageError(
      `${named} line ${line} is not a payorder journal record`,
      details('give a journal file that payorder wrote, or a new file'),
    );
  let header = false;
  /** The line of a record that is not whole, while only blank lines have come after it. */
  let torn: number | undefined;
  let number = 0;
  let endsTorn = false;
  for (const { text, offset, length, whole } of linesOf(fd)) {
    number++;
    endsTorn = !whole;
    if (isBlank(text)) continue;
    const value = parse(text);
    // Only the last record of a run may be torn (cut by a crash or a full disk): a line that is not
    // JSON at all, followed by nothing or by the next run's header. A whole JSON value that is not
    // a record was not written by payorder.
    if (torn !== undefined && !isHeader(value)) throw notARecord(torn);
    torn = undefined;
    if (isHeader(value)) {
      header = true;
      if (target && JSON.stringify(value.target) !== JSON.stringify(target))
        throw usageError(
          `${named} belongs to a batch for ${describeTarget(value.target)}, not ${describeTarget(target)}`,
          details(
            'resuming it against another target would create every order again: use a new journal file, or the target it was made for',
          ),
        );
    } else if (header && isRecord(value)) {
      each(value, { path, fd, offset, length });
    } else if (header && value === undefined) {
      torn = number;
    } else {
      throw notARecord(number);
    }
  }
  return { endsTorn };
}

/**
 * The last record of each key from a journal's earlier runs: the record itself, or where it is, read
 * back from its file when asked for. The files it reads from stay open until close().
 */
export class EarlierRecords implements Iterable<[string, JournalRecord]> {
  readonly #kept = new Map<string, JournalRecord | RecordPlace>();
  readonly #files = new Set<number>();

  /** Keeps a key's last record, or where it is (that file is then closed by close()). */
  set(key: string, kept: JournalRecord | RecordPlace): void {
    this.#kept.set(key, kept);
    if ('fd' in kept) this.#files.add(kept.fd);
  }

  get(key: string): JournalRecord | undefined {
    const kept = this.#kept.get(key);
    if (!kept || !('fd' in kept)) return kept;
    const bytes = Buffer.allocUnsafe(kept.length);
    try {
      if (readSync(kept.fd, bytes, 0, kept.length, kept.offset) === kept.length) {
        const record: unknown = JSON.parse(bytes.toString('utf8'));
        if (isRecord(record) && record.key === key) return record;
      }
    } catch (error) {
      if (!(error instanceof SyntaxError)) throw readError(kept.path, (error as NodeJS.ErrnoException).code);
    }
    // What was read as a record is not one now: the file was changed while the batch ran.
    throw readError(kept.path, 'changed while the batch ran');
  }

  get size(): number {
    return this.#kept.size;
  }

  /** How many files it reads records back from. */
  get files(): number {
    return this.#files.size;
  }

  keys(): IterableIterator<string> {
    return this.#kept.keys();
  }

  *[Symbol.iterator](): Iterator<[string, JournalRecord]> {
    for (const key of this.#kept.keys()) yield [key, this.get(key) as JournalRecord];
  }

  /** Closes the files it reads from, but `except` (the journal this run appends to). */
  close(except?: number): void {
    for (const fd of this.#files) if (fd !== except) closeSync(fd);
  }
}

/** A record that cannot be read back: the batch stops, since that line's outcome is not known. */
function readError(path: string, reason = 'an I/O error'): CliError {
  return new CliError('io', `cannot read the journal ${path} back (${reason})`, {
    hint: 'check the disk and that nothing else writes the journal, then rerun the same command to resume',
  });
}
