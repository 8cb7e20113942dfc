/**
 * The order writer on its own: every format for one order, many orders and batch results, and the
 * flags that change what is written (--field, --raw, --no-headers). What it writes is what a user
 * sees on stdout, so the tests compare whole outputs.
 */
import { describe, expect, it } from 'vitest';
import type { Order } from '../../src/contract/schemas.js';
import { PATHS } from '../../src/contract/versions.js';
import { CliError } from '../../src/errors.js';
import type { BatchRecord } from '../../src/orders/batch-record.js';
import type { OutputFormat, OutputOptions } from '../../src/output/formats.js';
import { createOrderWriter, type LookupMiss, type WriterShape } from '../../src/output/order-writer.js';
import { textWidth } from '../../src/terminal/text-width.js';
import { testContext } from '../helpers/context.js';

const LINK_V2 = 'https://pay.example/p/3f0c6a1e';
const LINK_V1 = 'https://pay.example/p/9a8b7c6d';

const V2: Order = {
  version: 'v2',
  id: PATHS.lookup('v2', '3f0c6a1e-8d2b-4f7a-9c1e-2b6d5a4e7f10'),
  uuid: '3f0c6a1e-8d2b-4f7a-9c1e-2b6d5a4e7f10',
  type: 'Order',
  status: 'PENDING',
  amount: '12.50',
  amount_cents: '1250',
  currency: null,
  order_number: null,
  ref_number: null,
  external_reference: 'INV-42',
  links: {
    checkout: LINK_V2,
    success: 'https://shop.example/ok',
    failed: 'https://shop.example/ko',
  },
};

const V1: Order = {
  version: 'v1',
  id: PATHS.lookup('v1', '9a8b7c6d5e4f3a2b'),
  uuid: '9a8b7c6d-5e4f-3a2b-8c1d-0e9f8a7b6c5d',
  type: 'Order',
  status: 'PAID',
  amount: '5.00',
  amount_cents: '500',
  currency: '840',
  order_number: '100001',
  ref_number: 'REF1000016C5D',
  external_reference: null,
  links: {
    checkout: LINK_V1,
    success: 'https://shop.example/ok',
    failed: 'https://shop.example/ko',
  },
};

const RAW_V2 = '{"uuid":"3f0c6a1e-8d2b-4f7a-9c1e-2b6d5a4e7f10","amount":"1250"}\n';
const RAW_V1 = '{"uuid":"9a8b7c6d-5e4f-3a2b-8c1d-0e9f8a7b6c5d","amount":5.0}';

const failure = new CliError('usage', 'line 3: amount: must have at most 2 decimals', {
  field: 'amount',
}).toJSON().error;
const lost = new CliError(
  'outcome_unknown',
  'outcome unknown: the request reached http://x but no answer came back',
).toJSON().error;

const RECORDS: BatchRecord[] = [
  {
    line: 2,
    outcome: 'created',
    order: V2,
    input: { amount: '12.50', description: 'Tea', external_reference: 'INV-42' },
    error: null,
  },
  {
    line: 3,
    outcome: 'failed',
    order: null,
    input: { amount: '1.234', description: 'Gift\twrap', external_reference: 'INV-43' },
    error: failure,
  },
  {
    line: 4,
    outcome: 'skipped',
    order: V1,
    input: { amount: '5.00', description: 'Boots', external_reference: null },
    error: null,
  },
  {
    line: 5,
    outcome: 'unknown',
    order: null,
    input: { amount: null, description: null, external_reference: null },
    error: lost,
  },
];

const SINGLE: WriterShape = { of: 'orders', single: true };
const MANY: WriterShape = { of: 'orders', single: false };
const BATCH: WriterShape = { of: 'batch' };

const TSV_HEADER = [
  'uuid',
  'id',
  'version',
  'status',
  'amount',
  'currency',
  'order_number',
  'ref_number',
  'external_reference',
  'links.checkout',
];
const TSV_V2 = [V2.uuid, V2.id, 'v2', 'PENDING', '12.50', '', '', '', 'INV-42', LINK_V2];
const TSV_V1 = [V1.uuid, V1.id, 'v1', 'PAID', '5.00', '840', '100001', 'REF1000016C5D', '', LINK_V1];
const EMPTY_ORDER = TSV_HEADER.map(() => '');

