import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { CliError } from '../../src/errors.js';
import { EXIT } from '../../src/errors.js';
import {
  type InputLine,
  MAX_LINE_BYTES,
  openBatch,
  readBatch,
  readLines,
} from '../../src/orders/batch-input.js';
import { columnName, draftFrom } from '../../src/orders/draft.js';
import { openInput } from '../../src/orders/input-file.js';
import { tempDir } from '../helpers/cli.js';
import { rejection } from '../helpers/refusal.js';

const OK = 'https://shop.example/thanks';
const KO = 'https://shop.example/cart';
/** Standard input for the calls that read a file: never read. */
const NO_STDIN = Readable.from([]);
const NO_SIGNAL = new AbortController().signal;

/** Everything readBatch yields for a batch file with this content. */
async function readText(text: string | Uint8Array): Promise<InputLine[]> {
  const path = join(tempDir('batch-input-'), 'batch');
  writeFileSync(path, text);
  return readStream(openInput(path, NO_STDIN, NO_SIGNAL), path);
}

async function readStream(stream: Readable, label = 'stdin'): Promise<InputLine[]> {
  const lines: InputLine[] = [];
  for await (const line of readBatch(stream, label)) lines.push(line);
  return lines;
}

/** What readBatch yields for this content before it throws, and the usage error it throws. */
async function refusedFile(text: string | Uint8Array): Promise<{ before: InputLine[]; error: CliError }> {
  const before: InputLine[] = [];
  const error = await rejection(
    async () => {
      for await (const line of readBatch(Readable.from([Buffer.from(text)]), 'orders.csv')) before.push(line);
    },
    () => `readBatch accepted the file, yielding ${JSON.stringify(before)}`,
  );
  expect(error.kind).toBe('usage');
  expect(error.exitCode).toBe(EXIT.usage);
  return { before, error };
}

/** The order a batch line becomes, as order create --input builds it (v2, file column names). */
async function draftOf(text: string) {
  const [input, ...rest] = await readText(text);
  expect(rest).toEqual([]);
  expect(input?.problem).toBeUndefined();
  return draftFrom(input!.fields!, 'v2', columnName);
}

/** The message draftFrom refuses a batch line with. */
const refusalOf = async (text: string) =>
  (await rejection(() => draftOf(text), `the line was accepted: ${text}`)).message;

