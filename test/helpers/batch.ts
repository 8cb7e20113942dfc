/**
 * Batch files and what a batch leaves behind, for the tests of `order create --input`: NDJSON lines
 * of orders, the records of an NDJSON output, and the records of a journal file.
 */

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SANDBOX_DEFAULT_URL } from '../../src/contract/environments.js';
import type { OrderDraft } from '../../src/contract/schemas.js';
import type { JournalRecord, JournalTarget } from '../../src/orders/journal-file.js';
import { NOT_SENT_ERROR } from '../../src/orders/line-recorder.js';
import { SHOP } from './cli.js';

/** Input line `n`: an order of n.nn (n and its last two digits), described "line n". */
export const orderLine = (n: number, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    amount: `${n}.${String(n % 100).padStart(2, '0')}`,
    description: `line ${n}`,
    success: 'https://shop.example/ok',
    fail: 'https://shop.example/ko',
    ...extra,
  });

/** Writes lines 1 to `count` (line n with the external reference REF-n) to `dir`/`name`; returns its path. */
export function writeOrderLines(dir: string, count: number, name = 'orders.ndjson'): string {
  const file = join(dir, name);
  const lines = Array.from({ length: count }, (_, i) =>
    orderLine(i + 1, { external_reference: `REF-${i + 1}` }),
  );
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

/** The command line of a batch of `file` on the sandbox, then `more`. */
export const batchCommand = (file: string, ...more: string[]) => [
  'order',
  'create',
  '--env',
  'sandbox',
  '--input',
  file,
  ...more,
];

/** The records of an NDJSON output, one per line. */
export const recordsOf = (stdout: string): any[] =>
  stdout
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line));

/** The records of a journal file, without the header line each run starts with. */
export const journalRecords = (file: string): any[] =>
  recordsOf(readFileSync(file, 'utf8')).filter((record) => record.payorder_journal === undefined);

/** The last event the journal holds for each line key. */
export const lastEvents = (file: string) =>
  new Map(journalRecords(file).map((record) => [record.key as string, record.event as string]));

/**
 * The last event of each line the batch sent: a line the stop came for while its record was being
 * synced or it waited for a slot is recorded failed as not sent (a rerun sends it), and is left out.
 */
export const sentEvents = (file: string) => {
  const last = new Map(journalRecords(file).map((record) => [record.key as string, record]));
  return [...last.values()].filter((record) => record.error !== NOT_SENT_ERROR).map((record) => record.event);
};

/** The target of a journal the sandbox's defaults fill, for the journal's own tests. */
export const SANDBOX_TARGET: JournalTarget = {
  env: 'sandbox',
  api: 'v2',
  auth: SANDBOX_DEFAULT_URL,
  checkout: SANDBOX_DEFAULT_URL,
  client_id: SHOP.clientId,
};

/** A "sending" record of line `line` under `key`, at a fixed time. */
export const sendingRecord = (key: string, line: number): JournalRecord => ({
  key,
  line,
  event: 'sending',
  at: '2026-06-01T12:00:00.000Z',
});

/** An order of 12.50 with external reference `reference`, as the ledger records it. */
export const referenceDraft = (reference: string): OrderDraft => ({
  amountCents: 1250n,
  description: `Tea ${reference}`,
  successUrl: 'https://s.example/ok',
  failUrl: 'https://s.example/ko',
  externalReference: reference,
});
