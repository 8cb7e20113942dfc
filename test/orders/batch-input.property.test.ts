/**
 * Money from batch files is exact or refused, over random files: every line becomes an order whose
 * amount is exactly the decimal its text says, or is refused (a problem of the line, or a usage
 * error for the whole file), never an order for another amount. The expected cents are computed
 * here from the text with BigInt and string arithmetic, apart from src/contract/money.ts.
 */
import { Readable } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CliError } from '../../src/errors.js';
import { readBatch } from '../../src/orders/batch-input.js';
import { columnName, draftFrom } from '../../src/orders/draft.js';

const OK = 'https://shop.example/thanks';
const KO = 'https://shop.example/cart';
const RUNS = { numRuns: 300 };

type AmountField = 'amount' | 'amount_cents';
/** What a line must become: an order of exactly these cents and this description, or a refusal. */
type Want = { cents: bigint; description: string } | 'refused';

const isDigit = (c: string) => c.length === 1 && c >= '0' && c <= '9';
const allDigits = (text: string) => text !== '' && [...text].every(isDigit);

/**
 * The cents a text says by the README's rules: `amount` is digits, then optionally a point and one
 * or two digits; `amount_cents` is digits (spaces around it ignored). Undefined when it says none.
 */
function centsSaid(text: string, field: AmountField): bigint | undefined {
  if (field === 'amount_cents') return allDigits(text.trim()) ? BigInt(text.trim()) : undefined;
  const [whole = '', fraction, ...more] = text.split('.');
  if (more.length > 0 || !allDigits(whole)) return undefined;
  if (fraction === undefined) return BigInt(whole) * 100n;
  if (!allDigits(fraction) || fraction.length > 2) return undefined;
  return BigInt(whole + fraction.padEnd(2, '0'));
}

function want(text: string, field: AmountField, description: string): Want {
  const cents = centsSaid(text, field);
  return cents !== undefined && cents > 0n ? { cents, description } : 'refused';
}

/** What payorder makes of the file: a usage error for the file, or each line's outcome in order. */
async function outcomes(bytes: Buffer, cuts: number[]): Promise<CliError | Array<[number, Want]>> {
  const points = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks = [0, ...points].map((start, i) => bytes.subarray(start, points[i] ?? bytes.length));
  const results: Array<[number, Want]> = [];
  try {
    for await (const { line, fields, problem } of readBatch(Readable.from(chunks), 'batch')) {
      if (problem !== undefined) {
        results.push([line, 'refused']);
        continue;
      }
      try {
        const draft = draftFrom(fields!, 'v2', columnName);
        results.push([line, { cents: draft.amountCents, description: draft.description }]);
      } catch (error) {
        if (!(error instanceof CliError)) throw error;
        results.push([line, 'refused']);
      }
    }
  } catch (error) {
    if (!(error instanceof CliError) || error.kind !== 'usage') throw error;
    expect(results).toEqual([]);
    return error;
  }
  return results;
}

// ── Texts ───────────────────────────────────────────────────────────────────────────────────────

const digits = (minLength: number, maxLength: number) =>
  fc.string({ unit: fc.constantFrom(...'0123456789'), minLength, maxLength });

/** Any number JSON allows: sign, integer part, fraction, exponent; up to 30 digits (past 2^53). */
const jsonNumber = fc
  .tuple(
    fc.boolean(),
    fc.oneof(
      fc.constant('0'),
      fc.tuple(fc.constantFrom(...'123456789'), digits(0, 29)).map(([a, b]) => a + b),
    ),
    fc.option(digits(1, 20)),
    fc.option(fc.tuple(fc.constantFrom('e', 'E'), fc.constantFrom('', '+', '-'), digits(1, 3))),
  )
  .map(
    ([negative, whole, fraction, exponent]) =>
      `${negative ? '-' : ''}${whole}${fraction === null ? '' : `.${fraction}`}${exponent?.join('') ?? ''}`,
  );
const JSON_NUMBER = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/;

/** An amount as a person might write it: valid decimals of any size, near misses, and junk. */
const amountText = fc.oneof(
  fc.tuple(digits(1, 25), fc.option(digits(0, 4))).map(([w, f]) => (f === null ? w : `${w}.${f}`)),
  jsonNumber,
  fc.constantFrom(
    '',
    ' 12',
    '12 ',
    '-1',
    '+1',
    '1e2',
    '0x10',
    '1,50',
    '1,000.00',
    '12.',
    '.5',
    '1.2.3',
    'NaN',
    'Infinity',
    '١٢',
    '１２',
    '0',
    '0.00',
    '-0',
    '19.999999999999999',
    '9007199254740993',
    '"1"',
  ),
  fc.string({ unit: fc.constantFrom(...'0123456789.,-+eE x"'), maxLength: 8 }),
);

