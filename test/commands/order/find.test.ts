/**
 * `order find`: the orders of the ledger by reference, description, amount, day, status and outcome,
 * newest first, in order get's formats; --refresh looks them up again. And what `order get` does
 * with the ledger: it updates an order the ledger holds, makes no ledger of its own, and points a
 * reference given as an id at `order find --ref`.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { orderOutputSchema } from '../../../src/contract/schemas.js';
import { textWidth } from '../../../src/terminal/text-width.js';
import { BIN, onTerminal, orderFlags } from '../../helpers/cli.js';
import { useE2E } from '../../helpers/e2e.js';
import { call, journal } from '../../helpers/sandbox.js';

const e2e = useE2E({}, { beforeSunset: true });

/** Creates an order with payorder at `now`; its uuid. */
async function created(
  now: string,
  amount: string,
  description: string,
  reference?: string,
  ...args: string[]
) {
  const result = await e2e.run(
    [
      'order',
      'create',
      '--env',
      'sandbox',
      ...orderFlags({ amount, description }),
      ...(reference ? ['--external-reference', reference] : []),
      ...args,
    ],
    { env: { PAYORDER_NOW: now } },
  );
  expect(result.exitCode, result.stderr).toBe(0);
  return JSON.parse(result.stdout).uuid as string;
}

/** Three orders on three days: WEB-1 (tea, 12.50), WEB-2 (coffee, 3.20), WEB-3 (green tea, 12.50). */
async function threeOrders() {
  await e2e.loginAfresh();
  return [
    await created('2026-11-20T10:00:00Z', '12.50', 'Tea', 'WEB-1'),
    await created('2026-11-21T10:00:00Z', '3.20', 'Coffee', 'WEB-2'),
    await created('2026-11-22T10:00:00Z', '12.50', 'Green TEA', 'WEB-3'),
  ];
}

const find = (...args: string[]) => e2e.run(['order', 'find', '--env', 'sandbox', ...args]);
const uuids = async (...args: string[]) => {
  const result = await find('-o', 'json', ...args);
  expect(result.exitCode, result.stderr).toBe(0);
  return JSON.parse(result.stdout).map((order: any) => order.uuid);
};