describe('readBatch: NDJSON', () => {
  it('reads one object per line with its 1-based line number', async () => {
    const text = [
      `{"amount":"12.50","description":"Tea","success":"${OK}","fail":"${KO}"}`,
      `{"amount_cents":"1250","description":"Cake","success":"${OK}","fail":"${KO}","external_reference":"WEB-2"}`,
    ].join('\n');
    expect(await readText(`${text}\n`)).toEqual([
      { line: 1, fields: { amount: '12.50', description: 'Tea', success: OK, fail: KO } },
      {
        line: 2,
        fields: {
          amount_cents: '1250',
          description: 'Cake',
          success: OK,
          fail: KO,
          external_reference: 'WEB-2',
        },
      },
    ]);
  });

  it('skips blank lines but keeps counting them', async () => {
    const text = '\n{"amount":"1"}\n   \n\n{"amount":"2"}\n\n';
    expect(await readText(text)).toEqual([
      { line: 2, fields: { amount: '1' } },
      { line: 5, fields: { amount: '2' } },
    ]);
  });

  it('reads CRLF line endings and a last line without a newline', async () => {
    expect(await readText('{"amount":"1"}\r\n{"amount":"2"}')).toEqual([
      { line: 1, fields: { amount: '1' } },
      { line: 2, fields: { amount: '2' } },
    ]);
  });

  it('accepts the API names and any case of keys, drops empty values, and turns numbers into text', async () => {
    const text = `{"Amount":12.5,"callback_success":"${OK}","CALLBACK_FAIL":"${KO}","notification-url":"${OK}/n","external-reference":"R","description":"","amount_cents":null}\n`;
    expect(await readText(text)).toEqual([
      {
        line: 1,
        fields: {
          amount: '12.5',
          success: OK,
          fail: KO,
          notification_url: `${OK}/n`,
          external_reference: 'R',
        },
      },
    ]);
  });

  it('reports each unreadable line as a problem at its line number and goes on', async () => {
    const text = [
      '{"amount":"1"}',
      'not json',
      '[1,2]',
      '"text"',
      '{"amount":{"value":"1"}}',
      '{"amount":"1"',
      '# a comment',
      '{"amount":"2"}',
    ].join('\n');
    expect(await readText(text)).toEqual([
      { line: 1, fields: { amount: '1' } },
      { line: 2, problem: 'not valid JSON' },
      { line: 3, problem: 'must be a JSON object' },
      { line: 4, problem: 'must be a JSON object' },
      { line: 5, problem: 'amount must be a string' },
      { line: 6, problem: 'not valid JSON' },
      // Batch files have no comment syntax (the README allows `#` only in `order get --input`).
      { line: 7, problem: 'not valid JSON' },
      { line: 8, fields: { amount: '2' } },
    ]);
  });

  it('is told apart from CSV by the first non-blank character', async () => {
    expect(await readText('\n  \n  {"amount":"3"}\n')).toEqual([{ line: 3, fields: { amount: '3' } }]);
  });

  // A file saved "UTF-8 with BOM" (as some Windows editors do) keeps its first order.
  it('reads an NDJSON file that starts with a byte order mark', async () => {
    expect(await readText('\uFEFF{"amount":"1"}\n{"amount":"2"}\n')).toEqual([
      { line: 1, fields: { amount: '1' } },
      { line: 2, fields: { amount: '2' } },
    ]);
  });

  it('refuses an unknown key on its line, naming it and the nearest known key, and reads on', async () => {
    const text = [
      '{"ammount":"1","description":"a"}',
      '{"amount":"2","external_refrence":"R"}',
      '{"amount":"3","colour":"red"}',
      '{"amount":"4"}',
    ].join('\n');
    expect(await readText(text)).toEqual([
      { line: 1, problem: 'unknown key "ammount" (did you mean "amount"?)' },
      { line: 2, problem: 'unknown key "external_refrence" (did you mean "external_reference"?)' },
      { line: 3, problem: 'unknown key "colour"' },
      { line: 4, fields: { amount: '4' } },
    ]);
  });

  it('refuses keys inherited by every object as unknown keys', async () => {
    expect(await readText('{"__proto__":"1"}\n{"constructor":"2"}\n{"toString":"3"}\n')).toEqual([
      { line: 1, problem: 'unknown key "__proto__"' },
      { line: 2, problem: 'unknown key "constructor"' },
      { line: 3, problem: 'unknown key "toString"' },
    ]);
  });

  it('refuses a line that gives a field twice, whatever the spelling, instead of keeping the last', async () => {
    const text = [
      '{"amount":"1","amount":"2"}',
      '{"amount":"1","description":"a","\\u0061mount":"2"}',
      '{"amount":"1"," Amount ":"2"}',
      `{"success":"${OK}","callback_success":"${OK}/other"}`,
    ].join('\n');
    expect(await readText(text)).toEqual([
      { line: 1, problem: 'key "amount" is given twice' },
      { line: 2, problem: 'key "amount" is given twice' },
      { line: 3, problem: 'keys "amount" and " Amount " are the same field (amount)' },
      { line: 4, problem: 'keys "success" and "callback_success" are the same field (success)' },
    ]);
  });
});