/** Descriptions with what CSV must quote and JSON must escape; "#" first, so never a column name. */
const description = fc
  .string({ unit: fc.constantFrom(...'ab ,;"\n\\{}:é€', '😀', '\t'), maxLength: 12 })
  .map((text) => `#${text}`);

/** How a key or column is written: any case, spaces around it, or the API's name. */
const spelling = fc.constantFrom('same', 'upper', 'title', 'padded', 'api');
const spell = (field: string, how: string) =>
  how === 'upper'
    ? field.toUpperCase()
    : how === 'title'
      ? field[0]!.toUpperCase() + field.slice(1)
      : how === 'padded'
        ? ` ${field} `
        : how === 'api' && (field === 'success' || field === 'fail')
          ? `callback_${field}`
          : field;

const TYPOS = ['ammount', 'amount_cent', 'external_refrence', 'descripton', 'colour', 'Notes'];
const lineEnd = fc.constantFrom('\n', '\r\n');
const order = fc.array(fc.integer(), { minLength: 8, maxLength: 8 });
/** The items in the order the sort keys say. */
const shuffle = <T>(items: T[], keys: number[]) =>
  items
    .map((item, i) => [keys[i]!, item] as const)
    .sort((a, b) => a[0] - b[0])
    .map(([, item]) => item);

/** A byte that is never UTF-8, put where the line's text has U+E000. */
const INVALID = '\uE000';
const toBytes = (text: string) =>
  Buffer.concat(
    text
      .split(INVALID)
      .flatMap((part, i) => (i === 0 ? [Buffer.from(part)] : [Buffer.from([0xff]), Buffer.from(part)])),
  );

// ── NDJSON ──────────────────────────────────────────────────────────────────────────────────────

const ndjsonLine = fc.record({
  field: fc.constantFrom<AmountField>('amount', 'amount_cents'),
  amount: amountText,
  asNumber: fc.boolean(),
  escaped: fc.array(fc.boolean(), { maxLength: 8 }),
  keys: fc.tuple(spelling, spelling, spelling),
  description,
  extra: fc.constantFrom('none', 'none', 'none', 'unknown', 'repeated', 'same-field', 'both', 'not-utf8'),
  typo: fc.constantFrom(...TYPOS),
  order,
  blankBefore: fc.constantFrom('', '', '\n', '  \n'),
  end: lineEnd,
});

type NdjsonLine = typeof ndjsonLine extends fc.Arbitrary<infer T> ? T : never;

/** A JSON string of the text, some of its characters written as \u escapes. */
const jsonString = (text: string, escaped: boolean[]) =>
  `"${[...text]
    .map((c, i) =>
      escaped[i % Math.max(escaped.length, 1)] && c.length === 1
        ? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`
        : JSON.stringify(c).slice(1, -1),
    )
    .join('')}"`;

function ndjsonText(spec: NdjsonLine): { text: string; want: Want } {
  const key = spell(spec.field, spec.keys[0]);
  const other = spec.field === 'amount' ? 'amount_cents' : 'amount';
  const value =
    spec.asNumber && JSON_NUMBER.test(spec.amount) ? spec.amount : jsonString(spec.amount, spec.escaped);
  const text = spec.extra === 'not-utf8' ? `${spec.description}${INVALID}` : spec.description;
  const pairs: Array<[string, string]> = [
    [key, value],
    ['description', JSON.stringify(text)],
    [spell('success', spec.keys[1]), JSON.stringify(OK)],
    [spell('fail', spec.keys[2]), JSON.stringify(KO)],
  ];
  if (spec.extra === 'unknown') pairs.push([spec.typo, '"1"']);
  if (spec.extra === 'repeated') pairs.push([key, '"1"']);
  if (spec.extra === 'same-field') pairs.push([`${key} `, '"1"']);
  if (spec.extra === 'both') pairs.push([other, '"1"']);
  const object = `{${shuffle(pairs, spec.order)
    .map(([k, v]) => `${JSON.stringify(k)}: ${v}`)
    .join(', ')}}`;
  // With both amount and amount_cents, an empty one counts as absent (as an empty CSV value does).
  return {
    text: object,
    want:
      spec.extra === 'none'
        ? want(spec.amount, spec.field, spec.description)
        : spec.extra === 'both' && spec.amount === ''
          ? want('1', other, spec.description)
          : 'refused',
  };
}

// ── CSV ─────────────────────────────────────────────────────────────────────────────────────────

const csvRow = fc.record({
  amount: amountText,
  description,
  quoteAll: fc.boolean(),
  extra: fc.constantFrom('none', 'none', 'none', 'none', 'not-utf8', 'extra-value'),
  blankBefore: fc.constantFrom('', '', '\n', '  \n'),
});