const tsv = (rows: string[][]) => rows.map((row) => `${row.join('\t')}\n`).join('');

interface Written {
  orders?: Array<[Order, string]>;
  records?: Array<[BatchRecord, string?]>;
  /** A lookup's results: an order with its body and the id it was looked up by, or a miss. */
  lookups?: Array<[Order, string, string] | LookupMiss>;
}

/** Writes orders (or batch records) through a writer and returns stdout once it has ended. */
async function write(
  format: OutputFormat,
  shape: WriterShape,
  { orders = [], records = [], lookups = [] }: Written,
  flags: Partial<OutputOptions> = {},
  { color = false, columns }: { color?: boolean; columns?: number } = {},
): Promise<string> {
  const { ctx, stdout } = testContext({
    stdoutIsTTY: color || columns !== undefined,
    columns,
    env: color ? {} : { NO_COLOR: '1' },
  });
  const writer = await createOrderWriter(ctx, { raw: false, headers: true, ...flags }, format, shape);
  expect(writer.format).toBe(format);
  for (const [order, raw] of orders) writer.order(order, raw);
  for (const lookup of lookups)
    if (Array.isArray(lookup)) writer.order(...lookup);
    else writer.miss(lookup);
  for (const [record, raw] of records) writer.record(record, raw);
  await writer.end();
  return stdout();
}

const both: Array<[Order, string]> = [
  [V2, RAW_V2],
  [V1, RAW_V1],
];
const batch = RECORDS.map((record): [BatchRecord, string?] => [
  record,
  record.order === V2 ? RAW_V2 : undefined,
]);

describe('JSON', () => {
  it('one order is an object', async () => {
    expect(await write('json', SINGLE, { orders: [[V2, RAW_V2]] })).toBe(`${JSON.stringify(V2, null, 2)}\n`);
  });

  it.each([
    ['no order', []],
    ['one order', [V2]],
    ['many orders', [V2, V1, V2]],
  ])('%s where several may come: one array, as JSON.stringify writes it', async (_, list) => {
    const stdout = await write('json', MANY, { orders: list.map((o) => [o, RAW_V2]) });
    expect(stdout).toBe(`${JSON.stringify(list, null, 2)}\n`);
  });

  it('batch results are an array of records with their line, outcome, order, input and error', async () => {
    const stdout = await write('json', BATCH, { records: batch });
    expect(stdout).toBe(`${JSON.stringify(RECORDS, null, 2)}\n`);
    expect(JSON.parse(stdout)[1]).toEqual({
      line: 3,
      outcome: 'failed',
      order: null,
      input: { amount: '1.234', description: 'Gift\twrap', external_reference: 'INV-43' },
      error: {
        kind: 'usage',
        message: 'line 3: amount: must have at most 2 decimals',
        exit_code: 2,
        code: null,
        status: null,
        field: 'amount',
        hint: null,
      },
    });
  });

  it('an empty batch is an empty array', async () => {
    expect(await write('json', BATCH, {})).toBe('[]\n');
  });
});

describe('NDJSON', () => {
  it.each([
    ['one order', SINGLE],
    ['many orders', MANY],
  ])('%s: one compact object per line', async (_, shape) => {
    expect(await write('ndjson', shape, { orders: both })).toBe(
      `${JSON.stringify(V2)}\n${JSON.stringify(V1)}\n`,
    );
  });

  it('batch: one record per line; nothing at all for nothing', async () => {
    expect(await write('ndjson', BATCH, { records: batch })).toBe(
      RECORDS.map((r) => `${JSON.stringify(r)}\n`).join(''),
    );
    expect(await write('ndjson', MANY, {})).toBe('');
  });
});

