/**
 * A batch's lines are recorded in groups (the ledger's entries in one transaction, the journal's
 * records in one sync): a group begins once the one before it is on the disk, with the lines started
 * meanwhile. A real journal file and a real ledger; the journal's `synced` is watched to count groups
 * and to hold one open.
 */
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { Target } from '../../src/api/service.js';
import { CliError } from '../../src/errors.js';
import { openLedger } from '../../src/ledger/ledger.js';
import { CreationLedger } from '../../src/ledger/recording.js';
import { openJournal } from '../../src/orders/batch-journal.js';
import { LineRecorder, NOT_SENT_ERROR, NotRecorded } from '../../src/orders/line-recorder.js';
import { journalRecords, referenceDraft, SANDBOX_TARGET } from '../helpers/batch.js';
import { tempDir } from '../helpers/cli.js';
import { testContext } from '../helpers/context.js';

const TARGET = { profile: 'default', env: 'sandbox', version: 'v2' } as Target;
const AT = new Date('2026-11-27T12:00:00Z');

const draft = referenceDraft;

const line = (n: number, reference = `REF-${n}`) => ({ line: n, key: `k#${n}`, draft: draft(reference) });

async function opened() {
  const dir = tempDir();
  const { ctx } = testContext({ env: { PAYORDER_DATA_DIR: join(dir, 'data') }, now: AT });
  const ledger = await openLedger(ctx, { create: true });
  const creation = new CreationLedger(ctx, ledger, TARGET, { keep: true, allowDuplicateReference: false });
  const path = join(dir, 'orders.journal');
  const journal = openJournal(path, SANDBOX_TARGET);
  const realSynced = journal.synced.bind(journal);
  const synced = vi.spyOn(journal, 'synced');
  /** What the ledger holds, as another process reads it: reference and outcome. */
  const entries = async () => {
    const reader = await openLedger(ctx, { create: false });
    try {
      return reader
        ?.find({ profile: 'default', env: 'sandbox', limit: 10 })
        .map((entry) => [entry.external_reference, entry.outcome, entry.error])
        .sort(([a], [b]) => String(a).localeCompare(String(b)));
    } finally {
      reader?.close();
    }
  };
  const sending = () =>
    journalRecords(path)
      .filter((record) => record.event === 'sending')
      .map((r) => r.line);
  const events = () =>
    journalRecords(path).map((record) => [record.line, record.event, record.error ?? null]);
  return {
    recorder: new LineRecorder(journal, creation, () => AT),
    journal,
    events,
    realSynced,
    synced,
    entries,
    sending,
    creation,
  };
}

describe('a batch records its lines in groups', () => {
  it('a line of an idle batch is recorded at once: its ledger entry committed, its record synced', async () => {
    const { recorder, synced, entries, sending } = await opened();
    const recording = await recorder.record(line(1));
    expect(recording).toMatchObject({ created: expect.any(Function), failed: expect.any(Function) });
    expect(synced).toHaveBeenCalledTimes(1);
    expect(sending()).toEqual([1]);
    expect(await entries()).toEqual([['REF-1', 'unknown', null]]);
  });

  it('lines started together share a transaction and a sync; those started during it, the next', async () => {
    const { recorder, realSynced, synced, sending } = await opened();
    let release = () => {};
    synced.mockImplementationOnce(async () => {
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      return realSynced();
    });
    const first = [recorder.record(line(1)), recorder.record(line(2))];
    await vi.waitFor(() => expect(synced).toHaveBeenCalledTimes(1));
    // Started while the first group is being synced: they wait for it, then go together.
    const second = [recorder.record(line(3)), recorder.record(line(4)), recorder.record(line(5))];
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(sending()).toEqual([1, 2]);
    release();
    await Promise.all([...first, ...second]);
    expect(synced).toHaveBeenCalledTimes(2);
    expect(sending()).toEqual([1, 2, 3, 4, 5]);
  });

  it('a reference in use refuses its line only, which gets no journal record', async () => {
    const { recorder, sending, entries } = await opened();
    const results = await Promise.allSettled([recorder.record(line(1)), recorder.record(line(2, 'REF-1'))]);
    expect(results[0]?.status).toBe('fulfilled');
    const refusal = (results[1] as PromiseRejectedResult).reason;
    expect(refusal).toBeInstanceOf(CliError);
    expect([refusal.kind, refusal.message]).toEqual([
      'usage',
      expect.stringContaining('external_reference: REF-1 is the reference of an order sent at'),
    ]);
    expect(sending()).toEqual([1]);
    expect(await entries()).toEqual([['REF-1', 'unknown', null]]);
  });

  it('a journal that cannot be synced refuses the whole group, whose entries say it was not sent', async () => {
    const { recorder, synced, entries, creation } = await opened();
    synced.mockRejectedValueOnce(new CliError('io', 'cannot write the journal (EIO)'));
    const results = await Promise.allSettled([recorder.record(line(1)), recorder.record(line(2))]);
    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected']);
    creation.close();
    expect(await entries()).toEqual([
      ['REF-1', 'failed', NOT_SENT_ERROR],
      ['REF-2', 'failed', NOT_SENT_ERROR],
    ]);
  });

  it('a journal write that fails refuses the group; the lines it recorded are said not sent; no line is recorded after', async () => {
    const { recorder, journal, events, entries } = await opened();
    const realWrite = journal.write.bind(journal);
    const write = vi.spyOn(journal, 'write');
    write.mockImplementationOnce(realWrite); // line 1's "sending"
    write.mockImplementationOnce(() => {
      throw new CliError('io', 'cannot write the journal (ENOSPC)');
    });
    const results = await Promise.allSettled([recorder.record(line(1)), recorder.record(line(2))]);
    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected']);
    // Line 1's "sending" record is followed by its "failed" one: a rerun sends it.
    expect(events()).toEqual([
      [1, 'sending', null],
      [1, 'failed', NOT_SENT_ERROR],
    ]);
    await expect(recorder.record(line(3))).rejects.toBeInstanceOf(NotRecorded);
    expect(events()).toHaveLength(2);
    expect((await entries())?.map(([reference]) => reference)).toEqual(['REF-1', 'REF-2']);
  });

  it('a ledger that cannot be written refuses the group, with nothing in the journal; no line is recorded after', async () => {
    const { recorder, creation, events } = await opened();
    vi.spyOn(creation, 'sendingLines').mockImplementationOnce(() => {
      throw new CliError('io', 'cannot write the order ledger (SQLITE_FULL)');
    });
    const results = await Promise.allSettled([recorder.record(line(1)), recorder.record(line(2))]);
    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected']);
    expect((results[0] as PromiseRejectedResult).reason.message).toContain('SQLITE_FULL');
    await expect(recorder.record(line(3))).rejects.toBeInstanceOf(NotRecorded);
    expect(events()).toEqual([]);
  });
});
