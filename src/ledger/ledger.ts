/**
 * The order ledger: every order payorder created (one by one or in a batch) or was told of (`ledger
 * import`), per profile, environment and API version, with what was sent, when, what came of it
 * (created, failed with its error, or unknown) and the last status payorder saw. The service looks
 * orders up by id only; the ledger is how an order is found by its reference, description, amount
 * or day. It keeps no secret: no token, no credential, no user name.
 */
import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';
import type { Target } from '../api/service.js';
import type { Context } from '../context.js';
import { formatAmount } from '../contract/money.js';
import type { Order, OrderDraft } from '../contract/schemas.js';
import type { ApiVersion } from '../contract/versions.js';
import { ledgerError, ledgerPath, openLedgerFile } from './ledger-file.js';

/** Where an order lives: the profile whose login made it, the environment and the API version. */
export type LedgerTarget = Pick<Target, 'profile' | 'env' | 'version'>;

/** How an order came into the ledger. */
export type LedgerSource = 'create' | 'batch' | 'import';

/** What came of sending it: created, refused by the service (failed), or no answer (unknown). */
export type LedgerOutcome = 'created' | 'failed' | 'unknown';

/** The statuses after which an order's external reference is still its own. */
export const REFERENCE_HELD = ['PENDING', 'PAID'] as const;

/** One order as the ledger holds it. */
export interface LedgerEntry {
  entry: number;
  profile: string;
  env: string;
  api: ApiVersion;
  source: LedgerSource;
  /** When it was sent (or, imported, the date the file gave, else when it was imported). */
  at: string;
  amount_cents: string | null;
  description: string | null;
  external_reference: string | null;
  success_url: string | null;
  fail_url: string | null;
  notification_url: string | null;
  outcome: LedgerOutcome;
  error: string | null;
  uuid: string | null;
  order_id: string | null;
  order_number: string | null;
  ref_number: string | null;
  currency: string | null;
  checkout_url: string | null;
  status: string | null;
  status_at: string | null;
}

/** What `order find` asks for; every given criterion must hold. */
export interface LedgerQuery {
  profile: string;
  env: string;
  api?: ApiVersion;
  reference?: string;
  /** Description contains (case-insensitive). */
  text?: string;
  amountCents?: bigint;
  since?: Date;
  until?: Date;
  status?: string;
  outcome?: LedgerOutcome;
  limit: number;
}

/** A row to import: an order known by its uuid or v1 id, with what the file said of it. */
export interface ImportedOrder {
  uuid?: string;
  orderId?: string;
  externalReference?: string;
  description?: string;
  amountCents?: bigint;
  at?: string;
  status?: string;
}

/** How an order about to be sent is recorded: where from, when, and whether its reference is checked. */
interface SendingOptions {
  source: LedgerSource;
  at: Date;
  checkReference: boolean;
}

/** The entry recorded for an order about to be sent, or the order that holds its reference. */
type Sending = { entry: number } | { holder: LedgerEntry };

const targetArgs = (target: LedgerTarget) => [target.profile, target.env, target.version];

export class Ledger {
  readonly #statements = new Map<string, StatementSync>();
  /** The answers `later` keeps for the next write transaction, or for close(). */
  readonly #answers: Array<() => void> = [];

  constructor(
    private readonly db: DatabaseSync,
    readonly path: string,
  ) {}