const csvFile = fc.record({
  field: fc.constantFrom<AmountField>('amount', 'amount_cents'),
  columns: fc.tuple(spelling, spelling, spelling, spelling),
  order,
  header: fc.constantFrom('ok', 'ok', 'ok', 'ok', 'repeated', 'same-field', 'unknown', 'semicolons', 'none'),
  typo: fc.constantFrom(...TYPOS),
  rows: fc.array(csvRow, { maxLength: 6 }),
  bom: fc.boolean(),
  end: lineEnd,
});

const csvValue = (value: string, quote: boolean) =>
  quote || /[,"\n;]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;

type CsvRow = typeof csvRow extends fc.Arbitrary<infer T> ? T : never;
type CsvFile = typeof csvFile extends fc.Arbitrary<infer T> ? T : never;

function csvText(spec: CsvFile) {
  const amountColumn = spell(spec.field, spec.columns[0]);
  const columns = shuffle(
    [
      { name: amountColumn, value: (row: CsvRow) => row.amount },
      {
        name: spell('description', spec.columns[1]),
        value: (row: CsvRow) => row.description + (row.extra === 'not-utf8' ? INVALID : ''),
      },
      { name: spell('success', spec.columns[2]), value: () => OK },
      { name: spell('fail', spec.columns[3]), value: () => KO },
    ],
    spec.order,
  );
  const extraColumn =
    spec.header === 'repeated'
      ? amountColumn
      : spec.header === 'same-field'
        ? `${amountColumn} `
        : spec.header === 'unknown'
          ? spec.typo
          : undefined;
  const separator = spec.header === 'semicolons' ? ';' : ',';
  let text = spec.bom ? '\uFEFF' : '';
  let line = 1;
  if (spec.header !== 'none') {
    text += [...columns.map((c) => c.name), ...(extraColumn ? [extraColumn] : [])].join(separator) + spec.end;
    line++;
  }
  const lines: Array<[number, Want]> = [];
  for (const row of spec.rows) {
    text += row.blankBefore;
    line += row.blankBefore.split('\n').length - 1;
    const values = columns.map((c) => csvValue(c.value(row), row.quoteAll));
    if (extraColumn) values.push('1');
    if (row.extra === 'extra-value') values.push('x');
    const record = values.join(separator);
    lines.push([line, row.extra === 'none' ? want(row.amount, spec.field, row.description) : 'refused']);
    text += record + spec.end;
    line += record.split('\n').length;
  }
  // A header that cannot be right refuses the file, and so does a file without one (once it has a row).
  const refused = spec.header !== 'ok' && (spec.header !== 'none' || spec.rows.length > 0);
  return { bytes: toBytes(text), refused, lines };
}

// ── Properties ──────────────────────────────────────────────────────────────────────────────────

describe('batch money is exact or refused (random files)', () => {
  it('NDJSON: each line is an order of exactly the cents its text says, or refused', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(ndjsonLine, { minLength: 1, maxLength: 6 }),
        fc.boolean(),
        fc.array(fc.nat(), { maxLength: 8 }),
        async (specs, bom, cuts) => {
          let text = bom ? '\uFEFF' : '';
          const expected: Array<[number, Want]> = [];
          let line = 1;
          for (const spec of specs) {
            text += spec.blankBefore;
            line += spec.blankBefore.split('\n').length - 1;
            const { text: object, want: wanted } = ndjsonText(spec);
            expected.push([line++, wanted]);
            text += object + spec.end;
          }
          expect(await outcomes(toBytes(text), cuts)).toEqual(expected);
        },
      ),
      RUNS,
    );
  });

  it('CSV: each record is an order of exactly the cents its text says, or refused, or the file is', async () => {
    await fc.assert(
      fc.asyncProperty(csvFile, fc.array(fc.nat(), { maxLength: 8 }), async (spec, cuts) => {
        const { bytes, refused, lines } = csvText(spec);
        const result = await outcomes(bytes, cuts);
        if (refused) expect(result).toBeInstanceOf(CliError);
        else expect(result).toEqual(lines);
      }),
      RUNS,
    );
  });

  it('a JSON number amount is never read through a double', async () => {
    await fc.assert(
      fc.asyncProperty(
        jsonNumber,
        fc.constantFrom<AmountField>('amount', 'amount_cents'),
        async (number, field) => {
          const text = `{"${field}": ${number}, "description": "#", "success": "${OK}", "fail": "${KO}"}\n`;
          expect(await outcomes(Buffer.from(text), [])).toEqual([[1, want(number, field, '#')]]);
        },
      ),
      RUNS,
    );
  });
});