describe('readBatch: NDJSON numbers are read as the digits written', () => {
  const line = (amount: string, key = 'amount') =>
    `{"${key}": ${amount}, "description": "Tea", "success": "${OK}", "fail": "${KO}"}\n`;

  it('sends 9007199254740993 (above 2^53) as written, not as 9007199254740992.00', async () => {
    expect((await readText(line('9007199254740993')))[0]!.fields!.amount).toBe('9007199254740993');
    expect((await draftOf(line('9007199254740993'))).amountCents).toBe(900719925474099300n);
  });

  it('refuses 19.999999999999999 (at most 2 decimals) instead of rounding it to 20.00', async () => {
    expect(await refusalOf(line('19.999999999999999'))).toBe(
      'amount: must have at most 2 decimals (got "19.999999999999999"; e.g. 12.50)',
    );
  });

  it('sends amount_cents 9007199254740993 as written, not as 90071992547409.92', async () => {
    expect((await draftOf(line('9007199254740993', 'amount_cents'))).amountCents).toBe(9007199254740993n);
  });

  it.each([
    ['12.50', 1250n],
    ['12.5', 1250n],
    ['0.1', 10n],
    ['1.10', 110n],
    ['92233720368547758.07', 9223372036854775807n],
    ['123456789012345678901234567890.99', 12345678901234567890123456789099n],
  ])('reads the JSON number %s as %s cents', async (amount, cents) => {
    expect((await draftOf(line(amount))).amountCents).toBe(cents);
  });

  it.each([
    ['1E2', 'amount: must be written out in digits (no exponent) (got "1E2"; e.g. 12.50)'],
    ['1.5e-1', 'amount: must be written out in digits (no exponent) (got "1.5e-1"; e.g. 12.50)'],
    ['-0', 'amount: must not be negative (got "-0"; e.g. 12.50)'],
    ['0.001', 'amount: must have at most 2 decimals (got "0.001"; e.g. 12.50)'],
  ])('refuses the JSON number %s by the amount rules, as it is written', async (amount, message) => {
    expect(await refusalOf(line(amount))).toBe(message);
  });

  it.each([
    ['1250.0', 'amount_cents: must be whole cents: digits only, no point or sign (got "1250.0"; e.g. 1250)'],
    ['1.25e3', 'amount_cents: must be whole cents: digits only, no point or sign (got "1.25e3"; e.g. 1250)'],
  ])('refuses the JSON number amount_cents %s as written', async (cents, message) => {
    expect(await refusalOf(line(cents, 'amount_cents'))).toBe(message);
  });

  it('keeps every other number as written too', async () => {
    const text = `{"amount":"1","external_reference":12345678901234567890,"description":0.10}\n`;
    expect((await readText(text))[0]!.fields).toEqual({
      amount: '1',
      external_reference: '12345678901234567890',
      description: '0.10',
    });
  });
});