describe('TSV', () => {
  it.each([
    ['one order', SINGLE],
    ['many orders', MANY],
  ])('%s: the header once, then a row per order', async (_, shape) => {
    expect(await write('tsv', shape, { orders: both })).toBe(tsv([TSV_HEADER, TSV_V2, TSV_V1]));
  });

  it('--no-headers leaves the header out', async () => {
    expect(await write('tsv', MANY, { orders: both }, { headers: false })).toBe(tsv([TSV_V2, TSV_V1]));
  });

  it('batch: line and outcome first, then the description and the error; a line without an order shows what it asked for', async () => {
    const header = ['line', 'outcome', ...TSV_HEADER, 'description', 'error'];
    const expected = [
      ['2', 'created', ...TSV_V2, 'Tea', ''],
      ['3', 'failed', '', '', '', '', '1.234', '', '', '', 'INV-43', '', 'Gift wrap', failure.message],
      ['4', 'skipped', ...TSV_V1, 'Boots', ''],
      ['5', 'unknown', ...EMPTY_ORDER, '', lost.message],
    ];
    expect(await write('tsv', BATCH, { records: batch })).toBe(tsv([header, ...expected]));
    expect(await write('tsv', BATCH, { records: batch }, { headers: false })).toBe(tsv(expected));
  });

  it('tabs and newlines inside a value become spaces, so the columns hold', async () => {
    const odd = { ...V2, external_reference: 'A\tB\r\nC' };
    const [, row] = (await write('tsv', SINGLE, { orders: [[odd, '']] })).split('\n');
    expect(row!.split('\t')).toEqual([...TSV_V2.slice(0, 8), 'A B C', LINK_V2]);
  });
});

