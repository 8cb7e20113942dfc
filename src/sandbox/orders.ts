/**
 * The sandbox's orders: who owns each, which version made it, how to find it by uuid or short id,
 * and, with `--state`, the file that keeps them (state-file.ts), written before any change is
 * acknowledged. Orders are compact, so 100,000 orders stay small: what can be derived (id, links,
 * ref number) is not stored, an amount is kept as a plain number while one is exact, orders share one
 * copy of the callback addresses they have in common, and one index by the v1 id's last segment
 * finds them by uuid too.
 */
import { randomUUID } from 'node:crypto';
import { ORDER_STATES } from '../contract/fields.js';
import type { OrderDraft, StoredOrder } from '../contract/schemas.js';
import { type ApiVersion, PATHS } from '../contract/versions.js';
import { type OrderRecord, StateFile, StateFileError } from './state-file.js';

export { StateFileError };

/** The currency the sandbox reports on v1 orders (numeric ISO 4217 code); the spec shows none. */
export const SANDBOX_CURRENCY = '840';

/** The sandbox's answer for an unknown or foreign order; the spec shows none (documented in the README). */
export const ORDER_NOT_FOUND = { status: 404, body: { message: 'Order not found' } } as const;

/** The sandbox's answer to an order beyond what it may hold (documented in the README). */
export const ORDERS_FULL = {
  status: 507,
  body: {
    message:
      'The sandbox holds as many orders as it may (their text is limited); POST /_sandbox/reset to start again',
  },
} as const;

/** Each version's lookup path without its key; the keys (hex digits and dashes) need no escaping. */
const LOOKUP_BASE = { v1: PATHS.lookup('v1', ''), v2: PATHS.lookup('v2', '') };

const EXACT_AS_NUMBER = BigInt(Number.MAX_SAFE_INTEGER);

/** How many bytes of order text the sandbox holds by default (about 300,000 orders of a shop). */
export const ORDER_TEXT_LIMIT = 64 * 1_048_576;

/** What an order costs besides its texts: its fields, numbers and index entry. */
const ORDER_OVERHEAD = 200;

/** The bytes an order holds: its texts (a limit on them bounds the sandbox's memory) and the rest. */
function costOf(
  order: Pick<
    OrderRecord,
    'description' | 'successUrl' | 'failUrl' | 'notificationUrl' | 'externalReference'
  >,
): number {
  let bytes = ORDER_OVERHEAD;
  for (const text of [
    order.description,
    order.successUrl,
    order.failUrl,
    order.notificationUrl,
    order.externalReference,
  ])
    if (text !== undefined) bytes += Buffer.byteLength(text);
  return bytes;
}

/** The last segment of a v1 id: the first 16 hex digits of the uuid. */
const shortIdOf = (uuid: string) => uuid.slice(0, 8) + uuid.slice(9, 13) + uuid.slice(14, 18);

export class SandboxOrder implements StoredOrder {
  readonly version: ApiVersion;
  readonly uuid: string;
  readonly owner: string;
  readonly sequence: number;
  /** The amount in cents: a number (no allocation of its own) while that is exact, else a bigint. */
  readonly #cents: number | bigint;
  readonly baseUrl: string;
  readonly successUrl: string;
  readonly failUrl: string;
  readonly description: string;
  readonly externalReference: string | undefined;
  readonly notificationUrl: string | undefined;
  status: string;
  readonly createdAt: number;
  updatedAt: number;

  constructor(record: OrderRecord) {
    this.version = record.version;
    this.uuid = record.uuid;
    this.owner = record.owner;
    this.sequence = record.sequence;
    this.#cents = record.amountCents <= EXACT_AS_NUMBER ? Number(record.amountCents) : record.amountCents;
    this.baseUrl = record.baseUrl;
    this.successUrl = record.successUrl;
    this.failUrl = record.failUrl;
    this.description = record.description;
    this.externalReference = record.externalReference;
    this.notificationUrl = record.notificationUrl;
    this.status = record.status;
    this.createdAt = record.createdAt;
    this.updatedAt = record.updatedAt;
  }

  get amountCents(): bigint {
    return BigInt(this.#cents);
  }

  /** The last segment of a v1 id: 16 hex digits of the uuid. */
  get shortId(): string {
    return shortIdOf(this.uuid);
  }

  get id(): string {
    return LOOKUP_BASE[this.version] + (this.version === 'v1' ? this.shortId : this.uuid);
  }

  // orderNumber, refNumber and currency exist on v1 orders only (spec §2.4: removed in v2).
  get orderNumber(): string | undefined {
    return this.version === 'v1' ? String(this.sequence) : undefined;
  }

  get refNumber(): string | undefined {
    return this.version === 'v1' ? `REF${this.sequence}${this.uuid.slice(24, 28).toUpperCase()}` : undefined;
  }

  get currency(): string | undefined {
    return this.version === 'v1' ? SANDBOX_CURRENCY : undefined;
  }

  get checkoutUrl(): string {
    return `${this.baseUrl}/pay/${this.uuid}`;
  }

  toRecord(): OrderRecord {
    const record: OrderRecord = {
      version: this.version,
      uuid: this.uuid,
      owner: this.owner,
      sequence: this.sequence,
      amountCents: this.amountCents,
      baseUrl: this.baseUrl,
      successUrl: this.successUrl,
      failUrl: this.failUrl,
      description: this.description,
      status: this.status,
      createdAt: this.createdAt,
      updatedAt: this.updatedAt,
    };
    if (this.externalReference !== undefined) record.externalReference = this.externalReference;
    if (this.notificationUrl !== undefined) record.notificationUrl = this.notificationUrl;
    return record;
  }
}

/**
 * One copy of each text that many orders share (callback addresses are usually the shop's few
 * pages), bounded so that addresses unique to each order cannot make it grow without end.
 */
class SharedTexts {
  #texts = new Map<string, string>();

