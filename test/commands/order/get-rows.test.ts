/**
 * `order get` with several ids: every id gets exactly one row, in input order, in every format
 * (an id that gave no order says so), a hint for ids of the other API version and for values that
 * are no id at all, and tables that fit the terminal, seen on a real pseudo-terminal.
 */
import { describe, expect, it } from 'vitest';
import { shellWords } from '../../../src/output/browser.js';
import { textWidth } from '../../../src/terminal/text-width.js';
import { BIN, onTerminal, SHOP } from '../../helpers/cli.js';
import { runInProcess } from '../../helpers/context.js';
import { useE2E } from '../../helpers/e2e.js';
import { call, createOrder, tokenFor } from '../../helpers/sandbox.js';

const e2e = useE2E({}, { beforeSunset: true });
const MISSING = '00000000-0000-4000-8000-000000000000';

/** Logs SHOP in and makes two v2 orders of 1.05 and 2.05; the second one is paid. */
async function twoOrders() {
  await e2e.login();
  const token = await tokenFor(e2e.sb.url, 'v2', SHOP);
  const first = await createOrder(e2e.sb.url, token, 'v2', { amount: '105' });
  const second = await createOrder(e2e.sb.url, token, 'v2', { amount: '205' });
  await call(e2e.sb.url, 'POST', `/pay/${second.uuid}/pay`);
  return [first.uuid as string, second.uuid as string];
}

const get = (ids: string[], ...args: string[]) =>
  e2e.run(['order', 'get', ...ids, '--env', 'sandbox', ...args]);

describe('every id gets one row, in input order', () => {
  it('json, ndjson, tsv, --field and the table: the unknown id in its place; exit 1', async () => {
    const [a, b] = await twoOrders();
    const ids = [a!, MISSING, b!];

    const json = await get(ids, '-o', 'json');
    expect(json.exitCode).toBe(1);
    expect(JSON.parse(json.stdout)).toEqual([
      expect.objectContaining({ uuid: a, status: 'PENDING' }),
      {
        input: MISSING,
        outcome: 'not_found',
        order: null,
        error: expect.objectContaining({ kind: 'not_found', exit_code: 1, status: 404 }),
      },
      expect.objectContaining({ uuid: b, status: 'PAID' }),
    ]);

    const ndjson = await get(ids, '-o', 'ndjson');
    expect(ndjson.exitCode).toBe(1);
    expect(
      ndjson.stdout
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line)),
    ).toEqual(JSON.parse(json.stdout));

    const tsv = await get(ids, '-o', 'tsv');
    expect(tsv.exitCode).toBe(1);
    const [header, ...rows] = tsv.stdout
      .trimEnd()
      .split('\n')
      .map((line) => line.split('\t'));
    const cells = (column: string) => rows.map((row) => row[header!.indexOf(column)]);
    expect(cells('uuid')).toEqual([a, '', b]);
    expect(cells('status')).toEqual(['PENDING', '', 'PAID']);
    expect(cells('input')).toEqual(ids);
    expect(cells('outcome')).toEqual(['found', 'not_found', 'found']);
    expect(cells('error')[1]).toBe(`order ${MISSING} not found on sandbox (v2)`);

    // With --field, the line of the unknown id is empty: which id failed is plain from its place.
    const field = await get(ids, '--field', 'status');
    expect([field.exitCode, field.stdout]).toEqual([1, 'PENDING\n\nPAID\n']);

    const table = await runInProcess(['order', 'get', ...ids, '--env', 'sandbox'], {
      env: e2e.env({ NO_COLOR: '1' }),
      stdoutIsTTY: true,
      stderrIsTTY: true,
      // Wide enough for the payment links beside their orders (they are never cut).
      columns: 130,
    });
    expect(table.exitCode).toBe(1);
    const lines = table.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(/^UUID {2,}STATUS {2,}AMOUNT {2}API {2}PAYMENT LINK$/);
    expect(lines.slice(1).map((line) => line.split(/ {2,}/).slice(0, 3))).toEqual([
      [a, 'PENDING', '1.05'],
      [MISSING, 'not found'],
      [b, 'PAID', '2.05'],
    ]);
    expect(table.stderr).toContain(`error: order ${MISSING} not found on sandbox (v2)\n`);
    expect(table.stderr).toContain('error: 1 lookup failed\n');
  });

  it('one unknown id: its row for a script, its error for a person, exit 1', async () => {
    await e2e.login();
    const json = await get([MISSING], '--json');
    expect(json.exitCode).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({ input: MISSING, outcome: 'not_found', order: null });
    expect(json.stderr).toContain(`"message":"order ${MISSING} not found on sandbox (v2)"`);
    const field = await get([MISSING], '--field', 'uuid');
    expect([field.exitCode, field.stdout]).toEqual([1, '\n']);
  });
});

/** Runs the command a hint gives, as pasted into a shell (with this test's environment). */
async function pasted(stderr: string) {
  const line = stderr.split('\n').find((l) => l.startsWith('hint: '))!;
  const command = line.slice(line.indexOf('payorder '));
  const words = shellWords(command);
  expect(words[0]).toBe('payorder');
  return runInProcess(words.slice(1), { env: e2e.env() });
}

