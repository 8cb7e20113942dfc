/**
 * A reference already in use is refused: an order whose external reference belongs to an order on
 * the same target that is PENDING or PAID as last seen is not sent (exit 2, naming that order), one
 * by one and per line of a batch; after FAILED it is allowed; --allow-duplicate-reference and
 * --no-ledger override. Every order is recorded in the ledger with what was sent and what came of it.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { batchCommand, orderLine, recordsOf } from '../../helpers/batch.js';
import { orderFlags } from '../../helpers/cli.js';
import { useE2E } from '../../helpers/e2e.js';
import { call, journal } from '../../helpers/sandbox.js';

const e2e = useE2E();

const create = (reference: string, ...args: string[]) =>
  e2e.run([
    'order',
    'create',
    '--env',
    'sandbox',
    ...orderFlags({ amount: '12.50' }),
    '--external-reference',
    reference,
    ...args,
  ]);
const checkouts = async () => (await journal(e2e.sb.url, 'checkout')).length;
const find = async (...args: string[]) =>
  JSON.parse((await e2e.run(['order', 'find', '--env', 'sandbox', '-o', 'json', ...args])).stdout);

/** Batch line `n` (n.00, "line n") with the external reference `reference`. */
const referenceLine = (n: number, reference: string) =>
  orderLine(n, {
    amount: `${n}.00`,
    success: 'https://s.example/ok',
    fail: 'https://s.example/ko',
    external_reference: reference,
  });

/** Writes `lines` to a file and runs them as a batch, one line at a time: its exit code and records. */
async function batchOf(name: string, lines: string[]) {
  const file = join(e2e.dir, name);
  writeFileSync(file, `${lines.join('\n')}\n`);
  const result = await e2e.run(batchCommand(file, '-o', 'ndjson', '--concurrency', '1'));
  return { exitCode: result.exitCode, records: recordsOf(result.stdout) };
}

