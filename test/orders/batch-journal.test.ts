import { appendFileSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Order, OrderDraft } from '../../src/contract/schemas.js';
import { CliError, EXIT } from '../../src/errors.js';
import { type BatchJournal, draftKey, openJournal } from '../../src/orders/batch-journal.js';
import type { JournalRecord, JournalTarget } from '../../src/orders/journal-file.js';
import { LineKeys } from '../../src/orders/line-keys.js';
import { SHOP, tempDir } from '../helpers/cli.js';
import { rejection } from '../helpers/refusal.js';

const TARGET: JournalTarget = {
  env: 'stage',
  api: 'v2',
  auth: 'https://auth.stage.example.com',
  checkout: 'https://checkout.stage.example.com',
  client_id: SHOP.clientId,
};
const HEADER = JSON.stringify({ payorder_journal: 1, target: TARGET });
const AT = '2026-06-01T12:00:00.000Z';

const tea: OrderDraft = {
  amountCents: 1250n,
  description: 'Tea',
  successUrl: 'https://shop.example/thanks',
  failUrl: 'https://shop.example/cart',
};

const order: Order = {
  version: 'v2',
  id: '101',
  uuid: '7f1c2b1e-8a59-4c1f-9d3e-2b7f0c8e4a11',
  type: 'payment',
  status: 'PENDING',
  amount: '12.50',
  amount_cents: '1250',
  currency: null,
  order_number: null,
  ref_number: null,
  external_reference: null,
  links: { checkout: 'https://pay.example/c/101', success: null, failed: null },
};

const journalPath = () => join(tempDir('batch-journal-'), 'orders.journal');

/** Opens a journal and a run's line keys, runs `use` on them and closes them, as one batch run does. */
async function run<T>(
  path: string,
  use: (journal: BatchJournal, keys: LineKeys) => T,
  target = TARGET,
): Promise<T> {
  const keys = new LineKeys();
  const journal = openJournal(path, target);
  try {
    return use(journal, keys);
  } finally {
    await journal.close();
  }
}

/** The records in the file, each run's header left out. */
const fileRecords = (path: string): JournalRecord[] =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line !== '' && line !== HEADER)
    .map((line) => JSON.parse(line) as JournalRecord);

describe('draftKey', () => {
  it('is the same for the same order, and 32 hex characters long', async () => {
    const key = draftKey(tea);
    expect(key).toMatch(/^[0-9a-f]{32}$/);
    expect(draftKey({ ...tea })).toBe(key);
  });

  it('is the key journals already hold: a change would make every resume send its lines again', () => {
    // The first 16 bytes of the SHA-256 of the canonical order, as payorder has written them.
    expect(draftKey(tea)).toBe('8f39c3008e0e0610da8ec15faaf45aeb');
  });

  it('treats an absent optional field and an undefined one alike', async () => {
    expect(draftKey({ ...tea, notificationUrl: undefined, externalReference: undefined })).toBe(
      draftKey(tea),
    );
  });

  it.each<[string, OrderDraft]>([
    ['the amount', { ...tea, amountCents: 1251n }],
    ['the description', { ...tea, description: 'Tea ' }],
    ['the success link', { ...tea, successUrl: 'https://shop.example/thanks2' }],
    ['the fail link', { ...tea, failUrl: 'https://shop.example/cart2' }],
    ['the notification URL', { ...tea, notificationUrl: 'https://shop.example/n' }],
    ['the external reference', { ...tea, externalReference: 'WEB-1' }],
  ])('changes with %s', (_, draft) => {
    expect(draftKey(draft)).not.toBe(draftKey(tea));
  });

  it('cannot be forged by moving text from one field into the next', async () => {
    const a = { ...tea, description: 'Tea","https://x', successUrl: 'https://y' };
    const b = { ...tea, description: 'Tea', successUrl: 'https://x","https://y' };
    expect(draftKey(a)).not.toBe(draftKey(b));
  });
});

