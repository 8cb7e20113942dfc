/**
 * The journal on a full disk: the file system is mocked (the only way to make a write fail
 * half-way here), so that a record is cut where the disk filled up. Test files share their worker's
 * modules (vitest.config.ts): the journal and the errors are loaded afresh, after the mock.
 */
import * as fs from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { CliError as CliErrorType } from '../../src/errors.js';
import { SANDBOX_TARGET, sendingRecord } from '../helpers/batch.js';
import { tempDir } from '../helpers/cli.js';

vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs')>();
  return { ...real, writeSync: vi.fn(real.writeSync) };
});

const TARGET = SANDBOX_TARGET;
const sending = sendingRecord;

let openJournal: typeof import('../../src/orders/batch-journal.js').openJournal;
let CliError: typeof import('../../src/errors.js').CliError;
let EXIT: typeof import('../../src/errors.js').EXIT;
beforeAll(async () => {
  vi.resetModules();
  ({ openJournal } = await import('../../src/orders/batch-journal.js'));
  ({ CliError, EXIT } = await import('../../src/errors.js'));
});
afterEach(() => vi.mocked(fs.writeSync).mockReset());

describe('a journal on a full disk', () => {
  it('fails the write with an io error (exit 5) naming the file, and a resume reads what was whole', async () => {
    const real = await vi.importActual<typeof import('node:fs')>('node:fs');
    vi.mocked(fs.writeSync).mockImplementation(real.writeSync as typeof fs.writeSync);
    const path = join(tempDir('journal-full-'), 'orders.journal');
    const journal = openJournal(path, TARGET);
    journal.write(sending('a#1', 1));
    // The disk fills up in the middle of the next record: half of it reaches the file.
    vi.mocked(fs.writeSync).mockImplementationOnce(((fd: number, text: string) => {
      real.writeSync(fd, text.slice(0, 20));
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    }) as unknown as typeof fs.writeSync);
    let caught: unknown;
    try {
      journal.write(sending('b#1', 2));
    } catch (error) {
      caught = error;
    }
    // Space again, but this run appends nothing after the record it cut: that stays the run's last.
    expect(() => journal.write(sending('c#1', 3))).toThrow(caught as Error);
    await journal.close();
    expect(caught).toBeInstanceOf(CliError);
    expect((caught as CliErrorType).kind).toBe('io');
    expect((caught as CliErrorType).exitCode).toBe(EXIT.network);
    expect((caught as CliErrorType).message).toBe(`cannot write the journal ${path} (ENOSPC)`);

    // Space again: the resume sees the whole record, ignores the torn one, and appends whole lines.
    const resumed = openJournal(path, TARGET);
    expect(Object.fromEntries(resumed.previous)).toEqual({ 'a#1': sending('a#1', 1) });
    resumed.write(sending('c#1', 3));
    await resumed.close();
    const again = openJournal(path, TARGET);
    expect([...again.previous.keys()]).toEqual(['a#1', 'c#1']);
    await again.close();
  });
});
