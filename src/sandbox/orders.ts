/**
 * The sandbox's orders: who owns each, how to find it by uuid or short id, and, with `--state`,
 * a JSON file that keeps them across restarts (written atomically; a corrupt file is reported and
 * left untouched).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { OrderDraft, StoredOrder } from '../contract/schemas.js';
import { ORDER_STATES } from '../contract/schemas.js';
import { type ApiVersion, PREFIX } from '../contract/versions.js';

/** The currency the sandbox reports on v1 orders (numeric ISO 4217 code); the spec shows none. */
export const SANDBOX_CURRENCY = '840';

export interface SandboxOrder extends StoredOrder {
  owner: string;
  shortId: string;
  description: string;
  notificationUrl?: string;
  createdAt: string;
  updatedAt: string;
}

interface StateFile {
  format: 1;
  sequence: number;
  orders: Array<Omit<SandboxOrder, 'amountCents'> & { amountCents: string }>;
}

export class StateFileError extends Error {}

export class OrderBook {
  readonly #byUuid = new Map<string, SandboxOrder>();
  readonly #byShortId = new Map<string, SandboxOrder>();
  #sequence = 100_000;
  #flushTimer: NodeJS.Timeout | undefined;

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
      for (const order of state.orders) this.#index({ ...order, amountCents: BigInt(order.amountCents) });
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
    const uuid = randomUUID();
    const shortId = randomBytes(8).toString('hex');
    const orderNumber = String(++this.#sequence);
    const order: SandboxOrder = {
      version,
      id: version === 'v1' ? `${PREFIX.v1}/order/${shortId}` : `${PREFIX.v2}/orders/${uuid}`,
      uuid,
      shortId,
      owner,
      status: ORDER_STATES.pending,
      amountCents: draft.amountCents,
      currency: SANDBOX_CURRENCY,
      orderNumber,
      refNumber: `REF${orderNumber}${randomBytes(2).toString('hex').toUpperCase()}`,
      checkoutUrl: `${baseUrl}/pay/${uuid}`,
      successUrl: draft.successUrl,
      failUrl: draft.failUrl,
      description: draft.description,
      createdAt: now.toISOString(),
      updatedAt: now.toISOString(),
    };
    if (draft.externalReference !== undefined) order.externalReference = draft.externalReference;
    if (draft.notificationUrl !== undefined) order.notificationUrl = draft.notificationUrl;
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
    order.updatedAt = now.toISOString();
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
      orders: this.list().map((order) => ({ ...order, amountCents: order.amountCents.toString() })),
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
