/**
 * An answer (created, failed) kept for later is written with the next order's record, in its
 * transaction, or as the ledger closes; until then its order reads as sent with no answer recorded,
 * which holds its reference, as it would had the process ended before the answer came.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Order, OrderDraft } from '../../src/contract/schemas.js';
import { type Ledger, type LedgerTarget, openLedger } from '../../src/ledger/ledger.js';
import { referenceDraft } from '../helpers/batch.js';
import { tempDir } from '../helpers/cli.js';
import { testContext } from '../helpers/context.js';

const TARGET: LedgerTarget = { profile: 'default', env: 'sandbox', version: 'v2' };
const AT = new Date('2026-11-26T12:00:00Z');

const draft = referenceDraft;

const order = (uuid: string, reference: string): Order => ({
  version: 'v2',
  id: `/v2/api/orders/${uuid}`,
  uuid,
  type: 'checkout',
  status: 'PENDING',
  amount: '12.50',
  amount_cents: '1250',
  currency: null,
  order_number: null,
  ref_number: null,
  external_reference: reference,
  links: { checkout: `https://pay.example/${uuid}`, success: null, failed: null },
});

async function opened(dir: string): Promise<Ledger> {
  const ledger = await openLedger(testContext({ env: { PAYORDER_DATA_DIR: dir } }).ctx, { create: true });
  if (!ledger) throw new Error('no ledger');
  return ledger;
}

/** What another process reading the ledger sees of each reference: outcome and uuid. */
async function seen(dir: string): Promise<Array<[string | null, string, string | null]>> {
  const reader = await opened(dir);
  try {
    return reader
      .find({ profile: 'default', env: 'sandbox', limit: 10 })
      .map(
        (entry) =>
          [entry.external_reference, entry.outcome, entry.uuid] as [string | null, string, string | null],
      )
      .sort(([a], [b]) => String(a).localeCompare(String(b)));
  } finally {
    reader.close();
  }
}

type Sending = ReturnType<Ledger['sending']>;

const entryOf = (result: Sending) => {
  if (!('entry' in result)) throw new Error('refused');
  return result.entry;
};

describe('answers kept for later', () => {
  it("are written with the next order's record, and the last as the ledger closes", async () => {
    const dir = join(tempDir(), 'data');
    const ledger = await opened(dir);
    const options = { source: 'batch' as const, at: AT, checkReference: true };
    const first = entryOf(ledger.sending(TARGET, draft('REF-1'), options));
    ledger.later(() => ledger.created(first, order('u-1', 'REF-1'), AT));
    expect(await seen(dir)).toEqual([['REF-1', 'unknown', null]]);

    const second = entryOf(ledger.sending(TARGET, draft('REF-2'), options));
    ledger.later(() => ledger.failed(second, 'failed', 'refused'));
    expect(await seen(dir)).toEqual([
      ['REF-1', 'created', 'u-1'],
      ['REF-2', 'unknown', null],
    ]);

    ledger.close();
    expect(await seen(dir)).toEqual([
      ['REF-1', 'created', 'u-1'],
      ['REF-2', 'failed', null],
    ]);
  });

  it("a failed answer kept for later frees its reference before the next record's check", async () => {
    const dir = join(tempDir(), 'data');
    const ledger = await opened(dir);
    const options = { source: 'batch' as const, at: AT, checkReference: true };
    const first = entryOf(ledger.sending(TARGET, draft('REF-1'), options));
    ledger.later(() => ledger.failed(first, 'failed', 'refused'));
    // Sent with no answer recorded, the first would hold REF-1; its answer is written first.
    expect('entry' in ledger.sending(TARGET, draft('REF-1'), options)).toBe(true);
    ledger.close();
  });
});

describe('the lines of a batch recorded together', () => {
  const options = { source: 'batch' as const, at: AT, checkReference: true };

  it('are written in one transaction, with the answers kept before them', async () => {
    const dir = join(tempDir(), 'data');
    const ledger = await opened(dir);
    const [first] = ledger.sendingAll(TARGET, [draft('REF-1')], options);
    ledger.later(() => ledger.created(entryOf(first as Sending), order('u-1', 'REF-1'), AT));
    const results = ledger.sendingAll(TARGET, [draft('REF-2'), draft('REF-3')], options);
    expect(results.every((result) => 'entry' in result)).toBe(true);
    expect(await seen(dir)).toEqual([
      ['REF-1', 'created', 'u-1'],
      ['REF-2', 'unknown', null],
      ['REF-3', 'unknown', null],
    ]);
    ledger.close();
  });

  it('each check their reference against the lines before them', async () => {
    const dir = join(tempDir(), 'data');
    const ledger = await opened(dir);
    const [taken, refused] = ledger.sendingAll(TARGET, [draft('REF-1'), draft('REF-1')], options);
    expect(taken).toEqual({ entry: expect.any(Number) });
    expect(refused).toEqual({ holder: expect.objectContaining({ external_reference: 'REF-1', uuid: null }) });
    ledger.close();
  });

  it('are all refused, and none recorded, when one of them cannot be written', async () => {
    const dir = join(tempDir(), 'data');
    const ledger = await opened(dir);
    const unwritable = { ...draft('REF-2'), successUrl: undefined } as unknown as OrderDraft;
    expect(() => ledger.sendingAll(TARGET, [draft('REF-1'), unwritable, draft('REF-3')], options)).toThrow();
    expect(await seen(dir)).toEqual([]);
    // The ledger is still usable.
    expect('entry' in (ledger.sendingAll(TARGET, [draft('REF-4')], options)[0] as Sending)).toBe(true);
    ledger.close();
    expect(await seen(dir)).toEqual([['REF-4', 'unknown', null]]);
  });
});