  constructor(private readonly limit: number) {}

  share(text: string): string;
  share(text: string | undefined): string | undefined;
  share(text: string | undefined): string | undefined {
    if (text === undefined) return undefined;
    const known = this.#texts.get(text);
    if (known !== undefined) return known;
    if (this.#texts.size >= this.limit) this.#texts = new Map();
    this.#texts.set(text, text);
    return text;
  }
}

export class OrderBook {
  /** Every order by the last segment of its v1 id, which a uuid gives too: one index for both. */
  readonly #byShortId = new Map<string, SandboxOrder>();
  readonly #file: StateFile | undefined;
  readonly #shared = new SharedTexts(1_000);
  #sequence = 100_000;
  /** The bytes the orders hold (costOf), against `textLimit`. */
  #bytes = 0;

  /**
   * Loads `stateFile` if it exists, compacting it if needed; throws StateFileError when it cannot be
   * read as a state file (then it is left as it is) or cannot be written. Orders loaded count
   * against `textLimit` but are kept whatever their size.
   */
  constructor(
    stateFile?: string,
    private readonly textLimit = ORDER_TEXT_LIMIT,
  ) {
    if (!stateFile) return;
    this.#file = new StateFile(stateFile);
    const kept = this.#file.load();
    if (kept) {
      this.#sequence = kept.sequence;
      for (const record of kept.orders) this.#index(new SandboxOrder(this.#share(record)));
    }
    try {
      if (kept?.appendable && kept.lines === kept.orders.length) this.#file.open();
      else this.#compact();
    } catch (error) {
      throw new StateFileError(`cannot write the state file ${stateFile}: ${(error as Error).message}`);
    }
  }

  get size(): number {
    return this.#byShortId.size;
  }

  /** Whether an order made of `draft` fits within the limit of what the orders hold. */
  roomFor(draft: OrderDraft): boolean {
    return this.#bytes + costOf(draft) <= this.textLimit;
  }

  create(version: ApiVersion, owner: string, draft: OrderDraft, baseUrl: string, now: Date): SandboxOrder {
    let uuid = randomUUID();
    // A second order with the same v1 id would hide the first; 60 random bits make it rare, not impossible.
    while (this.#byShortId.has(shortIdOf(uuid))) uuid = randomUUID();
    const order = new SandboxOrder(
      this.#share({
        version,
        uuid,
        owner,
        sequence: ++this.#sequence,
        amountCents: draft.amountCents,
        baseUrl,
        successUrl: draft.successUrl,
        failUrl: draft.failUrl,
        description: draft.description,
        externalReference: draft.externalReference,
        notificationUrl: draft.notificationUrl,
        status: ORDER_STATES.pending,
        createdAt: now.getTime(),
        updatedAt: now.getTime(),
      }),
    );
    this.#file?.append(order.toRecord());
    this.#index(order);
    return order;
  }

  /** Finds an order by uuid or by the last segment of its v1 id. */
  find(key: string): SandboxOrder | undefined {
    if (key.length !== 36) return this.#byShortId.get(key);
    const order = this.#byShortId.get(shortIdOf(key));
    return order?.uuid === key ? order : undefined;
  }

  setStatus(order: SandboxOrder, status: string, now: Date): void {
    const updatedAt = now.getTime();
    this.#file?.append({ ...order.toRecord(), status, updatedAt });
    order.status = status;
    order.updatedAt = updatedAt;
  }

  list(): SandboxOrder[] {
    return [...this.#byShortId.values()];
  }

  clear(): void {
    this.#file?.compact(this.#sequence, []);
    this.#byShortId.clear();
    this.#bytes = 0;
  }

  /** Compacts the state file if status changes left replaced lines, and closes it. */
  close(): void {
    if (this.#file && this.#file.lines !== this.size) this.#compact();
    this.#file?.close();
  }

  #compact(): void {
    this.#file?.compact(
      this.#sequence,
      this.list().map((order) => order.toRecord()),
    );
  }

  /** The record with the texts that orders have in common as one shared copy each. */
  #share(record: OrderRecord): OrderRecord {
    const shared = this.#shared;
    record.owner = shared.share(record.owner);
    record.baseUrl = shared.share(record.baseUrl);
    record.successUrl = shared.share(record.successUrl);
    record.failUrl = shared.share(record.failUrl);
    record.notificationUrl = shared.share(record.notificationUrl);
    return record;
  }

  #index(order: SandboxOrder): void {
    const replaced = this.#byShortId.get(order.shortId);
    if (replaced) this.#bytes -= costOf(replaced);
    this.#byShortId.set(order.shortId, order);
    this.#bytes += costOf(order);
  }
}