describe('readBatch: CSV', () => {
  it('reads records by the header row, keeping quoted commas in a value', async () => {
    const text = [
      'amount,description,success,fail,external_reference',
      `19.99,"T-shirt, blue",${OK},${KO},WEB-1`,
      `5,Gift wrap,${OK},${KO},WEB-2`,
    ].join('\n');
    expect(await readText(`${text}\n`)).toEqual([
      {
        line: 2,
        fields: {
          amount: '19.99',
          description: 'T-shirt, blue',
          success: OK,
          fail: KO,
          external_reference: 'WEB-1',
        },
      },
      {
        line: 3,
        fields: { amount: '5', description: 'Gift wrap', success: OK, fail: KO, external_reference: 'WEB-2' },
      },
    ]);
  });

  it('keeps amount and amount_cents apart, as two different columns', async () => {
    const text = 'amount,amount_cents,description\n12.50,,Tea\n,1250,Cake\n1,100,Both\n';
    expect(await readText(text)).toEqual([
      { line: 2, fields: { amount: '12.50', description: 'Tea' } },
      { line: 3, fields: { amount_cents: '1250', description: 'Cake' } },
      { line: 4, fields: { amount: '1', amount_cents: '100', description: 'Both' } },
    ]);
  });

  it('accepts the API column names, trims and lowercases the header, and strips a byte order mark', async () => {
    const text = `\uFEFF Amount ,Callback_Success,callback_fail\n1,${OK},${KO}\n`;
    expect(await readText(text)).toEqual([{ line: 2, fields: { amount: '1', success: OK, fail: KO } }]);
  });

  it('keeps a quoted newline inside its value, and counts the lines after it right', async () => {
    const text = 'amount,description\n1,"first line\nsecond line"\n2,next\n';
    const lines = await readText(text);
    expect(lines.map((l) => l.fields)).toEqual([
      { amount: '1', description: 'first line\nsecond line' },
      { amount: '2', description: 'next' },
    ]);
    expect(lines[1]!.line).toBe(4);
  });

  it('numbers a multi-line record by the line it starts on', async () => {
    const text = 'amount,description\n1,"first line\nsecond line\nthird line"\n2,next\n';
    expect((await readText(text)).map((l) => l.line)).toEqual([2, 5]);
  });

  it('skips blank lines but keeps counting them, with CRLF endings too', async () => {
    const text = 'amount,description\r\n\r\n1,a\r\n\r\n\r\n2,b\r\n';
    expect(await readText(text)).toEqual([
      { line: 3, fields: { amount: '1', description: 'a' } },
      { line: 6, fields: { amount: '2', description: 'b' } },
    ]);
  });

  it('reports a record with the wrong number of columns at its line number and goes on', async () => {
    const text = 'amount,description,success\n1,a\n# a comment\n2,b,c,d\n3,c,ok\n';
    expect(await readText(text)).toEqual([
      { line: 2, problem: 'has 2 columns, the header has 3' },
      // Batch files have no comment syntax: a `#` line is a one-column record, reported, not dropped.
      { line: 3, problem: 'has 1 columns, the header has 3' },
      { line: 4, problem: 'has 4 columns, the header has 3' },
      { line: 5, fields: { amount: '3', description: 'c', success: 'ok' } },
    ]);
  });

  const badQuote = 'amount,description\n1,a\n2,ab"c\n3,c\n';
  const badQuoteLines: InputLine[] = [
    { line: 2, fields: { amount: '1', description: 'a' } },
    {
      line: 3,
      problem:
        'not valid CSV: a quote inside the unquoted value of column 2 (quote the whole value, doubling its quotes)',
    },
    { line: 4, fields: { amount: '3', description: 'c' } },
  ];

  it('reports a malformed quote as a problem at its line number and reads on', async () => {
    const lines = await readText(badQuote);
    expect(lines.toSorted((a, b) => a.line - b.line)).toEqual(badQuoteLines);
  });

  // Batch results come in this order: a problem must not jump ahead of the good records before it.
  it('reports a malformed quote in input order with the records around it', async () => {
    expect(await readText(badQuote)).toEqual(badQuoteLines);
  });

  it('reports text after a closing quote, at the line the record starts on, and reads on', async () => {
    const text = 'amount,description\n1,"two\nlines"x\n2,"a ""quoted"" word"\n';
    expect(await readText(text)).toEqual([
      {
        line: 2,
        problem:
          'not valid CSV: column 2 goes on after its closing quote (quote the whole value, doubling its quotes)',
      },
      { line: 4, fields: { amount: '2', description: 'a "quoted" word' } },
    ]);
  });

  it('reads on after a stray quote, even when a quote opens later on its line', async () => {
    // A parser that read on inside that second quote would swallow the lines after it.
    expect(await readText('amount,description\n1,ab"c,"x\n2,b\n3,"c\nd"\n')).toEqual([
      {
        line: 2,
        problem:
          'not valid CSV: a quote inside the unquoted value of column 2 (quote the whole value, doubling its quotes)',
      },
      { line: 3, fields: { amount: '2', description: 'b' } },
      { line: 4, fields: { amount: '3', description: 'c\nd' } },
    ]);
  });

  it('reports a stray quote at the end of a line, before the lines after it', async () => {
    expect(await readText('amount,description\n1,a"\n\n2,b')).toEqual([
      {
        line: 2,
        problem:
          'not valid CSV: a quote inside the unquoted value of column 2 (quote the whole value, doubling its quotes)',
      },
      { line: 4, fields: { amount: '2', description: 'b' } },
    ]);
  });

  it('keeps a carriage return inside a value as written, and numbers the lines after it right', async () => {
    expect(await readText('amount,description\n1,"a\rb"\n2,c\rd\n3,e\n')).toEqual([
      { line: 2, fields: { amount: '1', description: 'a\rb' } },
      { line: 3, fields: { amount: '2', description: 'c\rd' } },
      { line: 4, fields: { amount: '3', description: 'e' } },
    ]);
  });

  it('reports a quote left open at the end of the file', async () => {
    const lines = await readText('amount,description\n1,a\n2,"never closed\n');
    expect(lines).toEqual([
      { line: 2, fields: { amount: '1', description: 'a' } },
      { line: 3, problem: 'not valid CSV: the quote opened in column 2 is never closed' },
    ]);
  });

  it('yields nothing for an empty file or a header alone', async () => {
    expect(await readText('')).toEqual([]);
    expect(await readText('amount,description\n')).toEqual([]);
  });
});

