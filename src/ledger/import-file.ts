/**
 * Reads a file of orders for `payorder ledger import`: NDJSON (objects; nested ones such as a batch
 * result's `order` and `input` are read as `order.uuid`, `input.description`), CSV with a header row,
 * or TSV (payorder's own `-o tsv`). Columns are known by payorder's own output names, or mapped with
 * --map FIELD=COLUMN; other columns are left alone. Each line is checked as a batch line is, and
 * every problem is said with its line.
 */
import type { Readable } from 'node:stream';
import { AmountError, parseAmount, parseCents } from '../contract/money.js';
import { invalidField } from '../errors.js';
import { csvRecords } from '../orders/csv-input.js';
import { isBlank, readLines, type TextLine } from '../orders/input-lines.js';
import { checkOrderId, isUuid } from '../orders/order-ids.js';
import { parseDate } from './dates.js';
import type { ImportedOrder } from './ledger.js';

/** The fields an import reads. */
export const IMPORT_FIELDS = [
  'uuid',
  'id',
  'external_reference',
  'description',
  'amount',
  'amount_cents',
  'date',
  'status',
  'version',
] as const;
export type ImportField = (typeof IMPORT_FIELDS)[number];

/** The column names that say each field, as payorder's outputs (order get, batch results) write them. */
const NAMES: Record<ImportField, string[]> = {
  uuid: ['uuid', 'order.uuid'],
  id: ['id', 'order.id', 'order_id'],
  external_reference: ['external_reference', 'order.external_reference', 'input.external_reference'],
  description: ['description', 'input.description'],
  amount: ['amount', 'order.amount', 'input.amount'],
  amount_cents: ['amount_cents', 'order.amount_cents'],
  date: ['date', 'created_at', 'at'],
  status: ['status', 'order.status'],
  version: ['version', 'order.version'],
};

export type ColumnMap = Partial<Record<ImportField, string>>;

/** --map FIELD=COLUMN, checked. */
export function parseMap(values: string[]): ColumnMap {
  const map: ColumnMap = {};
  for (const value of values) {
    const [field, column] = [value.slice(0, value.indexOf('=')), value.slice(value.indexOf('=') + 1)];
    if (!value.includes('=') || column === '')
      throw invalidField('--map', `must be FIELD=COLUMN, e.g. external_reference=order_ref, got "${value}"`);
    if (!(IMPORT_FIELDS as readonly string[]).includes(field))
      throw invalidField('--map', `${field} is not a field; the fields are ${IMPORT_FIELDS.join(', ')}`);
    map[field as ImportField] = column;
  }
  return map;
}

/** One line read: an order, a line that holds no order (a batch line that failed), or what is wrong with it. */
export type ImportLine =
  | { line: number; order: ImportedOrder & { version?: 'v1' | 'v2' } }
  | { line: number; skipped: string }
  | { line: number; problem: string };

type Row = Map<string, string>;

/** The value of `field` in a row: the mapped column, else the first of its names the row has. */
function fieldValue(row: Row, field: ImportField, map: ColumnMap): string | undefined {
  const mapped = map[field];
  const names = mapped ? [mapped] : NAMES[field];
  for (const name of names) {
    const value = row.get(name);
    if (value !== undefined && value.trim() !== '') return value.trim();
  }
  return undefined;
}

