/**
 * The request journal: what reached the sandbox, newest last, with secrets and tokens masked so it
 * can be shown, logged and asserted on safely. Bounded, so a long load test does not grow it forever.
 */

export interface JournalEntry {
  seq: number;
  time: string;
  method: string;
  path: string;
  /** The service route ("token", "checkout", "lookup", "pay") or undefined for other paths. */
  route?: string;
  version?: string;
  status: number;
  authorization?: string;
  body?: unknown;
}

export class Journal {
  #entries: JournalEntry[] = [];
  #seq = 0;

  constructor(private readonly limit: number) {}

  record(entry: Omit<JournalEntry, 'seq'>): void {
    this.#entries.push({ seq: ++this.#seq, ...entry });
    if (this.#entries.length > this.limit) this.#entries.splice(0, this.#entries.length - this.limit);
  }

  list(filter: { route?: string; version?: string } = {}): JournalEntry[] {
    return this.#entries.filter(
      (entry) =>
        (!filter.route || entry.route === filter.route) &&
        (!filter.version || entry.version === filter.version),
    );
  }

  clear(): void {
    this.#entries = [];
  }
}