describe('readBatch: the CSV header is checked before any line', () => {
  const row = `1,Tea,${OK},${KO}`;

  it('refuses a column given twice, naming it, instead of letting the last one win', async () => {
    const { before, error } = await refusedFile(`amount,description,success,fail,amount\n${row},2\n`);
    expect(before).toEqual([]);
    expect(error.message).toBe('--input: column "amount" is given twice in the header of orders.csv');
    expect(error.details.field).toBe('--input');
  });

  it('refuses two columns that name the same field', async () => {
    const { before, error } = await refusedFile(
      `amount,description,success,fail,Callback_Success\n${row},${OK}\n`,
    );
    expect(before).toEqual([]);
    expect(error.message).toBe(
      '--input: columns "success" and "Callback_Success" are the same field (success) in the header of orders.csv',
    );
  });

  it.each([
    ['external_refrence', 'external_reference'],
    ['ammount', 'amount'],
    ['Descripton', 'description'],
    ['notification_uri', 'notification_url'],
  ])('refuses the unknown column %s, suggesting %s', async (column, known) => {
    const { before, error } = await refusedFile(`amount,description,success,fail,${column}\n${row},x\n`);
    expect(before).toEqual([]);
    expect(error.message).toBe(
      `--input: unknown column "${column}" in the header of orders.csv (did you mean "${known}"?)`,
    );
    expect(error.details.hint).toContain('amount or amount_cents, description, success, fail');
  });

  it('refuses an unknown column with nothing close to it, and a column without a name', async () => {
    expect((await refusedFile(`amount,description,success,fail,colour\n${row},red\n`)).error.message).toBe(
      '--input: unknown column "colour" in the header of orders.csv',
    );
    expect((await refusedFile(`amount,description,,success,fail\n1,Tea,,${OK},${KO}\n`)).error.message).toBe(
      '--input: column 3 of the header of orders.csv has no name',
    );
  });

  it('refuses a file without a header row instead of reading 0 lines', async () => {
    const { before, error } = await refusedFile(
      `19.99,"T-shirt, blue",${OK},${KO}\n5,Gift wrap,${OK},${KO}\n`,
    );
    expect(before).toEqual([]);
    expect(error.message).toBe(
      '--input: the first line of orders.csv is not a header row (no column has a known name, e.g. "19.99")',
    );
    expect(error.details.hint).toContain('amount,description,success,fail');
  });

  it.each([
    [';', 'amount;description;success;fail'],
    ['\t', 'amount\tdescription\tsuccess\tfail'],
  ])('refuses a header separated by %j instead of commas', async (separator, header) => {
    const { before, error } = await refusedFile(`${header}\n${row.replaceAll(',', separator)}\n`);
    expect(before).toEqual([]);
    expect(error.message).toBe(
      `--input: the columns of orders.csv must be separated by commas; its header is separated by ${JSON.stringify(separator)}`,
    );
  });

  it('refuses a header that is not valid CSV', async () => {
    expect((await refusedFile('amount,"description\n1,a\n')).error.message).toBe(
      '--input: the header of orders.csv is not valid CSV: the quote opened in column 2 is never closed',
    );
  });

  it('refuses a JSON array, which is not NDJSON, instead of reading it as a CSV header', async () => {
    expect((await refusedFile('[{"amount":"1"},\n{"amount":"2"}]\n')).error.message).toBe(
      '--input: orders.csv starts with "[": give one JSON object per line (NDJSON), not a JSON array',
    );
  });

  it('closes the input it refuses', async () => {
    const path = join(tempDir('batch-input-'), 'orders.csv');
    writeFileSync(path, `amount,amount\n${'1,2\n'.repeat(50_000)}`);
    const stream = openInput(path, NO_STDIN, NO_SIGNAL);
    await expect(openBatch(stream, 'orders.csv')).rejects.toThrow('column "amount" is given twice');
    expect(stream.destroyed).toBe(true);
  });

  it('lets the caller check the header as a step of its own, before the first line is read', async () => {
    const bad = Readable.from([Buffer.from(`amount,ammount\n${row}\n`)]);
    await expect(openBatch(bad, 'orders.csv')).rejects.toThrow('unknown column "ammount"');

    const good = await openBatch(Readable.from([Buffer.from(`Amount,callback_success\n1,${OK}\n`)]), 'in');
    expect(good.format).toBe('csv');
    expect(good.columns).toEqual(['amount', 'success']);
    const lines: InputLine[] = [];
    for await (const line of good.lines) lines.push(line);
    expect(lines).toEqual([{ line: 2, fields: { amount: '1', success: OK } }]);

    const ndjson = await openBatch(Readable.from([Buffer.from('{"amount":"1"}\n')]), 'in');
    expect(ndjson.format).toBe('ndjson');
    const empty = await openBatch(Readable.from([]), 'in');
    expect(empty.format).toBe('empty');
  });
});