describe('BatchJournal', () => {
  it('creates the file readable by its owner only, and starts with no previous records', async () => {
    const path = journalPath();
    const previous = await run(path, (journal) => new Map(journal.previous));
    expect(previous.size).toBe(0);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    // A run starts with a header naming its target, and nothing else yet.
    expect(readFileSync(path, 'utf8')).toBe(`${HEADER}\n`);
  });

  it('writes one JSON line per record as it goes, and keeps none of them in memory', async () => {
    const path = journalPath();
    const sending: JournalRecord = { key: 'k#1', line: 1, event: 'sending', at: AT };
    const created: JournalRecord = { key: 'k#1', line: 1, event: 'created', at: AT, order };
    await run(path, (journal) => {
      journal.write(sending);
      // Written through to the file at once, not at close: a kill -9 loses nothing written.
      expect(fileRecords(path)).toEqual([sending]);
      journal.write(created);
      // A key never comes twice in one run: a batch's memory does not grow with its input.
      expect(journal.previous.size).toBe(0);
    });
    expect(fileRecords(path)).toEqual([sending, created]);
  });

  it('reads back the last event of every key from earlier runs, and appends after them', async () => {
    const path = journalPath();
    const records: JournalRecord[] = [
      { key: 'a#1', line: 1, event: 'sending', at: AT },
      { key: 'a#1', line: 1, event: 'created', at: AT, order },
      { key: 'b#1', line: 2, event: 'sending', at: AT },
      { key: 'b#1', line: 2, event: 'failed', at: AT, error: 'amount: must be greater than zero' },
      { key: 'c#1', line: 3, event: 'sending', at: AT },
      { key: 'd#1', line: 4, event: 'sending', at: AT },
      { key: 'd#1', line: 4, event: 'unknown', at: AT, error: 'no answer' },
    ];
    await run(path, (journal) => {
      for (const record of records) journal.write(record);
    });
    const later: JournalRecord = { key: 'c#1', line: 3, event: 'created', at: AT, order };
    await run(path, (journal) => {
      expect(Object.fromEntries(journal.previous)).toEqual({
        'a#1': records[1],
        'b#1': records[3],
        'c#1': records[4],
        'd#1': records[6],
      });
      journal.write(later);
    });
    expect(fileRecords(path)).toEqual([...records, later]);
  });

  it('numbers identical lines by occurrence, per content, afresh in each run', async () => {
    const path = journalPath();
    const teaKey = draftKey(tea);
    const cakeKey = draftKey({ ...tea, description: 'Cake' });
    const keys = await run(path, (_, lineKeys) => [
      lineKeys.keyFor(teaKey),
      lineKeys.keyFor(cakeKey),
      lineKeys.keyFor(teaKey),
      lineKeys.keyFor(teaKey),
      lineKeys.keyFor(cakeKey),
    ]);
    expect(keys).toEqual([`${teaKey}#1`, `${cakeKey}#1`, `${teaKey}#2`, `${teaKey}#3`, `${cakeKey}#2`]);
    expect(await run(path, (_, lineKeys) => lineKeys.keyFor(teaKey))).toBe(`${teaKey}#1`);
  });

  it('lets a resumed run find each line by content and occurrence, even when the file was reordered', async () => {
    const path = journalPath();
    const cake: OrderDraft = { ...tea, description: 'Cake', amountCents: 300n };
    // Run 1 reads Tea, Cake, Tea; the first two are created, then the process is killed while the
    // third is in flight (its last record is "sending").
    await run(path, (journal, keys) => {
      const lines: Array<[number, OrderDraft]> = [
        [1, tea],
        [2, cake],
        [3, tea],
      ];
      const lineKeys = lines.map(([line, draft]) => [line, keys.keyFor(draftKey(draft))] as const);
      for (const [line, key] of lineKeys) journal.write({ key, line, event: 'sending', at: AT });
      journal.write({ key: lineKeys[0]![1], line: 1, event: 'created', at: AT, order });
      journal.write({
        key: lineKeys[1]![1],
        line: 2,
        event: 'created',
        at: AT,
        order: { ...order, id: '102' },
      });
    });
    // Run 2 reads the lines in another order, with a new line first.
    const events = await run(path, (journal, keys) =>
      [{ ...tea, description: 'New' }, tea, tea, cake].map((draft) => {
        const record = journal.previous.get(keys.keyFor(draftKey(draft)));
        return record && [record.line, record.event, record.order?.id ?? null];
      }),
    );
    expect(events).toEqual([undefined, [1, 'created', '101'], [3, 'sending', null], [2, 'created', '102']]);
  });

  it.each<[string, Partial<JournalTarget>]>([
    ['environment', { env: 'sandbox' }],
    ['API version', { api: 'v1' }],
    ['auth address', { auth: 'https://auth.elsewhere.example.com' }],
    ['checkout address', { checkout: 'https://checkout.elsewhere.example.com' }],
    ['client id', { client_id: 'other-client' }],
  ])(
    'refuses a run for another %s, naming both targets, and leaves the file as it was',
    async (_, change) => {
      const path = journalPath();
      await run(path, (journal) => journal.write({ key: 'a#1', line: 1, event: 'created', at: AT, order }));
      const before = readFileSync(path, 'utf8');
      let caught: unknown;
      try {
        await run(path, () => undefined, { ...TARGET, ...change });
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(CliError);
      expect((caught as CliError).exitCode).toBe(EXIT.usage);
      expect((caught as CliError).message).toContain(`${path} belongs to a batch for stage v2`);
      expect((caught as CliError).details.hint).toContain('would create every order again');
      expect(readFileSync(path, 'utf8')).toBe(before);
    },
  );

  describe('a journal cut by a crash', () => {
    const sending: JournalRecord = { key: 'a#1', line: 1, event: 'sending', at: AT };

    it('ignores a last line cut in the middle of a write', async () => {
      const path = journalPath();
      writeFileSync(path, `${HEADER}\n${JSON.stringify(sending)}\n{"key":"b#1","line":2,"ev`);
      const previous = await run(path, (journal) => new Map(journal.previous));
      expect(Object.fromEntries(previous)).toEqual({ 'a#1': sending });
    });

    it('refuses a file with an unreadable line before its last, naming the file and the line', async () => {
      const path = journalPath();
      writeFileSync(
        path,
        `${HEADER}\n${JSON.stringify(sending)}\nnot a record\n${JSON.stringify(sending)}\n`,
      );
      let caught: unknown;
      try {
        void openJournal(path, TARGET).close();
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(CliError);
      expect((caught as CliError).message).toBe(`--journal: ${path} line 3 is not a payorder journal record`);
      expect((caught as CliError).details.field).toBe('--journal');
      expect((caught as CliError).exitCode).toBe(EXIT.usage);
    });

    // A cut last line gets a line of its own before the next run appends, so that run's records are
    // whole: a resume sees its orders as created and never sends them again.
    it('keeps the records of a run that appended after a cut line', async () => {
      const path = journalPath();
      writeFileSync(path, `${HEADER}\n${JSON.stringify(sending)}\n{"key":"b#1","line":2,"ev`);
      const created: JournalRecord = { key: 'c#1', line: 3, event: 'created', at: AT, order };
      await run(path, (journal) => journal.write(created));
      const previous = await run(path, (journal) => new Map(journal.previous));
      expect(Object.fromEntries(previous)).toEqual({ 'a#1': sending, 'c#1': created });
    });
  });

  // `--journal orders.ndjson` (the batch input by mistake) is refused, and the input left alone.
  it('refuses a file of JSON lines that are not journal records', async () => {
    const path = journalPath();
    appendFileSync(path, '{"amount":"12.50","description":"Tea"}\n{"amount":"3","description":"Cake"}\n');
    expect(() => void openJournal(path, TARGET).close()).toThrow(CliError);
    expect(readFileSync(path, 'utf8')).toBe(
      '{"amount":"12.50","description":"Tea"}\n{"amount":"3","description":"Cake"}\n',
    );
  });

  // What a journal file may hold is checked line by line: nothing odd in it crashes payorder, and
  // records without a run's header are not taken for an earlier run's.
  it.each([
    ['a null line after the header', `${HEADER}\nnull\n${HEADER}\n`],
    ['a number line after the header', `${HEADER}\n42\n${HEADER}\n`],
    [
      'records with no header before them',
      `${JSON.stringify({ key: 'a#1', line: 1, event: 'created', at: AT, order })}\n`,
    ],
  ])('refuses %s as a file payorder did not write (exit 2)', async (_name, text) => {
    const path = journalPath();
    writeFileSync(path, text, { mode: 0o600 });
    const error = await rejection(() => run(path, () => undefined));
    expect(error.message).toMatch(/is not a payorder journal record/);
    expect(readFileSync(path, 'utf8')).toBe(text);
  });

  it('a journal that cannot be opened is a one-line error naming it, not a raw Node error', async () => {
    const blocker = journalPath();
    writeFileSync(blocker, 'a file, not a folder');
    const path = join(blocker, 'orders.journal');
    const error = await rejection(() => run(path, () => undefined));
    expect(error.message).toContain(path);
    expect(error.message).toMatch(/ENOTDIR/);
  });
});
