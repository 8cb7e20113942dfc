/**
 * The sandbox's orders: who owns each, how to find it by uuid or short id, and, with `--state`,
 * a JSON file that keeps them across restarts (written atomically; a corrupt file is reported and
 * left untouched). Orders are compact: what can be derived (id, links, ref number) is not stored,
 * so 100,000 orders stay small.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { OrderDraft, StoredOrder } from '../contract/schemas.js';
import { ORDER_STATES } from '../contract/schemas.js';
import { type ApiVersion, PATHS } from '../contract/versions.js';

/** The currency the sandbox reports on v1 orders (numeric ISO 4217 code); the spec shows none. */
export const SANDBOX_CURRENCY = '840';

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

  get orderNumber(): string {
    return String(this.sequence);
  }

  get refNumber(): string {
    return `REF${this.sequence}${this.uuid.slice(24, 28).toUpperCase()}`;
  }

  get currency(): string {
    return SANDBOX_CURRENCY;
  }

  get checkoutUrl(): string {
    return `${this.baseUrl}/pay/${this.uuid}`;
  }

  toRecord(): Omit<OrderRecord, 'amountCents'> & { amountCents: string } {
    const { amountCents, ...rest } = { ...this } as OrderRecord;
    return { ...rest, amountCents: amountCents.toString() };
  }
}

interface StateFile {
  format: 1;
  sequence: number;
  orders: ReturnType<SandboxOrder['toRecord']>[];
}

export class StateFileError extends Error {}

export class OrderBook {
  readonly #byUuid = new Map<string, SandboxOrder>();
  readonly #byShortId = new Map<string, SandboxOrder>();
  #sequence = 100_000;
  #flushTimer: NodeJS.Timeout | undefined;
  #baseUrl = '';

  /** Loads `stateFile` if it exists; throws StateFileError when it cannot be read as a state file. */
  constructor(private readonly stateFile?: string) {
    if (!stateFile) return;
    let text: string;
    try {
      text = readFileSync(stateFile, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw new StateFileError(`cannot read the state file ${stateFile}: ${(error as Error).message}`);
    }
    try {
      const state = JSON.parse(text) as StateFile;
      if (state.format !== 1 || !Array.isArray(state.orders))
        throw new Error('not a payorder sandbox state file');
      this.#sequence = state.sequence;
      for (const order of state.orders)
        this.#index(new SandboxOrder({ ...order, amountCents: BigInt(order.amountCents) }));
    } catch (error) {
      throw new StateFileError(
        `the state file ${stateFile} is corrupt (${(error as Error).message}); it was left as it is: move it away or fix it`,
      );
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
    this.#index(order);
    this.#scheduleFlush();
    return order;
  }

  /** Finds an order by uuid or by the last segment of its v1 id. */
  find(key: string): SandboxOrder | undefined {
    return this.#byUuid.get(key) ?? this.#byShortId.get(key);
  }

  setStatus(order: SandboxOrder, status: string, now: Date): void {
    order.status = status;
    order.updatedAt = now.getTime();
    this.#scheduleFlush();
  }

  list(): SandboxOrder[] {
    return [...this.#byUuid.values()];
  }

  clear(): void {
    this.#byUuid.clear();
    this.#byShortId.clear();
    this.#scheduleFlush();
  }

  /** Writes the state file now (temp file + rename, so a crash leaves the old or the new file whole). */
  flush(): void {
    if (this.#flushTimer) clearTimeout(this.#flushTimer);
    this.#flushTimer = undefined;
    if (!this.stateFile) return;
    const state: StateFile = {
      format: 1,
      sequence: this.#sequence,
      orders: this.list().map((order) => order.toRecord()),
    };
    const temporary = `${this.stateFile}.${process.pid}.tmp`;
    writeFileSync(temporary, JSON.stringify(state), { mode: 0o600 });
    renameSync(temporary, this.stateFile);
  }

  #index(order: SandboxOrder): void {
    this.#byUuid.set(order.uuid, order);
    this.#byShortId.set(order.shortId, order);
  }

  #scheduleFlush(): void {
    if (!this.stateFile || this.#flushTimer) return;
    this.#flushTimer = setTimeout(() => this.flush(), 50);
    this.#flushTimer.unref();
  }
}
