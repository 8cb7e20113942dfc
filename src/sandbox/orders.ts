/**
 * The sandbox's orders: who owns each, which version made it, how to find it by uuid or short id,
 * and, with `--state`, the file that keeps them (state-file.ts), written before any change is
 * acknowledged. Orders are compact: what can be derived (id, links, ref number) is not stored, so
 * 100,000 orders stay small.
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

export class SandboxOrder implements StoredOrder {
  readonly version: ApiVersion;
  readonly uuid: string;
  readonly owner: string;
  readonly sequence: number;
  readonly amountCents: bigint;
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
    this.amountCents = record.amountCents;
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

  /** The last segment of a v1 id: 16 hex digits of the uuid. */
  get shortId(): string {
    return this.uuid.slice(0, 8) + this.uuid.slice(9, 13) + this.uuid.slice(14, 18);
  }

  get id(): string {
    return this.version === 'v1' ? PATHS.lookup('v1', this.shortId) : PATHS.lookup('v2', this.uuid);
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
    return { ...this };
  }
}

export class OrderBook {
  readonly #byUuid = new Map<string, SandboxOrder>();
  readonly #byShortId = new Map<string, SandboxOrder>();
  readonly #file: StateFile | undefined;
  #sequence = 100_000;
  #baseUrl = '';

  /**
   * Loads `stateFile` if it exists, compacting it if needed; throws StateFileError when it cannot be
   * read as a state file (then it is left as it is) or cannot be written.
   */
  constructor(stateFile?: string) {
    if (!stateFile) return;
    this.#file = new StateFile(stateFile);
    const kept = this.#file.load();
    if (kept) {
      this.#sequence = kept.sequence;
      for (const record of kept.orders) this.#index(new SandboxOrder(record));
    }
    try {
      if (kept?.appendable && kept.lines === kept.orders.length) this.#file.open();
      else this.#compact();
    } catch (error) {
      throw new StateFileError(`cannot write the state file ${stateFile}: ${(error as Error).message}`);
    }
  }

  get size(): number {
    return this.#byUuid.size;
  }

  create(version: ApiVersion, owner: string, draft: OrderDraft, baseUrl: string, now: Date): SandboxOrder {
    // Every order of a run shares one copy of the base address.
    if (baseUrl !== this.#baseUrl) this.#baseUrl = baseUrl;
    const order = new SandboxOrder({
      version,
      uuid: randomUUID(),
      owner,
      sequence: ++this.#sequence,
      amountCents: draft.amountCents,
      baseUrl: this.#baseUrl,
      successUrl: draft.successUrl,
      failUrl: draft.failUrl,
      description: draft.description,
      externalReference: draft.externalReference,
      notificationUrl: draft.notificationUrl,
      status: ORDER_STATES.pending,
      createdAt: now.getTime(),
      updatedAt: now.getTime(),
    });
    this.#file?.append(order.toRecord());
    this.#index(order);
    return order;
  }

  /** Finds an order by uuid or by the last segment of its v1 id. */
  find(key: string): SandboxOrder | undefined {
    return this.#byUuid.get(key) ?? this.#byShortId.get(key);
  }

  setStatus(order: SandboxOrder, status: string, now: Date): void {
    const updatedAt = now.getTime();
    this.#file?.append({ ...order.toRecord(), status, updatedAt });
    order.status = status;
    order.updatedAt = updatedAt;
  }

  list(): SandboxOrder[] {
    return [...this.#byUuid.values()];
  }

  clear(): void {
    this.#file?.compact(this.#sequence, []);
    this.#byUuid.clear();
    this.#byShortId.clear();
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

  #index(order: SandboxOrder): void {
    this.#byUuid.set(order.uuid, order);
    this.#byShortId.set(order.shortId, order);
  }
}
