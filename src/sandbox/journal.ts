/**
 * The request journal: what reached the sandbox, newest last, bounded so a long load test does not
 * grow it forever. Entries are kept as they came and masked when read, so recording stays cheap on
 * the hot path while nothing secret (client_secret_id, tokens) ever leaves through the control API.
 */
import { maskAuthorization, maskBody } from '../contract/masking.js';

export interface JournalEntry {
  seq: number;
  time: string;
  method: string;
  path: string;
  /** The service route ("token", "checkout", "lookup"). */
  route?: string;
  version?: string;
  status: number;
  authorization?: string;
  body?: unknown;
}

/** An entry as kept: a timestamp instead of the ISO time, nothing masked yet. */
type Recorded = Omit<JournalEntry, 'time'> & { at: number };

export class Journal {
  #entries: Recorded[] = [];
  #seq = 0;

  constructor(private readonly limit: number) {}

  /** Keeps `entry` as it is given (numbered, not copied): the caller makes a new one per request. */
  record(entry: Omit<Recorded, 'seq'>): void {
    (entry as Recorded).seq = ++this.#seq;
    this.#entries.push(entry as Recorded);
    // Trim in batches so a full journal does not shift its whole array on every request.
    if (this.#entries.length > this.limit * 1.5 + 100)
      this.#entries.splice(0, this.#entries.length - this.limit);
  }

  list(filter: { route?: string; version?: string } = {}): JournalEntry[] {
    return this.#entries
      .slice(-this.limit)
      .filter(
        (e) =>
          (!filter.route || e.route === filter.route) && (!filter.version || e.version === filter.version),
      )
      .map(({ at, authorization, body, ...rest }) => ({
        ...rest,
        time: new Date(at).toISOString(),
        ...(authorization === undefined ? {} : { authorization: maskAuthorization(authorization) }),
        body: maskBody(body),
      }));
  }

  clear(): void {
    this.#entries = [];
  }
}
