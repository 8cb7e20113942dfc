/**
 * A line's request leaves only once its "sending" record is on the disk: the file system's
 * fdatasync is mocked (the only way to hold a sync here) so that a test decides when it completes.
 * Test files share their worker's modules (vitest.config.ts): payorder is loaded afresh, after the mock.
 */
import * as fs from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { JournalRecord } from '../../src/orders/journal-file.js';
import { NOT_SENT_ERROR } from '../../src/orders/line-recorder.js';
import { journalRecords, SANDBOX_TARGET, sendingRecord, writeOrderLines } from '../helpers/batch.js';
import { tempDir } from '../helpers/cli.js';
import { useE2E } from '../helpers/e2e.js';
import { call, journal } from '../helpers/sandbox.js';

vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs')>();
  return { ...real, fdatasync: vi.fn(real.fdatasync) };
});

const e2e = useE2E();

let openJournal: typeof import('../../src/orders/batch-journal.js').openJournal;
let runInProcess: typeof import('../helpers/context.js').runInProcess;
let real: typeof import('node:fs');
beforeAll(async () => {
  vi.resetModules();
  real = await vi.importActual<typeof import('node:fs')>('node:fs');
  ({ openJournal } = await import('../../src/orders/batch-journal.js'));
  ({ runInProcess } = await import('../helpers/context.js'));
});
afterEach(() => {
  vi.mocked(fs.fdatasync).mockClear();
  vi.mocked(fs.fdatasync).mockImplementation(real.fdatasync);
});

/** Syncs are held until `release()`: each one completes only then. */
function holdSyncs() {
  const held: Array<() => void> = [];
  vi.mocked(fs.fdatasync).mockImplementation(((fd: number, done: (error: Error | null) => void) => {
    held.push(() => real.fdatasync(fd, done));
  }) as typeof fs.fdatasync);
  return {
    held,
    release() {
      vi.mocked(fs.fdatasync).mockImplementation(real.fdatasync);
      for (const sync of held.splice(0)) sync();
    },
  };
}

const TARGET = SANDBOX_TARGET;
const sending = (n: number): JournalRecord => sendingRecord(`k#${n}`, n);

describe('the journal on the disk', () => {
  it('records written in one turn share one fdatasync; a record written during it waits for the next', async () => {
    const { held, release } = holdSyncs();
    const journalFile = openJournal(join(tempDir('journal-sync-'), 'orders.journal'), TARGET);
    let firstSynced = false;
    for (const n of [1, 2, 3]) journalFile.write(sending(n));
    const first = journalFile.synced().then(() => {
      firstSynced = true;
    });
    await expect.poll(() => held.length).toBe(1);
    journalFile.write(sending(4));
    const second = journalFile.synced();
    await new Promise((resolve) => setTimeout(resolve, 20));
    // The first sync has not completed: nothing waiting for it goes on, and the fourth record waits
    // for a sync of its own, begun only once the first is done.
    expect(firstSynced).toBe(false);
    expect(held).toHaveLength(1);
    release();
    await first;
    await expect.poll(() => vi.mocked(fs.fdatasync).mock.calls.length).toBe(2);
    await second;
    await journalFile.close();
  });

  it('a batch sends no line before its "sending" record is synced', async () => {
    await e2e.login();
    await call(e2e.sb.url, 'DELETE', '/_sandbox/journal');
    const journalFile = join(e2e.dir, 'orders.journal');
    const { held, release } = holdSyncs();
    const running = runInProcess(
      [
        'order',
        'create',
        '--env',
        'sandbox',
        '--input',
        writeOrderLines(e2e.dir, 3),
        '--journal',
        journalFile,
        '--concurrency',
        '1',
      ],
      { env: e2e.env() },
    );
    await expect.poll(() => held.length, { timeout: 5_000 }).toBeGreaterThan(0);
    // Long enough for a request that did not wait to reach the sandbox.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(journalRecords(journalFile).map((r) => [r.line, r.event])).toEqual([[1, 'sending']]);
    expect(await journal(e2e.sb.url, 'checkout')).toEqual([]);

    release();
    const result = await running;
    expect(result.exitCode, result.stderr).toBe(0);
    expect(await journal(e2e.sb.url, 'checkout')).toHaveLength(3);
    // One sync per line at concurrency 1 before its request, and the last records' before the end.
    expect(vi.mocked(fs.fdatasync).mock.calls.length).toBeGreaterThanOrEqual(4);
  });

  // Ctrl-C (or a hang-up, a closed pipe) while a line waits for its record to be synced: the line is
  // not sent once the sync is done, and its journal says so, so that a rerun sends it.
  it('a line whose record is being synced when Ctrl-C comes is not sent; a rerun sends it', async () => {
    await e2e.loginAfresh();
    const journalFile = join(e2e.dir, 'orders.journal');
    const input = writeOrderLines(e2e.dir, 3);
    const args = ['order', 'create', '--env', 'sandbox', '--input', input, '--journal', journalFile];
    const { held, release } = holdSyncs();
    const ctrlC = new AbortController();
    const running = runInProcess([...args, '--concurrency', '1'], { env: e2e.env(), signal: ctrlC.signal });
    await expect.poll(() => held.length, { timeout: 5_000 }).toBeGreaterThan(0);
    ctrlC.abort('SIGINT');
    release();
    const result = await running;
    expect(result.exitCode).toBe(130);
    expect(await journal(e2e.sb.url, 'checkout')).toEqual([]);
    expect(result.stderr).toMatch(/error: interrupted after 0 lines/);
    // Line 2 may have been recorded too, ahead of line 1's request (one line ahead at --concurrency 1):
    // then it was not sent either. Every line recorded is recorded not sent.
    const records = journalRecords(journalFile);
    const lines = [...new Set(records.map((r) => r.line))];
    expect(lines).toContain(1);
    for (const line of lines)
      expect(records.filter((r) => r.line === line).map((r) => [r.event, r.error])).toEqual([
        ['sending', undefined],
        ['failed', NOT_SENT_ERROR],
      ]);

    const again = await runInProcess(args, { env: e2e.env() });
    expect(again.exitCode, again.stderr).toBe(0);
    expect(await journal(e2e.sb.url, 'checkout')).toHaveLength(3);
  });
});