describe('table', () => {
  it('one order: field/value rows, v2 fields only, the payment link alone on the last line', async () => {
    expect(await write('table', SINGLE, { orders: [[V2, RAW_V2]] })).toBe(
      [
        `uuid                ${V2.uuid}`,
        `id                  ${V2.id}`,
        'status              PENDING',
        'amount              12.50',
        'external reference  INV-42',
        'api                 v2',
        'success link        https://shop.example/ok',
        'fail link           https://shop.example/ko',
        '',
        'payment link',
        `${LINK_V2}\n`,
      ].join('\n'),
    );
  });

  it('one v1 order shows its currency, order number and ref number', async () => {
    expect(await write('table', SINGLE, { orders: [[V1, RAW_V1]] })).toBe(
      [
        `uuid          ${V1.uuid}`,
        `id            ${V1.id}`,
        'status        PAID',
        'amount        5.00 (currency 840)',
        'order number  100001',
        'ref number    REF1000016C5D',
        'api           v1',
        'success link  https://shop.example/ok',
        'fail link     https://shop.example/ko',
        '',
        'payment link',
        `${LINK_V1}\n`,
      ].join('\n'),
    );
  });

  it('many orders: one borderless table at the end, a row each, in the order they came', async () => {
    expect(await write('table', MANY, { orders: both })).toBe(
      [
        'UUID                                  STATUS   AMOUNT  API  PAYMENT LINK',
        `${V2.uuid}  PENDING   12.50  v2   ${LINK_V2}`,
        `${V1.uuid}  PAID       5.00  v1   ${LINK_V1}`,
        '',
      ].join('\n'),
    );
    expect(await write('table', MANY, {})).toBe('');
  });

  it('batch: a line per result as it comes, aligned; an error goes whole on lines of its own below', async () => {
    expect(await write('table', BATCH, { records: batch }, {}, { columns: 80 })).toBe(
      [
        `line 2     ✓ created     12.50  PENDING   ${LINK_V2}`,
        // On a terminal the tab is shown as \t before the description is quoted.
        'line 3     ✗ failed      1.234            "Gift\\\\twrap" INV-43',
        `           ${failure.message}`,
        `line 4     ↷ skipped      5.00  PAID      ${LINK_V1}`,
        'line 5     ? unknown',
        '           outcome unknown: the request reached http://x but no answer came back',
        '',
      ].join('\n'),
    );
    // Not on a terminal (-o table | less), a result is one line, however long.
    expect((await write('table', BATCH, { records: batch })).split('\n')[1]).toBe(
      `line 3     ✗ failed      1.234            "Gift\\twrap" INV-43  ${failure.message}`,
    );
  });

  it('colors the status only where a person is looking', async () => {
    const plain = await write('table', SINGLE, { orders: [[V2, RAW_V2]] });
    expect(plain).not.toContain('\u001b[');
    const colored = await write('table', SINGLE, { orders: [[V2, RAW_V2]] }, {}, { color: true });
    expect(colored).toContain('\u001b[33mPENDING\u001b[39m');
    expect(colored.replace(/\u001b\[\d+m/g, '')).toBe(plain);
  });
});

describe('--field and --raw, whatever the format', () => {
  it.each(['json', 'ndjson', 'tsv', 'table'] as const)('%s --field: one value per order', async (format) => {
    expect(await write(format, MANY, { orders: both }, { field: 'links.checkout' })).toBe(
      `${LINK_V2}\n${LINK_V1}\n`,
    );
  });

  it('--field: null and missing values are empty lines, objects JSON', async () => {
    expect(await write('json', MANY, { orders: both }, { field: 'currency' })).toBe('\n840\n');
    expect(await write('json', SINGLE, { orders: [[V2, '']] }, { field: 'no.such' })).toBe('\n');
    expect(await write('json', SINGLE, { orders: [[V2, '']] }, { field: 'links' })).toBe(
      `${JSON.stringify(V2.links)}\n`,
    );
  });

  it('--field in a batch: one output line per input line, empty where no order was made', async () => {
    const lines = batch.map(([record]) => record.order?.uuid ?? '');
    expect(lines).toEqual([V2.uuid, '', V1.uuid, '']);
    expect(await write('ndjson', BATCH, { records: batch }, { field: 'uuid' })).toBe(
      lines.map((line) => `${line}\n`).join(''),
    );
  });

  it.each(['json', 'ndjson', 'tsv', 'table'] as const)(
    "%s --raw: the service's body, trimmed, one per line, nothing around it",
    async (format) => {
      expect(await write(format, MANY, { orders: both }, { raw: true })).toBe(
        `${RAW_V2.trim()}\n${RAW_V1}\n`,
      );
      expect(await write(format, SINGLE, { orders: [[V1, RAW_V1]] }, { raw: true })).toBe(`${RAW_V1}\n`);
    },
  );

  it('--raw in a batch: only the lines that have a body', async () => {
    expect(await write('json', BATCH, { records: batch }, { raw: true })).toBe(`${RAW_V2.trim()}\n`);
  });
});

/** A v2 order of the sandbox: its payment link is 62 columns wide. */
const LONG_LINK = 'http://127.0.0.1:4010/pay/3f0c6a1e-8d2b-4f7a-9c1e-2b6d5a4e7f10';
const SANDBOX_V2: Order = { ...V2, links: { ...V2.links, checkout: LONG_LINK } };
const MISSING: LookupMiss = {
  input: 'missing-one',
  outcome: 'not_found',
  order: null,
  error: new CliError('not_found', 'order missing-one not found on sandbox (v2)').toJSON().error,
};
const LOOKUPS: Written['lookups'] = [
  [SANDBOX_V2, RAW_V2, SANDBOX_V2.uuid],
  MISSING,
  [V1, RAW_V1, '9a8b7c6d5e4f3a2b'],
];

const widest = (text: string) => Math.max(...text.split('\n').map(textWidth));
/** The widest line but the payment links, which are never cut. */
const widestBut = (text: string, links: string[]) =>
  Math.max(
    ...text
      .split('\n')
      .filter((line) => !links.includes(line))
      .map(textWidth),
  );

describe('the terminal width', () => {
  it('60 columns, many orders: the least important columns give way, uuid and status stay whole; the links follow whole', async () => {
    const table = await write('table', MANY, { lookups: LOOKUPS }, {}, { columns: 60 });
    expect(table).toBe(
      [
        'UUID                                  STATUS     AMOUNT  API',
        `${V2.uuid}  PENDING     12.50  v2`,
        'missing-one                           not found',
        `${V1.uuid}  PAID         5.00  v1`,
        '',
        'payment links',
        V2.uuid,
        LONG_LINK,
        '',
        V1.uuid,
        LINK_V1,
        '',
      ].join('\n'),
    );
    expect(widestBut(table, [LONG_LINK])).toBeLessThanOrEqual(60);
  });

  it('80 columns, many orders: a payment link is never cut: the column is whole, or the links follow the table', async () => {
    const table = await write('table', MANY, { lookups: LOOKUPS }, {}, { columns: 80 });
    expect(table.split('\n')).toEqual([
      'UUID                                  STATUS     AMOUNT  API',
      `${V2.uuid}  PENDING     12.50  v2`,
      'missing-one                           not found',
      `${V1.uuid}  PAID         5.00  v1`,
      '',
      'payment links',
      V2.uuid,
      LONG_LINK,
      '',
      V1.uuid,
      LINK_V1,
      '',
    ]);
    expect(widest(table)).toBeLessThanOrEqual(80);
    const wide = await write('table', MANY, { lookups: LOOKUPS }, {}, { columns: 140 });
    expect(wide.split('\n')[1]).toBe(`${V2.uuid}  PENDING     12.50  v2   ${LONG_LINK}`);
  });

  it.each([30, 45, 60, 80, 100])(
    '%i columns: no line of a batch is wider, but a payment link, whole on its own line',
    async (columns) => {
      const long = { ...RECORDS[0]!, order: SANDBOX_V2 };
      const lines = await write('table', BATCH, { records: [[long], ...batch] }, {}, { columns });
      // Below the fixed columns of a batch line (42), only those are wider.
      expect(widestBut(lines, [LONG_LINK])).toBeLessThanOrEqual(Math.max(columns, 42));
      expect(lines.split('\n')).toContain(
        columns >= 42 + 2 + LONG_LINK.length ? expect.stringContaining(LONG_LINK) : LONG_LINK,
      );
      expect(lines).toContain(LONG_LINK);
      // Errors are wrapped, never cut.
      expect(lines.replace(/\s+/g, ' ')).toContain(failure.message);
    },
  );

  it('60 columns, one order: values are cut but the uuid and the status; the payment link is whole on its own line', async () => {
    const view = await write('table', SINGLE, { orders: [[SANDBOX_V2, RAW_V2]] }, {}, { columns: 60 });
    expect(widestBut(view, [LONG_LINK])).toBeLessThanOrEqual(60);
    expect(view).toContain(`uuid                ${V2.uuid}\n`);
    expect(view).toContain('status              PENDING\n');
    expect(view).toContain('id                  /v2/api/orders/3f0c6a1e-8d2b-4f7a-9c1e-…\n');
    expect(view.split('\n').slice(-3)).toEqual(['payment link', LONG_LINK, '']);
  });

  it('wide characters count twice, and a cut never splits one', async () => {
    const wide = { ...V2, external_reference: '注文番号-二〇二六年十二月三十一日-東京都千代田区' };
    const view = await write('table', SINGLE, { orders: [[wide, '']] }, {}, { columns: 60 });
    expect(widest(view)).toBeLessThanOrEqual(60);
    expect(view).toContain('external reference  注文番号-二〇二六年十二月三十一日-東京…\n');
  });
});

describe('a lookup: every id gets a row, in input order, in every format', () => {
  it('JSON and NDJSON: an id that gave no order is {input, outcome, order: null, error}', async () => {
    const json = JSON.parse(await write('json', MANY, { lookups: LOOKUPS }));
    expect(json.map((row: any) => row.uuid ?? row.input)).toEqual([V2.uuid, 'missing-one', V1.uuid]);
    expect(json[1]).toEqual({
      input: 'missing-one',
      outcome: 'not_found',
      order: null,
      error: expect.objectContaining({ kind: 'not_found', exit_code: 1 }),
    });
    const ndjson = (await write('ndjson', MANY, { lookups: LOOKUPS })).trimEnd().split('\n');
    expect(ndjson.map((line) => JSON.parse(line))).toEqual(json);
    expect(JSON.parse(await write('json', SINGLE, { lookups: [MISSING] }))).toEqual(json[1]);
  });

  it('TSV: the input, the outcome and the error follow the order columns', async () => {
    expect(await write('tsv', { of: 'lookup', single: false }, { lookups: LOOKUPS })).toBe(
      tsv([
        [...TSV_HEADER, 'input', 'outcome', 'error'],
        [...TSV_V2.slice(0, -1), LONG_LINK, V2.uuid, 'found', ''],
        [...EMPTY_ORDER, 'missing-one', 'not_found', MISSING.error.message],
        [...TSV_V1, '9a8b7c6d5e4f3a2b', 'found', ''],
      ]),
    );
  });

  it('--field and --raw: an empty line for it', async () => {
    expect(await write('json', MANY, { lookups: LOOKUPS }, { field: 'status' })).toBe('PENDING\n\nPAID\n');
    expect(await write('tsv', MANY, { lookups: LOOKUPS }, { raw: true })).toBe(
      `${RAW_V2.trim()}\n\n${RAW_V1}\n`,
    );
  });

  it('one id alone on a terminal: nothing on stdout, its error says it', async () => {
    expect(await write('table', SINGLE, { lookups: [MISSING] }, {}, { columns: 80 })).toBe('');
  });
});