  /**
   * Writes the answers kept by `later`, in one transaction, then closes the ledger; the ledger
   * closes even when they cannot be written (the error is thrown after).
   */
  close(): void {
    try {
      if (this.#answers.length > 0) this.#write(() => {});
    } finally {
      this.db.close();
    }
  }

  /**
   * Keeps `write` (an answer: created, failed) for the next write transaction, which writes it before
   * its own work, or for close(): a batch line's answer and the next line's record share one commit.
   * Until then the entry reads as sent with no answer recorded, as it would if the process ended
   * before the answer came.
   */
  later(write: () => void): void {
    this.#answers.push(write);
  }

  /** Writes `write` (an answer) at once, in one transaction with the answers kept by `later`. */
  now(write: () => void): void {
    this.#write(write);
  }

  /** Runs `work` in one write transaction: what it reads is not changed by another process before it writes. */
  #write<T>(work: () => T): T {
    try {
      this.#statement('BEGIN IMMEDIATE').run();
    } catch (error) {
      throw ledgerError(error, this.path);
    }
    try {
      for (const answer of this.#answers.splice(0)) answer();
      const result = work();
      this.#statement('COMMIT').run();
      return result;
    } catch (error) {
      this.db.exec('ROLLBACK');
      throw ledgerError(error, this.path);
    }
  }

  /** The statement of `sql`, prepared once: a batch writes the same few statements for every line. */
  #statement(sql: string): StatementSync {
    let statement = this.#statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.#statements.set(sql, statement);
    }
    return statement;
  }

  #run(sql: string, ...args: SQLInputValue[]) {
    try {
      return this.#statement(sql).run(...args);
    } catch (error) {
      throw ledgerError(error, this.path);
    }
  }

  /**
   * The latest order on `target` with `reference` that holds it: PENDING or PAID as last seen, or
   * sent with no answer recorded yet (in flight in another process, or one that ended before the
   * answer came), which may be either.
   */
  holderOf(target: LedgerTarget, reference: string): LedgerEntry | undefined {
    return this.#statement(
      `SELECT * FROM orders WHERE profile = ? AND env = ? AND api = ? AND external_reference = ?
         AND (status IN (${REFERENCE_HELD.map(() => '?').join(', ')}) OR (outcome = 'unknown' AND error IS NULL))
         ORDER BY at DESC, entry DESC LIMIT 1`,
    ).get(...targetArgs(target), reference, ...REFERENCE_HELD) as LedgerEntry | undefined;
  }

  /**
   * Records an order about to be sent, its outcome unknown until `created` or `failed` says
   * otherwise; or, when `checkReference` and an order on the target holds its external reference,
   * records nothing and returns that order. The check and the record are one transaction, so two
   * processes cannot both take a reference.
   */
  sending(target: LedgerTarget, draft: OrderDraft, options: SendingOptions): Sending {
    return this.#write(() => this.#sending(target, draft, options));
  }

  /**
   * `sending` for a batch's lines recorded together, in one transaction (so one commit): each
   * reference is checked against the orders recorded before it, this call's included.
   */
  sendingAll(target: LedgerTarget, drafts: OrderDraft[], options: SendingOptions): Sending[] {
    return this.#write(() => drafts.map((draft) => this.#sending(target, draft, options)));
  }

  /** The record of an order about to be sent, or the order that holds its reference (in a transaction). */
  #sending(target: LedgerTarget, draft: OrderDraft, { source, at, checkReference }: SendingOptions): Sending {
    const reference = draft.externalReference;
    const holder = checkReference && reference ? this.holderOf(target, reference) : undefined;
    if (holder) return { holder };
    const { lastInsertRowid } = this.#statement(
      `INSERT INTO orders (profile, env, api, source, at, amount_cents, description, external_reference,
         success_url, fail_url, notification_url, outcome) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'unknown')`,
    ).run(
      ...targetArgs(target),
      source,
      at.toISOString(),
      draft.amountCents.toString(),
      draft.description,
      reference ?? null,
      draft.successUrl,
      draft.failUrl,
      draft.notificationUrl ?? null,
    );
    return { entry: Number(lastInsertRowid) };
  }

  /** The service's answer to entry `entry`: the order it created. */
  created(entry: number, order: Order, at: Date): void {
    this.#run(
      `UPDATE orders SET outcome = 'created', error = NULL, uuid = ?, order_id = ?, order_number = ?, ref_number = ?,
       currency = ?, checkout_url = ?, status = ?, status_at = ? WHERE entry = ?`,
      order.uuid,
      order.id,
      order.order_number,
      order.ref_number,
      order.currency,
      order.links.checkout,
      order.status,
      at.toISOString(),
      entry,
    );
  }

  /** What came of entry `entry` when no order came back: failed (the service refused it) or unknown. */
  failed(entry: number, outcome: 'failed' | 'unknown', error: string): void {
    this.#run('UPDATE orders SET outcome = ?, error = ? WHERE entry = ?', outcome, error, entry);
  }

  /**
   * The status `order get` (or --wait, or --refresh) saw, for an order the ledger holds; `status_at`
   * is when it was first seen. Nothing is written when nothing changed: a lookup that writes pays
   * for SQLite's checkpoint (a sync of the file) as it closes the ledger.
   */
  seen(target: LedgerTarget, order: Order, at: Date): void {
    this.#run(
      `UPDATE orders SET status = ?, status_at = CASE WHEN status IS ? THEN status_at ELSE ? END,
       order_id = coalesce(order_id, ?), checkout_url = coalesce(checkout_url, ?)
       WHERE profile = ? AND env = ? AND api = ? AND uuid = ?
       AND (status IS NOT ? OR order_id IS NULL OR (checkout_url IS NULL AND ? IS NOT NULL))`,
      order.status,
      order.status,
      at.toISOString(),
      order.id,
      order.links.checkout,
      ...targetArgs(target),
      order.uuid,
      order.status,
      order.links.checkout,
    );
  }

  /** Whether an order of the profile and environment has `reference` as its external reference. */
  hasReference(target: Omit<LedgerTarget, 'version'>, reference: string): boolean {
    return (
      this.db
        .prepare('SELECT 1 FROM orders WHERE profile = ? AND env = ? AND external_reference = ? LIMIT 1')
        .get(target.profile, target.env, reference) !== undefined
    );
  }

  /** The orders that match `query`, newest first. */
  find(query: LedgerQuery): LedgerEntry[] {
    const where = ['profile = ?', 'env = ?'];
    const args: SQLInputValue[] = [query.profile, query.env];
    const add = (clause: string, ...values: SQLInputValue[]) => {
      where.push(clause);
      args.push(...values);
    };
    if (query.api) add('api = ?', query.api);
    if (query.reference !== undefined) add('external_reference = ?', query.reference);
    if (query.text !== undefined) add('instr(lower(description), lower(?)) > 0', query.text);
    if (query.amountCents !== undefined) add('amount_cents = ?', query.amountCents.toString());
    if (query.since) add('at >= ?', query.since.toISOString());
    if (query.until) add('at < ?', query.until.toISOString());
    if (query.status !== undefined) add('status = ?', query.status);
    if (query.outcome !== undefined) add('outcome = ?', query.outcome);
    return this.db
      .prepare(`SELECT * FROM orders WHERE ${where.join(' AND ')} ORDER BY at DESC, entry DESC LIMIT ?`)
      .all(...args, query.limit) as unknown as LedgerEntry[];
  }

  /** Removes the orders sent (or imported with a date) before `before`; how many. */
  prune(before: Date): number {
    return Number(this.#run('DELETE FROM orders WHERE at < ?', before.toISOString()).changes);
  }

  /**
   * Adds the orders of an import to `target`, in one transaction: an order the ledger holds (by uuid,
   * else by v1 id) takes what the file says of it; another is added as created. Returns the counts.
   */
  import(target: LedgerTarget, orders: ImportedOrder[], now: Date): { added: number; updated: number } {
    return this.#write(() => {
      let added = 0;
      let updated = 0;
      const find = this.db.prepare(
        'SELECT entry FROM orders WHERE profile = ? AND env = ? AND api = ? AND (uuid = ? OR order_id = ?) LIMIT 1',
      );
      const update = this.db.prepare(
        `UPDATE orders SET uuid = coalesce(?, uuid), order_id = coalesce(?, order_id),
         external_reference = coalesce(?, external_reference), description = coalesce(?, description),
         amount_cents = coalesce(?, amount_cents), status = coalesce(?, status),
         status_at = CASE WHEN ? IS NULL THEN status_at ELSE ? END WHERE entry = ?`,
      );
      const insert = this.db.prepare(
        `INSERT INTO orders (profile, env, api, source, at, uuid, order_id, external_reference, description,
         amount_cents, outcome, status, status_at) VALUES (?, ?, ?, 'import', ?, ?, ?, ?, ?, ?, 'created', ?, ?)`,
      );
      for (const order of orders) {
        const values = [
          order.uuid ?? null,
          order.orderId ?? null,
          order.externalReference ?? null,
          order.description ?? null,
          order.amountCents?.toString() ?? null,
        ];
        const status = order.status ?? null;
        const statusAt = status === null ? null : (order.at ?? now.toISOString());
        const held = find.get(...targetArgs(target), order.uuid ?? '', order.orderId ?? '') as
          | { entry: number }
          | undefined;
        if (held) {
          update.run(...values, status, status, statusAt, held.entry);
          updated++;
        } else {
          insert.run(...targetArgs(target), order.at ?? now.toISOString(), ...values, status, statusAt);
          added++;
        }
      }
      return { added, updated };
    });
  }
}