describe('a reference in use', () => {
  it('PENDING: refused with exit 2, naming the order, nothing sent; PAID too', async () => {
    await e2e.loginAfresh();
    const first = await create('WEB-1003');
    expect(first.exitCode, first.stderr).toBe(0);
    const uuid = JSON.parse(first.stdout).uuid;

    const again = await create('WEB-1003');
    expect(again.exitCode).toBe(2);
    expect(again.stdout).toBe('');
    expect(again.stderr).toContain(
      `error: --external-reference: WEB-1003 is the reference of order ${uuid}, PENDING as last seen (seen so since`,
    );
    expect(again.stderr).toContain(`payorder order get ${uuid} --env sandbox`);
    expect(again.stderr).toContain('payorder order find --ref WEB-1003 --refresh --env sandbox');
    expect(await checkouts()).toBe(1);

    // Paid, as order get sees it: still refused.
    await call(e2e.sb.url, 'POST', `/pay/${uuid}/pay`);
    expect((await e2e.run(['order', 'get', uuid, '--env', 'sandbox'])).exitCode).toBe(0);
    const paid = await create('WEB-1003');
    expect(paid.exitCode).toBe(2);
    expect(paid.stderr).toContain(`order ${uuid}, PAID as last seen`);

    // Another reference is not this one's business.
    expect((await create('WEB-1004')).exitCode).toBe(0);
    expect(await checkouts()).toBe(2);
  });

  it('after FAILED (as order get saw it) a new order takes the reference', async () => {
    await e2e.loginAfresh();
    const uuid = JSON.parse((await create('WEB-7')).stdout).uuid;
    await call(e2e.sb.url, 'POST', `/pay/${uuid}/fail`);
    // Until the failure is seen, the ledger says PENDING.
    expect((await create('WEB-7')).exitCode).toBe(2);
    const seen = await e2e.run(['order', 'get', uuid, '--env', 'sandbox', '--field', 'status']);
    expect(seen.stdout).toBe('FAILED\n');
    const second = await create('WEB-7');
    expect(second.exitCode, second.stderr).toBe(0);
    expect((await find('--ref', 'WEB-7')).map((o: any) => o.status)).toEqual(['PENDING', 'FAILED']);
  });

  it('--allow-duplicate-reference creates it all the same; --no-ledger neither checks nor records', async () => {
    await e2e.loginAfresh();
    expect((await create('WEB-9')).exitCode).toBe(0);
    const allowed = await create('WEB-9', '--allow-duplicate-reference');
    expect(allowed.exitCode, allowed.stderr).toBe(0);
    const unrecorded = await create('WEB-9', '--no-ledger');
    expect(unrecorded.exitCode, unrecorded.stderr).toBe(0);
    expect(await checkouts()).toBe(3);
    expect(await find('--ref', 'WEB-9')).toHaveLength(2);
  });

  it('config ledger false: no ledger is made, nothing is checked', async () => {
    await e2e.loginAfresh();
    expect((await e2e.run(['config', 'set', 'ledger', 'false'])).exitCode).toBe(0);
    expect((await create('WEB-5')).exitCode).toBe(0);
    expect((await create('WEB-5')).exitCode).toBe(0);
    expect(existsSync(join(`${e2e.dir}.data`, 'ledger'))).toBe(false);
    const off = await e2e.run(['order', 'find', '--env', 'sandbox', '--ref', 'WEB-5']);
    expect(off.exitCode).toBe(2);
    expect(off.stderr).toContain('the order ledger is off (config ledger false)');
  });

  it('in a batch: the line is refused and not sent, the others go on; a second line of the same run too', async () => {
    await e2e.loginAfresh();
    const held = JSON.parse((await create('SHOP-1')).stdout).uuid;
    await call(e2e.sb.url, 'DELETE', '/_sandbox/journal');
    const { exitCode, records } = await batchOf('orders.ndjson', [
      referenceLine(1, 'SHOP-1'),
      referenceLine(2, 'SHOP-2'),
      referenceLine(3, 'SHOP-2'),
      referenceLine(4, 'SHOP-4'),
    ]);
    expect(exitCode).toBe(1);
    expect(records.map((r) => r.outcome)).toEqual(['failed', 'created', 'failed', 'created']);
    expect(records[0].error).toMatchObject({
      kind: 'usage',
      field: 'external_reference',
      message: expect.stringContaining(
        `line 1: external_reference: SHOP-1 is the reference of order ${held}, PENDING`,
      ),
    });
    expect(records[2].error.message).toMatch(
      /^line 3: external_reference: SHOP-2 is the reference of (order \S+, PENDING|line 2 of this batch)/,
    );
    const sent = (await journal(e2e.sb.url, 'checkout')).map((entry) => entry.body?.external_reference);
    expect(sent).toEqual(['SHOP-2', 'SHOP-4']);
    expect((await find('--ref', 'SHOP-2')).map((o: any) => o.amount)).toEqual(['2.00']);
  });

  it('in a batch: a line whose outcome is unknown keeps its reference for the rest of the run', async () => {
    await e2e.loginAfresh();
    await call(e2e.sb.url, 'DELETE', '/_sandbox/journal');
    // The first line's request reaches the service, and its answer is lost.
    await call(e2e.sb.url, 'POST', '/_sandbox/force', { route: 'checkout', fault: 'reset' });
    const { records } = await batchOf(
      'same-reference.ndjson',
      [1, 2, 3].map((n) => referenceLine(n, 'SHOP-7')),
    );
    expect(records.map((r) => r.outcome)).toEqual(['unknown', 'failed', 'failed']);
    for (const record of records.slice(1))
      expect(record.error.message).toMatch(
        /external_reference: SHOP-7 is the reference of line 1 of this batch/,
      );
    const sent = (await journal(e2e.sb.url, 'checkout')).map((entry) => entry.body?.external_reference);
    expect(sent).toEqual(['SHOP-7']);
  });
});