describe('hints for an id that is not found', () => {
  it('a v1 order id on v2: one id alone is looked up on v1 too, and found there', async () => {
    await e2e.login();
    const token = await tokenFor(e2e.sb.url, 'v1', SHOP);
    const v1 = await createOrder(e2e.sb.url, token, 'v1', { userName: SHOP.username });
    for (const id of [v1.id, v1.id.split('/').pop()!]) {
      const result = await get([id]);
      expect(result.exitCode, result.stderr).toBe(0);
      expect(JSON.parse(result.stdout)).toMatchObject({ uuid: v1.uuid, version: 'v1' });
      expect(result.stderr).toContain(`order ${id} is a v1 order: found with --api v1\n`);
    }
    // Among several ids, the other version is not tried: the hint says where to look.
    const many = await get([v1.id, '00000000-0000-4000-8000-000000000000']);
    expect(many.exitCode).toBe(1);
    expect(many.stderr).toContain(
      `hint: this looks like a v1 order id: v2 looks orders up by uuid only; try payorder order get ${v1.id} --env sandbox --api v1\n`,
    );
    expect((await pasted(many.stderr)).exitCode).toBe(0);
  });

  it('a uuid of a v2 order on v1: found on v2; an unknown uuid is not found on either', async () => {
    const [a] = await twoOrders();
    const result = await get([a!], '--api', 'v1');
    expect(result.exitCode, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ uuid: a, version: 'v2' });
    expect(result.stderr).toContain(`order ${a} is a v2 order: found with --api v2\n`);
    const missing = await get(['00000000-0000-4000-8000-000000000000'], '--api', 'v1');
    expect(missing.exitCode).toBe(1);
    expect(missing.stderr).toContain(
      'hint: not found with --api v2 either: check the uuid and the environment\n',
    );
  });

  it.each(['jane@shop.example', '19.99', 'Invoice 42'])(
    '%j is no id: the service looks orders up by id only',
    async (value) => {
      await e2e.login();
      const result = await get([value]);
      expect(result.exitCode).toBe(1);
      expect(result.stderr).toContain(
        `hint: ${JSON.stringify(value)} is not an order id; the service looks orders up by id only`,
      );
    },
  );

  it('in a bulk lookup, each error line on stderr has its hint', async () => {
    const [a] = await twoOrders();
    const result = await get([a!, 'jane@shop.example', '9a8b7c6d5e4f3a2b']);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('hint: "jane@shop.example" is not an order id');
    expect(result.stderr).toContain('hint: this looks like a v1 order id');
  });
});

describe('on a terminal', () => {
  // The built binary on a pseudo-terminal of the given width: what a person sees on stdout (the
  // error lines of stderr are checked in process above).
  const screen = (columns: number, args: string) =>
    onTerminal(
      `stty cols ${columns} rows 40; "${process.execPath}" "${BIN}" ${args} --env sandbox 2>/dev/null`,
      e2e.env({ TERM: 'xterm-256color', NO_COLOR: '1' }),
    );

  it.each([60, 80])(
    '%i columns: order get A B C fits, uuid and status whole, the unknown id in its row',
    async (columns) => {
      const [a, b] = await twoOrders();
      const shown = await screen(columns, `order get ${a} ${MISSING} ${b}`);
      expect(shown.exitCode).toBe(1);
      const lines = shown.stdout.split('\n').filter((line) => line !== '');
      // Every line fits but the payment links, never cut: each follows the table whole, under its uuid.
      const links = [a, b].map((uuid) => `${e2e.sb.url}/pay/${uuid}`);
      for (const line of lines.filter((l) => !links.includes(l)))
        expect(textWidth(line), line).toBeLessThanOrEqual(columns);
      const rows = lines.filter((line) => /^[0-9a-f]{8}-/.test(line) && line.includes('  '));
      expect(rows.map((line) => line.split(/ {2,}/).slice(0, 2))).toEqual([
        [a, 'PENDING'],
        [MISSING, 'not found'],
        [b, 'PAID'],
      ]);
      expect(lines.slice(lines.indexOf('payment links'))).toEqual([
        'payment links',
        a,
        links[0],
        b,
        links[1],
      ]);
    },
  );

  it('60 columns: one order fits, the payment link whole on a line of its own', async () => {
    const [a] = await twoOrders();
    const shown = await screen(60, `order get ${a}`);
    expect(shown.exitCode, shown.stdout).toBe(0);
    const link = `${e2e.sb.url}/pay/${a}`;
    expect(link.length).toBeGreaterThan(60);
    const lines = shown.stdout.split('\n').map((line) => line.trimEnd());
    for (const line of lines.filter((l) => l !== link)) expect(textWidth(line), line).toBeLessThanOrEqual(60);
    expect(lines.filter((line) => new RegExp(`^uuid +${a}$`).test(line))).toHaveLength(1);
    expect(lines.slice(lines.indexOf('payment link'), lines.indexOf('payment link') + 2)).toEqual([
      'payment link',
      link,
    ]);
  });
});
