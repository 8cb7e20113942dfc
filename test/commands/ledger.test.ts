/**
 * `payorder ledger import` and `prune`: orders payorder did not create, from the shop's CSV export
 * (columns mapped), payorder's own NDJSON and TSV output, checked line by line before anything is
 * written; and the orders sent before a day removed.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { orderFlags } from '../helpers/cli.js';
import { useE2E } from '../helpers/e2e.js';
import { journal } from '../helpers/sandbox.js';

const e2e = useE2E();

const A = '0b5a5f54-8d2b-4f7a-9c1e-2b6d5a4e7f10';
const B = '1c6b6a65-9e3c-4a8b-8d2f-3c7e6b5f8a21';

const file = (name: string, text: string) => {
  const path = join(e2e.dir, name);
  writeFileSync(path, text);
  return path;
};
const find = async (...args: string[]) => {
  const result = await e2e.run(['order', 'find', '--env', 'sandbox', '-o', 'json', ...args]);
  return result.exitCode === 0 ? JSON.parse(result.stdout) : [];
};
const importing = (path: string, ...args: string[]) =>
  e2e.run(['ledger', 'import', path, '--env', 'sandbox', '--json', ...args]);

describe('ledger import', () => {
  it("the shop's CSV, its columns mapped: found by reference, amount and day; a second import updates", async () => {
    const csv = file(
      'export.csv',
      `order_uuid,order_no,total,created,state\n${A},SHOP-1001,"1,000.00",2026-11-02,PAID\n`,
    );
    const bad = await importing(
      csv,
      '--map',
      'uuid=order_uuid',
      '--map',
      'external_reference=order_no',
      '--map',
      'amount=total',
    );
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain(
      '/export.csv line 2: amount: must use a point for decimals and no thousands separators',
    );
    expect(bad.stderr).toContain('export.csv is not valid; nothing was imported');

    writeFileSync(
      csv,
      `order_uuid,order_no,total,created,state\n${A},SHOP-1001,1000.00,2026-11-02,paid\n${B},SHOP-1002,5,2026-11-03,PENDING\n`,
    );
    const map = [
      '--map',
      'uuid=order_uuid',
      '--map',
      'external_reference=order_no',
      '--map',
      'amount=total',
      '--map',
      'date=created',
      '--map',
      'status=state',
    ];
    const done = await importing(csv, ...map);
    expect(done.exitCode, done.stderr).toBe(0);
    expect(JSON.parse(done.stdout)).toEqual({ file: csv, added: 2, updated: 0, skipped: 0 });
    expect(await find('--ref', 'SHOP-1001')).toEqual([
      expect.objectContaining({
        uuid: A,
        amount: '1000.00',
        amount_cents: '100000',
        status: 'PAID',
        external_reference: 'SHOP-1001',
      }),
    ]);
    expect((await find('--since', '2026-11-03')).map((o: any) => o.uuid)).toEqual([B]);

    writeFileSync(csv, `order_uuid,state\n${B},paid\n`);
    const again = await importing(csv, '--map', 'uuid=order_uuid', '--map', 'status=state');
    expect(JSON.parse(again.stdout)).toMatchObject({ added: 0, updated: 1 });
    expect((await find('--status', 'PAID')).map((o: any) => o.uuid)).toEqual([B, A]);
    // A reference imported is a reference in use.
    await e2e.loginAfresh();
    const refused = await e2e.run([
      'order',
      'create',
      '--env',
      'sandbox',
      ...orderFlags({ amount: '1' }),
      '--external-reference',
      'SHOP-1002',
    ]);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain(`SHOP-1002 is the reference of order ${B}, PAID`);
    expect(await journal(e2e.sb.url, 'checkout')).toEqual([]);
  });

  it("payorder's own batch results (NDJSON) and order get -o tsv, as they are; lines without an order left out", async () => {
    await e2e.loginAfresh();
    const batch = file(
      'orders.ndjson',
      `${JSON.stringify({ amount: '2.50', description: 'Scarf', success: 'https://s.example/ok', fail: 'https://s.example/ko', external_reference: 'R-1' })}\n` +
        `${JSON.stringify({ amount: '2,50', description: 'Bad', success: 'https://s.example/ok', fail: 'https://s.example/ko' })}\n`,
    );
    const ran = await e2e.run([
      'order',
      'create',
      '--env',
      'sandbox',
      '--input',
      batch,
      '-o',
      'ndjson',
      '--no-ledger',
    ]);
    expect(ran.exitCode).toBe(1);
    const results = file('results.ndjson', ran.stdout);
    expect((await find()).length).toBe(0);
    const imported = await importing(results);
    expect(imported.exitCode, imported.stderr).toBe(0);
    expect(JSON.parse(imported.stdout)).toMatchObject({ added: 1, skipped: 1 });
    const [order] = await find('--text', 'scarf');
    expect(order).toMatchObject({ amount: '2.50', external_reference: 'R-1', status: 'PENDING' });

    const tsv = await e2e.run(['order', 'get', order.uuid, '--env', 'sandbox', '-o', 'tsv', '--no-ledger']);
    const again = await importing(file('orders.tsv', tsv.stdout));
    expect(again.exitCode, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ added: 0, updated: 1 });
  });

  it('a file with no uuid or id column is refused at once; a line without either is a problem of its own', async () => {
    const noId = await importing(file('x.csv', 'reference,amount\nR-1,2.00\n'));
    expect(noId.exitCode).toBe(2);
    expect(noId.stderr).toContain(
      'x.csv: its header has no uuid or id column (columns: reference, amount); name it with --map uuid=COLUMN',
    );
    const lines = await importing(
      file('y.ndjson', `{"uuid":"${A}"}\n{"external_reference":"R-2"}\n{"uuid":"nope"}\nnot json\n`),
    );
    expect(lines.exitCode).toBe(2);
    expect(lines.stderr).toContain('y.ndjson line 2: has no uuid and no id');
    expect(lines.stderr).toContain('y.ndjson line 3: uuid: "nope" is not a uuid');
    expect(lines.stderr).toContain('y.ndjson line 4: not valid JSON');
    expect(lines.stderr).toContain('y.ndjson are not valid; nothing was imported');
    expect(await find()).toEqual([]);
    const map = await importing(file('z.csv', 'a\n'), '--map', 'colour=a');
    expect(map.exitCode).toBe(2);
    expect(map.stderr).toContain('--map: colour is not a field; the fields are uuid, id, external_reference');
  });
});

describe('ledger prune', () => {
  it('removes the orders sent before the day, and no other', async () => {
    const csv = file('e.csv', `uuid,date\n${A},2025-10-31T23:59:59Z\n${B},2025-11-01\n`);
    expect((await importing(csv)).exitCode).toBe(0);
    const pruned = await e2e.run(['ledger', 'prune', '--before', '2025-11-01', '--json']);
    expect(pruned.exitCode, pruned.stderr).toBe(0);
    expect(JSON.parse(pruned.stdout)).toEqual({ before: '2025-11-01T00:00:00.000Z', pruned: 1 });
    expect((await find()).map((o: any) => o.uuid)).toEqual([B]);
    const bad = await e2e.run(['ledger', 'prune', '--before', 'last year']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('--before: must be a day (YYYY-MM-DD)');
  });
});
