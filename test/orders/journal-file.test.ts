/**
 * A journal read in pieces by a resume: every key's last record is found where it is and read back
 * whole, across the pieces' ends and for a line longer than a piece; the files it reads from are
 * closed with the journal.
 */
import { closeSync, openSync, readdirSync, readFileSync, statSync, truncateSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Order } from '../../src/contract/schemas.js';
import { CliError, EXIT } from '../../src/errors.js';
import { openAutomaticJournal } from '../../src/orders/auto-journal.js';
import { openJournal } from '../../src/orders/batch-journal.js';
import type { JournalRecord } from '../../src/orders/journal-file.js';
import { SANDBOX_TARGET } from '../helpers/batch.js';
import { tempDir } from '../helpers/cli.js';

const AT = '2026-11-27T12:00:00.000Z';

const orderOf = (n: number): Order =>
  ({
    id: `order-${n}`,
    status: 'PENDING',
    amount: { value: `${n}.00`, currency: 'PLN' },
    description: `line ${n} ${'é'.repeat(n % 7)}`,
    external_reference: `REF-${n}`,
    links: { checkout: `https://pay.example/c/${n}`, success: null, failed: null },
  }) as unknown as Order;

const openFds = () => readdirSync('/proc/self/fd').length;

describe('a journal read back by a resume', () => {
  it('finds the last record of each of 6,000 keys, across 1 MiB pieces and a line of 1.5 MiB', async () => {
    const path = join(tempDir('journal-file-'), 'orders.journal');
    const journal = openJournal(path, SANDBOX_TARGET);
    const last = new Map<string, JournalRecord>();
    for (let n = 1; n <= 6_000; n++) {
      const key = `k${n}#1`;
      journal.write({ key, line: n, event: 'sending', at: AT });
      const record: JournalRecord =
        n % 3 === 0
          ? { key, line: n, event: 'failed', at: AT, error: n === 3_000 ? 'x'.repeat(1_500_000) : 'refused' }
          : { key, line: n, event: 'created', at: AT, order: orderOf(n) };
      journal.write(record);
      last.set(key, record);
    }
    await journal.close();
    expect(statSync(path).size).toBeGreaterThan(3 * 1024 * 1024);

    const resumed = openJournal(path, SANDBOX_TARGET);
    try {
      expect(resumed.previous.size).toBe(6_000);
      const wrong = [...last].filter(
        ([key, record]) => JSON.stringify(resumed.previous.get(key)) !== JSON.stringify(record),
      );
      expect(wrong.map(([key]) => key)).toEqual([]);
      expect(resumed.previous.get('k3000#1')?.error).toHaveLength(1_500_000);
      expect(resumed.previous.get('absent#1')).toBeUndefined();
    } finally {
      await resumed.close();
    }
  });

  it('says a record that cannot be read back as an io error (exit 5) naming the journal', async () => {
    const path = join(tempDir('journal-file-'), 'orders.journal');
    const journal = openJournal(path, SANDBOX_TARGET);
    journal.write({ key: 'a#1', line: 1, event: 'created', at: AT, order: orderOf(1) });
    journal.write({ key: 'b#1', line: 2, event: 'created', at: AT, order: orderOf(2) });
    await journal.close();
    const written = statSync(path).size;
    const resumed = openJournal(path, SANDBOX_TARGET);
    try {
      // Something else cuts the file while the batch runs, in the middle of the last record.
      truncateSync(path, written - 40);
      expect(resumed.previous.get('a#1')?.order).toEqual(orderOf(1));
      const error = (() => {
        try {
          resumed.previous.get('b#1');
        } catch (caught) {
          return caught as CliError;
        }
      })();
      expect(error).toBeInstanceOf(CliError);
      expect(error?.exitCode).toBe(EXIT.network);
      expect(error?.message).toBe(`cannot read the journal ${path} back (changed while the batch ran)`);
    } finally {
      await resumed.close();
    }
  });

  it('refuses a record read back that is another key’s: the file was changed under it', async () => {
    const path = join(tempDir('journal-file-'), 'orders.journal');
    const journal = openJournal(path, SANDBOX_TARGET);
    journal.write({ key: 'b#1', line: 2, event: 'created', at: AT, order: orderOf(2) });
    await journal.close();
    const resumed = openJournal(path, SANDBOX_TARGET);
    try {
      // The same bytes but for the key: still a record, of another line.
      const text = readFileSync(path, 'utf8');
      const fd = openSync(path, 'r+');
      writeSync(fd, '"key":"c#1"', text.indexOf('"key":"b#1"'));
      closeSync(fd);
      expect(() => resumed.previous.get('b#1')).toThrow(
        `cannot read the journal ${path} back (changed while the batch ran)`,
      );
    } finally {
      await resumed.close();
    }
  });

  it.runIf(process.platform === 'linux')(
    'reads a small earlier automatic journal into memory, keeps a large one open while the batch runs, and closes it with it',
    async () => {
      const folder = tempDir('journal-file-auto-');
      const now = new Date(AT);
      const options = { folder, target: SANDBOX_TARGET, windowMs: 24 * 3_600_000, again: false };
      const earlierRun = async (lines: number, minutesAgo: number) => {
        const run = openAutomaticJournal({ ...options, now: new Date(now.getTime() - minutesAgo * 60_000) });
        for (let n = 1; n <= lines; n++)
          run.write({ key: `k${n}#${minutesAgo}`, line: n, event: 'created', at: AT, order: orderOf(n) });
        await run.close();
      };
      await earlierRun(10, 120);
      const before = openFds();
      const afterSmall = openAutomaticJournal({ ...options, now });
      try {
        expect(afterSmall.previous.get('k10#120')?.order).toEqual(orderOf(10));
        // Its own file only: the earlier one (a few kB) was read into memory.
        expect(openFds()).toBe(before + 1);
      } finally {
        await afterSmall.close();
      }
      // 1,000 lines of about 300 bytes: past what is read into memory.
      await earlierRun(1_000, 60);
      const afterLarge = openAutomaticJournal({ ...options, now });
      try {
        expect(afterLarge.previous.get('k1000#60')?.order).toEqual(orderOf(1_000));
        expect(afterLarge.previous.get('k10#120')?.order).toEqual(orderOf(10));
        expect(afterLarge.previous.size).toBe(1_010);
        expect(openFds()).toBe(before + 2);
      } finally {
        await afterLarge.close();
      }
      expect(openFds()).toBe(before);
    },
  );
});