/** A row as an order to import, or the first problem it has. */
function orderOfRow(line: number, row: Row, map: ColumnMap): ImportLine {
  const get = (field: ImportField) => fieldValue(row, field, map);
  const uuid = get('uuid');
  const id = get('id');
  if (uuid === undefined && id === undefined) {
    const outcome = row.get('outcome');
    if (outcome && outcome !== 'created' && outcome !== 'skipped' && outcome !== 'found')
      return { line, skipped: `outcome ${outcome}: no order` };
    return { line, problem: 'has no uuid and no id (--map uuid=COLUMN names the column that has it)' };
  }
  try {
    const order: ImportedOrder & { version?: 'v1' | 'v2' } = {};
    if (uuid !== undefined) {
      if (!isUuid(uuid)) throw invalidField('uuid', `"${uuid}" is not a uuid`);
      order.uuid = uuid.toLowerCase();
    }
    if (id !== undefined) {
      checkOrderId(id);
      order.orderId = id;
    }
    const reference = get('external_reference');
    if (reference !== undefined) order.externalReference = reference;
    const description = get('description');
    if (description !== undefined) order.description = description;
    const amount = get('amount');
    const cents = get('amount_cents');
    try {
      if (cents !== undefined) order.amountCents = parseCents(cents);
      else if (amount !== undefined) order.amountCents = parseAmount(amount);
    } catch (error) {
      if (error instanceof AmountError)
        throw invalidField(cents !== undefined ? 'amount_cents' : 'amount', error.rule);
      throw error;
    }
    const date = get('date');
    if (date !== undefined) order.at = parseDate('date', date).toISOString();
    const status = get('status');
    if (status !== undefined) {
      if (!/^[A-Za-z_]{1,32}$/.test(status))
        throw invalidField('status', `"${status}" is not a status such as PENDING or PAID`);
      order.status = status.toUpperCase();
    }
    const version = get('version');
    if (version !== undefined) {
      if (version !== 'v1' && version !== 'v2')
        throw invalidField('version', `must be v1 or v2, got "${version}"`);
      order.version = version;
    }
    return { line, order };
  } catch (error) {
    return { line, problem: (error as Error).message };
  }
}

/** A JSON object as a row: nested objects one level down as "key.inner". */
function jsonRow(value: Record<string, unknown>): Row {
  const row: Row = new Map();
  const put = (key: string, inner: unknown) => {
    if (inner === null || inner === undefined) return;
    if (typeof inner === 'object') return;
    row.set(key, String(inner));
  };
  for (const [key, inner] of Object.entries(value)) {
    if (typeof inner === 'object' && inner !== null && !Array.isArray(inner))
      for (const [innerKey, innerValue] of Object.entries(inner)) put(`${key}.${innerKey}`, innerValue);
    else put(key, inner);
  }
  return row;
}

const NOT_UTF8 = 'not valid UTF-8 (save the file as UTF-8)';

/** Each line of an import file, read and checked. A file whose header names no order id is refused at once. */
export async function* readImport(
  stream: Readable,
  label: string,
  map: ColumnMap,
): AsyncGenerator<ImportLine> {
  const lines = readLines(stream, label);
  let first = await lines.next();
  while (!first.done && isBlank(first.value.text)) first = await lines.next();
  if (first.done) return;
  const head = first.value;
  const rest = (async function* (): AsyncGenerator<TextLine> {
    yield head;
    yield* lines;
  })();
  if (head.text.trimStart().startsWith('{')) {
    for await (const { line, text, valid } of rest) {
      if (isBlank(text)) continue;
      if (!valid) yield { line, problem: NOT_UTF8 };
      else {
        let value: unknown;
        try {
          value = JSON.parse(text);
        } catch {
          yield { line, problem: 'not valid JSON' };
          continue;
        }
        if (typeof value !== 'object' || value === null || Array.isArray(value))
          yield { line, problem: 'must be a JSON object' };
        else yield orderOfRow(line, jsonRow(value as Record<string, unknown>), map);
      }
    }
    return;
  }
  const tsv = head.text.includes('\t');
  const records = tsv
    ? (async function* () {
        for await (const { line, text, valid } of rest)
          if (!isBlank(text))
            yield { line, values: text.split('\t'), valid, problem: undefined as string | undefined };
      })()
    : csvRecords(rest, label);
  const header = await records.next();
  if (header.done) return;
  const columns = header.value.values.map((name) => name.trim());
  const known = (field: ImportField) => {
    const mapped = map[field];
    return (mapped ? [mapped] : NAMES[field]).some((name) => columns.includes(name));
  };
  if (!known('uuid') && !known('id'))
    throw invalidField(
      label,
      `its header has no uuid or id column (columns: ${columns.join(', ')}); name it with --map uuid=COLUMN or --map id=COLUMN`,
    );
  for await (const { line, values, valid, problem } of records) {
    if (!valid) yield { line, problem: NOT_UTF8 };
    else if (problem) yield { line, problem: `not valid ${tsv ? 'TSV' : 'CSV'}: ${problem}` };
    else if (values.length !== columns.length)
      yield { line, problem: `has ${values.length} columns, the header has ${columns.length}` };
    else yield orderOfRow(line, new Map(columns.map((name, i) => [name, values[i] ?? ''])), map);
  }
}