describe('readBatch: bytes, encodings and limits', () => {
  const invalid = Buffer.from([0x54, 0x65, 0xff, 0x61]); // "Te", a byte UTF-8 never has, "a"

  it('refuses a line that is not valid UTF-8, naming it, and reads the others (NDJSON)', async () => {
    const text = Buffer.concat([
      Buffer.from('{"amount":"1"}\n{"amount":"2","description":"'),
      invalid,
      Buffer.from('"}\n{"amount":"3"}\n'),
    ]);
    expect(await readText(text)).toEqual([
      { line: 1, fields: { amount: '1' } },
      { line: 2, problem: 'not valid UTF-8 (save the file as UTF-8)' },
      { line: 3, fields: { amount: '3' } },
    ]);
  });

  it('refuses a CSV record that is not valid UTF-8 at the line it starts on, and reads the others', async () => {
    const text = Buffer.concat([
      Buffer.from('amount,description\n1,a\n2,"x\n'),
      invalid,
      Buffer.from('"\n3,c\n'),
    ]);
    expect(await readText(text)).toEqual([
      { line: 2, fields: { amount: '1', description: 'a' } },
      { line: 3, problem: 'not valid UTF-8 (save the file as UTF-8)' },
      { line: 5, fields: { amount: '3', description: 'c' } },
    ]);
  });

  it('refuses a file in UTF-16 as a whole', async () => {
    const utf16 = Buffer.from('\uFEFFamount,description\n1,a\n', 'utf16le');
    expect((await refusedFile(utf16)).error.message).toBe(
      '--input: orders.csv is in UTF-16; save it as UTF-8',
    );
  });

  it('reads a line of exactly MAX_LINE_BYTES (64 KiB) and refuses one byte more, naming the line', async () => {
    expect(MAX_LINE_BYTES).toBe(64 * 1024);
    // Two bytes per character: a reader that counted characters would let twice the limit through.
    const padded = (bytes: number) => {
      const room = bytes - '{"amount":"1","description":""}'.length;
      const line = `{"amount":"1","description":"${'é'.repeat(room >> 1)}${'x'.repeat(room & 1)}"}`;
      expect(Buffer.byteLength(line)).toBe(bytes);
      return line;
    };
    const [fits] = await readText(`${padded(MAX_LINE_BYTES)}\r\n`);
    expect(fits!.fields!.description).toMatch(/^é+x?$/);
    const { before, error } = await refusedFile(
      `{"amount":"1"}\n${padded(MAX_LINE_BYTES + 1)}\n{"amount":"2"}\n`,
    );
    expect(before).toEqual([{ line: 1, fields: { amount: '1' } }]);
    expect(error.message).toBe('--input: line 2 of orders.csv is longer than 65536 bytes');
  });

  it('stops on input without a newline (like /dev/zero) after reading a bounded amount', async () => {
    let read = 0;
    const endless = new Readable({
      read() {
        read += 64 * 1024;
        this.push(read > 16 * 1024 * 1024 ? null : Buffer.alloc(64 * 1024));
      },
    });
    const error = await rejection(async () => {
      for await (const _ of readBatch(endless, '/dev/zero'));
    }, 'readBatch accepted the stream');
    expect(error.message).toBe('--input: line 1 of /dev/zero is longer than 65536 bytes');
    expect(read).toBeLessThan(1024 * 1024);
  });

  it('bounds a CSV record that a quote left open keeps going', async () => {
    const rest = `${'x'.repeat(1000)}\n`.repeat(100);
    const { before, error } = await refusedFile(`amount,description\n1,a\n2,"never closed\n${rest}3,c\n`);
    expect(before).toEqual([{ line: 2, fields: { amount: '1', description: 'a' } }]);
    expect(error.message).toBe(
      '--input: the record starting on line 3 of orders.csv is longer than 65536 bytes (a quote left open?)',
    );
  });

  it('holds a CSV record over several lines to MAX_LINE_BYTES, as a line', async () => {
    /** `1,"x…` and `y…"`: one record of this many bytes, the "\n" between its lines counted. */
    const record = (bytes: number) => {
      const room = bytes - '1,"\n"'.length;
      return `1,"${'x'.repeat(room >> 1)}\n${'y'.repeat(room - (room >> 1))}"`;
    };
    expect(Buffer.byteLength(record(MAX_LINE_BYTES))).toBe(MAX_LINE_BYTES);
    const [fits] = await readText(`amount,description\n${record(MAX_LINE_BYTES)}\n`);
    expect(fits!.fields!.description).toHaveLength(MAX_LINE_BYTES - 4);
    const { before, error } = await refusedFile(
      `amount,description\n1,a\n${record(MAX_LINE_BYTES + 1)}\n2,b\n`,
    );
    expect(before).toEqual([{ line: 2, fields: { amount: '1', description: 'a' } }]);
    expect(error.message).toBe(
      '--input: the record starting on line 3 of orders.csv is longer than 65536 bytes (a quote left open?)',
    );
  });

  it('gives order get its lines the same way: numbered, bounded, without a byte order mark', async () => {
    const lines = [];
    for await (const line of readLines(Readable.from([Buffer.from('\uFEFFabc\r\n\n 42 \n')]), 'ids'))
      lines.push(line);
    expect(lines).toEqual([
      { line: 1, text: 'abc', valid: true },
      { line: 2, text: '', valid: true },
      { line: 3, text: ' 42 ', valid: true },
    ]);
    const endless = Readable.from(
      (function* () {
        for (;;) yield Buffer.alloc(4096);
      })(),
    );
    await expect(async () => {
      for await (const _ of readLines(endless, '/dev/zero'));
    }).rejects.toThrow('--input: line 1 of /dev/zero is longer than 65536 bytes');
  });
});

describe('readBatch of what --input names (openInput)', () => {
  it('reads standard input for "-"', async () => {
    const stdin = Readable.from([Buffer.from('{"amount":"7"}\n')]);
    expect(openInput('-', stdin, NO_SIGNAL)).toBe(stdin);
    expect(await readStream(openInput('-', stdin, NO_SIGNAL))).toEqual([
      { line: 1, fields: { amount: '7' } },
    ]);
  });

  it('turns a file that cannot be read into a usage error naming --input and the reason', async () => {
    const missing = join(tempDir('batch-input-'), 'missing.csv');
    const error = await rejection(() => readStream(openInput(missing, NO_STDIN, NO_SIGNAL), 'missing.csv'));
    expect(error.message).toBe('--input: cannot read missing.csv (ENOENT)');
    expect(error.details.field).toBe('--input');
    expect(error.exitCode).toBe(EXIT.usage);
  });
});