describe('order find', () => {
  it('by reference, text, amount, days, status; newest first; --limit; every criterion must hold', async () => {
    const [a, b, c] = await threeOrders();
    expect(await uuids('--ref', 'WEB-2')).toEqual([b]);
    expect(await uuids('--text', 'tea')).toEqual([c, a]);
    expect(await uuids('--amount', '12.5')).toEqual([c, a]);
    expect(await uuids('--amount', '12.50', '--text', 'green')).toEqual([c]);
    expect(await uuids('--since', '2026-11-21')).toEqual([c, b]);
    expect(await uuids('--until', '2026-11-21')).toEqual([b, a]);
    expect(await uuids('--since', '2026-11-21', '--until', '2026-11-21')).toEqual([b]);
    expect(await uuids('--status', 'pending', '--limit', '2')).toEqual([c, b]);
    expect(await uuids()).toEqual([c, b, a]);
    await call(e2e.sb.url, 'DELETE', '/_sandbox/journal');
    // Nothing of it asks the service.
    expect(await journal(e2e.sb.url)).toEqual([]);
  });

  it('the documented order shape in JSON; TSV as order get; exit 1 when nothing matches', async () => {
    const [a] = await threeOrders();
    const json = JSON.parse((await find('--ref', 'WEB-1', '-o', 'json')).stdout);
    expect(orderOutputSchema.parse(json[0])).toMatchObject({
      uuid: a,
      amount: '12.50',
      amount_cents: '1250',
      status: 'PENDING',
      external_reference: 'WEB-1',
      version: 'v2',
    });
    const tsv = (await find('--ref', 'WEB-1', '-o', 'tsv')).stdout.trimEnd().split('\n');
    const get = (await e2e.run(['order', 'get', a!, '--env', 'sandbox', '-o', 'tsv'])).stdout.split('\n')[0];
    expect(tsv[0]).toBe(get);
    expect(tsv[1]!.split('\t').slice(0, 5)).toEqual([a, json[0].id, 'v2', 'PENDING', '12.50']);

    const none = await find('--ref', 'WEB-404');
    expect(none.exitCode).toBe(1);
    expect(none.stdout).toBe('[]\n');
    expect(none.stderr).toContain('error: no order in the order ledger matches');
  });

  it('bad criteria: one line naming the flag and the rule, exit 2', async () => {
    await e2e.loginAfresh();
    for (const [args, message] of [
      [['--amount', '12,50'], '--amount: must use a point for decimals'],
      [['--since', '26/11/2026'], '--since: must be a day (YYYY-MM-DD) or a time'],
      [['--since', '2026-02-30'], '--since: must be a day (YYYY-MM-DD) or a time'],
      [['--limit', '0'], '--limit: must be a whole number from 1 to 10000'],
      [
        ['--since', '2026-11-22', '--until', '2026-11-21'],
        '--since 2026-11-22 is not before --until 2026-11-21',
      ],
      [['--ref', ' '], '--ref: must not be empty'],
    ] as const) {
      const result = await find(...args);
      expect(result.exitCode, args.join(' ')).toBe(2);
      expect(result.stderr).toContain(`error: ${message}`);
    }
  });

  it('--refresh looks each order up and updates the ledger; without it the status last seen', async () => {
    const [a, b] = await threeOrders();
    await call(e2e.sb.url, 'POST', `/pay/${a}/pay`);
    await call(e2e.sb.url, 'POST', `/pay/${b}/fail`);
    await call(e2e.sb.url, 'DELETE', '/_sandbox/journal');
    const stale = JSON.parse((await find('-o', 'json')).stdout).map((o: any) => o.status);
    expect(stale).toEqual(['PENDING', 'PENDING', 'PENDING']);
    const fresh = JSON.parse((await find('-o', 'json', '--refresh')).stdout).map((o: any) => o.status);
    expect(fresh).toEqual(['PENDING', 'FAILED', 'PAID']);
    expect((await journal(e2e.sb.url, 'lookup')).length).toBe(3);
    expect(await uuids('--status', 'PAID')).toEqual([a]);
  });

  it('an order sent with no answer: --outcome unknown, its row says unknown', async () => {
    await e2e.loginAfresh();
    await call(e2e.sb.url, 'POST', '/_sandbox/force', { route: 'checkout', fault: 'reset' });
    const lost = await e2e.run([
      'order',
      'create',
      '--env',
      'sandbox',
      ...orderFlags({ amount: '7.00' }),
      '--external-reference',
      'LOST-1',
    ]);
    expect(lost.exitCode).toBe(5);
    const result = await find('--outcome', 'unknown', '-o', 'json');
    expect(result.exitCode, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual([
      {
        input: 'LOST-1',
        outcome: 'unknown',
        order: null,
        error: expect.objectContaining({
          kind: 'outcome_unknown',
          message: expect.stringContaining('outcome unknown'),
        }),
      },
    ]);
    expect((await find('--outcome', 'created')).exitCode).toBe(1);
  });

  it.each([60, 100])('%i columns: the table fits, uuid and status whole', async (columns) => {
    const [a, b, c] = await threeOrders();
    const shown = await onTerminal(
      `stty cols ${columns} rows 40; "${process.execPath}" "${BIN}" order find --env sandbox 2>/dev/null`,
      e2e.env({ TERM: 'xterm-256color', NO_COLOR: '1' }),
    );
    expect(shown.exitCode, shown.stdout).toBe(0);
    // Where the links do not fit beside their orders they follow the table, each whole on its line.
    const [table = '', links] = shown.stdout.split('\npayment links\n');
    const lines = table.split('\n').filter((line) => line !== '');
    for (const line of lines) expect(textWidth(line), line).toBeLessThanOrEqual(columns);
    if (links !== undefined) expect(links.match(/https?:\/\/\S+/g)).toHaveLength(3);
    const rows = lines.filter((line) => /^[0-9a-f]{8}-/.test(line));
    expect(rows.map((line) => line.split(/ {2,}/).slice(0, 2))).toEqual([
      [c, 'PENDING'],
      [b, 'PENDING'],
      [a, 'PENDING'],
    ]);
  });
});

describe('order get and the ledger', () => {
  it('updates the status of an order the ledger holds; makes no ledger for an order it does not hold', async () => {
    await e2e.loginAfresh();
    const token = (
      await call(e2e.sb.url, 'POST', '/v2/api/auth/token', {
        username: 'shop-owner',
        client_id: 'shop-client-7',
        client_secret_id: 'Sup3r-Secret-Value-9f2c',
        grant_type: 'client_credentials',
      })
    ).body.access_token;
    const other = (
      await call(
        e2e.sb.url,
        'POST',
        '/v2/api/checkout',
        {
          amount: '100',
          description: 'x',
          callback_success: 'https://s.example/ok',
          callback_fail: 'https://s.example/ko',
        },
        token,
      )
    ).body;
    expect((await e2e.run(['order', 'get', other.uuid, '--env', 'sandbox'])).exitCode).toBe(0);
    expect(existsSync(join(`${e2e.dir}.data`, 'ledger'))).toBe(false);

    const mine = await created('2026-11-20T10:00:00Z', '5.00', 'Mine', 'MINE-1');
    await call(e2e.sb.url, 'POST', `/pay/${mine}/pay`);
    expect(
      (await e2e.run(['order', 'get', mine, other.uuid, '--env', 'sandbox', '--no-ledger'])).exitCode,
    ).toBe(0);
    expect((await find('--status', 'PAID')).exitCode).toBe(1);
    expect((await e2e.run(['order', 'get', mine, other.uuid, '--env', 'sandbox'])).exitCode).toBe(0);
    expect(await uuids('--status', 'PAID')).toEqual([mine]);
    // The order the ledger did not hold is still not in it.
    expect(await uuids()).toEqual([mine]);
  });

  it('a lookup that sees the status the ledger has writes nothing: status_at is when a status was first seen', async () => {
    await e2e.loginAfresh();
    const mine = await created('2026-11-20T10:00:00Z', '5.00', 'Mine', 'MINE-3');
    const statusAt = () => {
      const db = new DatabaseSync(join(`${e2e.dir}.data`, 'ledger', 'orders.sqlite'), { readOnly: true });
      const row = db.prepare('SELECT status, status_at FROM orders').get();
      db.close();
      return row;
    };
    const get = (now: string) =>
      e2e.run(['order', 'get', mine, '--env', 'sandbox'], { env: { PAYORDER_NOW: now } });
    expect((await get('2026-11-21T10:00:00Z')).exitCode).toBe(0);
    expect(statusAt()).toEqual({ status: 'PENDING', status_at: '2026-11-20T10:00:00.000Z' });
    await call(e2e.sb.url, 'POST', `/pay/${mine}/pay`);
    expect((await get('2026-11-22T10:00:00Z')).exitCode).toBe(0);
    expect((await get('2026-11-23T10:00:00Z')).exitCode).toBe(0);
    expect(statusAt()).toEqual({ status: 'PAID', status_at: '2026-11-22T10:00:00.000Z' });
  });

  it('--wait writes the status it ends with', async () => {
    await e2e.loginAfresh();
    const mine = await created('2026-11-20T10:00:00Z', '5.00', 'Mine', 'MINE-2');
    await call(e2e.sb.url, 'POST', `/pay/${mine}/pay`);
    const waited = await e2e.run(['order', 'get', mine, '--env', 'sandbox', '--wait', '--timeout', '10s']);
    expect(waited.exitCode, waited.stderr).toBe(0);
    expect(await uuids('--status', 'PAID')).toEqual([mine]);
  });

  it('a reference given as an id: not found, with the hint of order find --ref when the ledger has it', async () => {
    await threeOrders();
    const result = await e2e.run(['order', 'get', 'WEB-2', '--env', 'sandbox']);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('error: order WEB-2 not found on sandbox (v2)\n');
    expect(result.stderr).toContain('payorder order find --ref WEB-2 --env sandbox\n');
    const unknown = await e2e.run(['order', 'get', 'WEB-99', '--env', 'sandbox']);
    expect(unknown.exitCode).toBe(1);
    expect(unknown.stderr).not.toContain('order find');
  });

  it('a batch records every line it sends, with the description it sent', async () => {
    await e2e.loginAfresh();
    const file = join(e2e.dir, 'orders.csv');
    writeFileSync(
      file,
      'amount,description,success,fail,external_reference\n' +
        '19.99,"T-shirt, blue",https://shop.example/thanks,https://shop.example/cart,B-1\n' +
        '5,Gift wrap,https://shop.example/thanks,https://shop.example/cart,B-2\n',
    );
    const batch = await e2e.run(['order', 'create', '--env', 'sandbox', '--input', file, '-o', 'ndjson']);
    expect(batch.exitCode, batch.stderr).toBe(0);
    const sent = batch.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line).order.uuid);
    expect(await uuids('--text', 't-shirt')).toEqual([sent[0]]);
    expect(await uuids('--amount', '5')).toEqual([sent[1]]);
  });
});
