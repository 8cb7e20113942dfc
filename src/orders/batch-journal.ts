/**
 * The batch journal (`--journal FILE`): an append-only NDJSON record of each line's outcome, written
 * (and so flushed to the OS) as it happens, so a batch cut by Ctrl-C, kill -9 or a lost network can
 * be resumed with no duplicate and no lost order.
 *
 * Lines are matched by content, not by position: the key is a hash of the target (environment,
 * version) and the normalized order (amount in cents, description, links, reference), plus how many
 * identical lines came before it. Reordering or inserting lines therefore does not confuse a resume.
 */
import { createHash } from 'node:crypto';
import { closeSync, existsSync, openSync, readFileSync, writeSync } from 'node:fs';
import type { Order, OrderDraft } from '../contract/schemas.js';
import { usageError } from '../errors.js';

export type JournalEvent = 'sending' | 'created' | 'failed' | 'unknown';

export interface JournalRecord {
  key: string;
  line: number;
  event: JournalEvent;
  at: string;
  order?: Order;
  error?: string;
}

export function draftKey(target: string, draft: OrderDraft): string {
  const canonical = JSON.stringify([
    target,
    draft.amountCents.toString(),
    draft.description,
    draft.successUrl,
    draft.failUrl,
    draft.notificationUrl ?? null,
    draft.externalReference ?? null,
  ]);
  return createHash('sha256').update(canonical).digest('hex').slice(0, 32);
}

export class BatchJournal {
  /** The last event per key from earlier runs. */
  readonly previous = new Map<string, JournalRecord>();
  readonly #fd: number;
  readonly #seen = new Map<string, number>();

  constructor(readonly path: string) {
    if (existsSync(path)) {
      const lines = readFileSync(path, 'utf8').split('\n');
      lines.forEach((text, index) => {
        if (text.trim() === '') return;
        try {
          const record = JSON.parse(text) as JournalRecord;
          this.previous.set(record.key, record);
        } catch {
          // A line cut by a crash mid-write can only be the last one; anything else is not our file.
          if (index < lines.length - 2)
            throw usageError(`--journal: ${path} line ${index + 1} is not a payorder journal record`, {
              field: '--journal',
            });
        }
      });
    }
    this.#fd = openSync(path, 'a', 0o600);
  }

  /** The key of the next line with this content (the Nth identical line gets the Nth key). */
  keyFor(base: string): string {
    const count = (this.#seen.get(base) ?? 0) + 1;
    this.#seen.set(base, count);
    return `${base}#${count}`;
  }

  write(record: JournalRecord): void {
    writeSync(this.#fd, `${JSON.stringify(record)}\n`);
    this.previous.set(record.key, record);
  }

  close(): void {
    closeSync(this.#fd);
  }
}