/**
 * The ledger, open; undefined when `create` is false and there is none yet. The caller closes it.
 */
export async function openLedger(ctx: Context, options: { create: true }): Promise<Ledger>;
export async function openLedger(ctx: Context, options: { create: boolean }): Promise<Ledger | undefined>;
export async function openLedger(ctx: Context, { create }: { create: boolean }): Promise<Ledger | undefined> {
  const db = await openLedgerFile(ctx, create);
  return db && new Ledger(db, ledgerPath(ctx));
}

/** An entry as payorder's order shape (order get's output), or undefined when no order came of it. */
export function orderOf(entry: LedgerEntry): Order | undefined {
  if (entry.uuid === null) return undefined;
  const cents = entry.amount_cents === null ? undefined : BigInt(entry.amount_cents);
  return {
    version: entry.api,
    id: entry.order_id ?? entry.uuid,
    uuid: entry.uuid,
    type: 'Order',
    status: entry.status ?? '',
    amount: cents === undefined ? '' : formatAmount(cents),
    amount_cents: cents === undefined ? '' : cents.toString(),
    currency: entry.currency,
    order_number: entry.order_number,
    ref_number: entry.ref_number,
    external_reference: entry.external_reference,
    links: { checkout: entry.checkout_url, success: entry.success_url, failed: entry.fail_url },
  };
}
