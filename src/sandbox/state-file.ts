/**
 * The `--state` file, which keeps the sandbox's orders across restarts and crashes. It is an
 * append-only NDJSON log: a header line, then one line per order each time it is created or changed.
 * Each line is handed to the OS before the sandbox answers, so an acknowledged order survives a
 * kill -9 of the sandbox (not a power cut: lines are not fsynced, which would cost milliseconds per
 * order). The log is compacted to one line per order when the sandbox is reset, and when it starts
 * or stops with lines that later ones replaced (status changes), by temp file + fsync + rename, so a
 * crash then leaves the old file or the new one whole. The temporary file has a random name and is
 * created exclusively, never through a symlink: the state file's folder may be shared, and anyone
 * who can predict the name can plant a link there to a file of the sandbox's user. A temporary file
 * that a crash left behind is removed at the next start.
 *
 * Only the last line can be cut short by a crash. Such a line was never acknowledged, so it is
 * dropped. Any other problem means the file is not one the sandbox wrote. It is then reported
 * (StateFileError) and left untouched. The first format, one JSON document written as a whole, is
 * still read, and the first compaction converts it.
 */
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  constants,
  fsyncSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { API_VERSIONS, type ApiVersion } from '../contract/versions.js';

/** An order as the sandbox keeps it: what cannot be derived from anything else. */
export interface OrderRecord {
  version: ApiVersion;
  uuid: string;
  owner: string;
  sequence: number;
  amountCents: bigint;
  baseUrl: string;
  successUrl: string;
  failUrl: string;
  description: string;
  externalReference?: string;
  notificationUrl?: string;
  status: string;
  createdAt: number;
  updatedAt: number;
}

/** What a state file holds: the last order number given, and the orders (last line wins per uuid). */
export interface KeptState {
  sequence: number;
  orders: OrderRecord[];
  /** How many order lines the file has: more than orders when later lines replaced earlier ones. */
  lines: number;
  /** Whether appends can follow as the file is: of this format, and its last line whole. */
  appendable: boolean;
}

export class StateFileError extends Error {}

/** Exclusive creation, never through a symlink (Windows has no O_NOFOLLOW; O_EXCL suffices there). */
const CREATE_NEW = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);

/** The middle of a temporary file's name: random hex now, a process id before. */
const TEMPORARY_MARK = /^[0-9a-f]+$/;

const FORMAT = 2;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** ±100 million days from 1970: the range of a JavaScript Date. */
const MAX_DATE_MS = 8.64e15;

const isText = (v: unknown) => typeof v === 'string';
const isFilled = (v: unknown) => typeof v === 'string' && v !== '';
const isCount = (v: unknown) => Number.isSafeInteger(v) && (v as number) >= 0;
const isTime = (v: unknown) => Number.isSafeInteger(v) && Math.abs(v as number) <= MAX_DATE_MS;

/** Each field of an order line and what it must be; optional fields may be absent. */
const ORDER_FIELDS = new Map<string, { valid: (v: unknown) => boolean; what: string; optional?: true }>([
  ['version', { valid: (v) => API_VERSIONS.includes(v as ApiVersion), what: API_VERSIONS.join(' or ') }],
  ['uuid', { valid: (v) => typeof v === 'string' && UUID.test(v), what: 'a lower-case uuid' }],
  ['owner', { valid: isFilled, what: 'a user name' }],
  ['sequence', { valid: isCount, what: 'a whole number' }],
  [
    'amountCents',
    { valid: (v) => typeof v === 'string' && /^\d+$/.test(v), what: 'whole cents as a string' },
  ],
  ['baseUrl', { valid: isText, what: 'a string' }],
  ['successUrl', { valid: isText, what: 'a string' }],
  ['failUrl', { valid: isText, what: 'a string' }],
  ['description', { valid: isText, what: 'a string' }],
  ['externalReference', { valid: isText, what: 'a string', optional: true }],
  ['notificationUrl', { valid: isText, what: 'a string', optional: true }],
  ['status', { valid: isFilled, what: 'a state name' }],
  ['createdAt', { valid: isTime, what: 'a time in milliseconds' }],
  ['updatedAt', { valid: isTime, what: 'a time in milliseconds' }],
]);

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Checks one order as read from the file, field by field; throws with what is wrong. */
function readOrder(value: unknown): OrderRecord {
  if (!isObject(value)) throw new Error('an order is not an object');
  for (const key of Object.keys(value))
    if (!ORDER_FIELDS.has(key)) throw new Error(`an order has an unknown field ${JSON.stringify(key)}`);
  for (const [key, rule] of ORDER_FIELDS) {
    if (!Object.hasOwn(value, key)) {
      if (rule.optional) continue;
      throw new Error(`an order has no ${key}`);
    }
    if (!rule.valid(value[key])) throw new Error(`an order's ${key} is not ${rule.what}`);
  }
  return { ...(value as unknown as OrderRecord), amountCents: BigInt(value.amountCents as string) };
}

function readHeader(value: unknown, keys: string[]): Record<string, unknown> {
  if (!isObject(value)) throw new Error('not a payorder sandbox state file');
  const extra = Object.keys(value).find((key) => !keys.includes(key));
  if (extra !== undefined) throw new Error(`unknown field ${JSON.stringify(extra)}`);
  if (!isCount(value.sequence)) throw new Error('sequence is not a whole number');
  return value;
}

