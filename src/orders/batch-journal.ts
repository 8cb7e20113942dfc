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
 */
import { createHash } from 'node:crypto';
import { closeSync, existsSync, openSync, readFileSync, writeSync } from 'node:fs';
import type { Order, OrderDraft } from '../contract/schemas.js';
import { CliError, usageError } from '../errors.js';

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

interface JournalHeader {
  payorder_journal: 1;
  target: JournalTarget;
}

export function draftKey(draft: OrderDraft): string {
  const canonical = JSON.stringify([
    draft.amountCents.toString(),
    draft.description,
    draft.successUrl,
    draft.failUrl,
    draft.notificationUrl ?? null,
    draft.externalReference ?? null,
  ]);
  return createHash('sha256').update(canonical).digest('hex').slice(0, 32);
}

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

export class BatchJournal {
  /** The last event per key from earlier runs. */
  readonly previous = new Map<string, JournalRecord>();
  readonly #fd: number;
  readonly #seen = new Map<string, number>();

  constructor(
    readonly path: string,
    target: JournalTarget,
  ) {
    let endsTorn = false;
    if (existsSync(path)) {
      const text = readFileSync(path, 'utf8');
      const lines = text.split('\n');
      endsTorn = text !== '' && !text.endsWith('\n');
      let header = false;
      lines.forEach((line, index) => {
        if (line.trim() === '') return;
        const value = parse(line);
        const nextLine = lines.slice(index + 1).find((l) => l.trim() !== '');
        if (isHeader(value)) {
          header = true;
          if (JSON.stringify(value.target) !== JSON.stringify(target))
            throw usageError(
              `--journal: ${path} belongs to a batch for ${describeTarget(value.target)}, not ${describeTarget(target)}`,
              {
                field: '--journal',
                hint: 'resuming it against another target would create every order again: use a new journal file, or the target it was made for',
              },
            );
        } else if (header && isRecord(value)) {
          this.previous.set(value.key, value);
        } else if (!(header && (nextLine === undefined || isHeader(parse(nextLine))))) {
          // Only the last record of a run may be torn (cut by a crash or a full disk).
          throw usageError(`--journal: ${path} line ${index + 1} is not a payorder journal record`, {
            field: '--journal',
            hint: 'give a journal file that payorder wrote, or a new file',
          });
        }
      });
    }
    try {
      this.#fd = openSync(path, 'a', 0o600);
    } catch (error) {
      throw writeError(path, error);
    }
    // A torn last record gets a line of its own, so this run's header is whole.
    this.#append(
      `${endsTorn ? '\n' : ''}${JSON.stringify({ payorder_journal: 1, target } satisfies JournalHeader)}\n`,
    );
  }

  /** The key of the next line with this content (the Nth identical line gets the Nth key). */
  keyFor(base: string): string {
    const count = (this.#seen.get(base) ?? 0) + 1;
    this.#seen.set(base, count);
    return `${base}#${count}`;
  }

  /** Appends a record; a failed write (full disk, I/O error) throws an 'io' error. */
  write(record: JournalRecord): void {
    this.#append(`${JSON.stringify(record)}\n`);
    this.previous.set(record.key, record);
  }

  close(): void {
    closeSync(this.#fd);
  }

  #append(text: string): void {
    try {
      writeSync(this.#fd, text);
    } catch (error) {
      throw writeError(this.path, error);
    }
  }
}

function writeError(path: string, error: unknown): CliError {
  const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
  return new CliError('io', `cannot write the journal ${path} (${code})`, {
    field: '--journal',
    hint: 'free some space or give a journal on another disk, then rerun with the same --journal to resume',
  });
}