function collect(sequence: number, orders: OrderRecord[], appendable: boolean): KeptState {
  const byUuid = new Map<string, OrderRecord>();
  for (const order of orders) {
    byUuid.set(order.uuid, order);
    sequence = Math.max(sequence, order.sequence);
  }
  return { sequence, orders: [...byUuid.values()], lines: orders.length, appendable };
}

/** The first format: `{"format":1,"sequence":N,"orders":[…]}`. */
function readSnapshot(value: unknown): KeptState {
  const state = readHeader(value, ['format', 'sequence', 'orders']);
  if (!Array.isArray(state.orders)) throw new Error('orders is not a list');
  return collect(state.sequence as number, state.orders.map(readOrder), false);
}

/** The log: a header line `{"format":2,"sequence":N}`, then one order per line. */
function readLog(lines: string[], whole: boolean): KeptState {
  const [first = ''] = lines;
  const header = readHeader(JSON.parse(first), ['format', 'sequence']);
  const orders: OrderRecord[] = [];
  lines.slice(1).forEach((line, index) => {
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      // Only the last line, the one without a newline, can be an append that a crash cut short.
      if (index === lines.length - 2) return;
      throw new Error(`line ${index + 2} is not JSON`);
    }
    try {
      orders.push(readOrder(value));
    } catch (error) {
      throw new Error(`line ${index + 2}: ${(error as Error).message}`);
    }
  });
  return collect(header.sequence as number, orders, whole);
}

function readState(text: string): KeptState {
  const lines = text.split('\n');
  let first: unknown;
  try {
    first = JSON.parse(lines[0] ?? '');
  } catch {
    first = undefined;
  }
  if (isObject(first) && first.format === FORMAT) return readLog(lines, text.endsWith('\n'));
  const whole: unknown = JSON.parse(text);
  if (!isObject(whole) || whole.format !== 1) throw new Error('not a payorder sandbox state file');
  return readSnapshot(whole);
}

const orderLine = ({ amountCents, ...rest }: OrderRecord) =>
  `${JSON.stringify({ ...rest, amountCents: amountCents.toString() })}\n`;

/** Writes all of `text`: one write may take only part of it. */
function writeAll(fd: number, text: string): void {
  const bytes = Buffer.from(text);
  for (let done = 0; done < bytes.length; ) done += writeSync(fd, bytes, done);
}

export class StateFile {
  #fd: number | undefined;
  #lines = 0;

  constructor(readonly path: string) {}

  /** How many order lines the file has, replaced ones included. */
  get lines(): number {
    return this.#lines;
  }

  /** The state the file keeps; undefined when there is no file yet. */
  load(): KeptState | undefined {
    this.#removeLeftovers();
    let text: string;
    try {
      text = readFileSync(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw new StateFileError(`cannot read the state file ${this.path}: ${(error as Error).message}`);
    }
    try {
      const kept = readState(text);
      this.#lines = kept.lines;
      return kept;
    } catch (error) {
      throw new StateFileError(
        `the state file ${this.path} is corrupt (${(error as Error).message}); it was left as it is: move it away or fix it`,
      );
    }
  }

  /**
   * Rewrites the file with exactly these orders, then keeps it open for appends. On failure the old
   * file is still in place and still open for appends.
   */
  compact(sequence: number, orders: Iterable<OrderRecord>): void {
    const temporary = `${this.path}.${randomBytes(8).toString('hex')}.tmp`;
    const fd = openSync(temporary, CREATE_NEW, 0o600);
    let lines = 0;
    try {
      try {
        let batch = `${JSON.stringify({ format: FORMAT, sequence })}\n`;
        for (const order of orders) {
          batch += orderLine(order);
          lines++;
          if (batch.length > 1_000_000) {
            writeAll(fd, batch);
            batch = '';
          }
        }
        writeAll(fd, batch);
        // Without it, a power cut soon after the rename can leave an empty file in place of both.
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      renameSync(temporary, this.path);
    } catch (error) {
      rmSync(temporary, { force: true });
      throw error;
    }
    this.open();
    this.#lines = lines;
  }

  /** Opens the file as it is for appends (when load found it appendable). */
  open(): void {
    this.close();
    this.#fd = openSync(this.path, 'a');
  }

  /** Appends an order as it now is; once this returns, a kill -9 of the sandbox cannot lose it. */
  append(order: OrderRecord): void {
    if (this.#fd === undefined) throw new Error('the state file is not open');
    writeAll(this.#fd, orderLine(order));
    this.#lines++;
  }

  close(): void {
    if (this.#fd !== undefined) closeSync(this.#fd);
    this.#fd = undefined;
  }

  /** Removes the temporary files of compactions a crash cut short (a link is removed, not followed). */
  #removeLeftovers(): void {
    const folder = dirname(this.path);
    const prefix = `${basename(this.path)}.`;
    let names: string[];
    try {
      names = readdirSync(folder);
    } catch {
      return;
    }
    for (const name of names) {
      if (!name.startsWith(prefix) || !name.endsWith('.tmp')) continue;
      if (!TEMPORARY_MARK.test(name.slice(prefix.length, -'.tmp'.length))) continue;
      try {
        rmSync(join(folder, name), { force: true });
      } catch {
        // Another user's file in a shared folder: not the sandbox's to remove, and never used.
      }
    }
  }
}
