/**
 * The request journal: what reached the sandbox, newest last, bounded in entries and in bytes so a
 * long load test or large bodies do not grow it forever. Bodies are kept as the text that came and
 * parsed and masked when read, so recording stays cheap on the hot path while nothing secret
 * (client_secret_id, tokens) ever leaves through the control API.
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

/** An entry as kept: a timestamp instead of the ISO time, the body as it came, nothing masked yet. */
type Recorded = Omit<JournalEntry, 'time' | 'body'> & { at: number; text: string | undefined };

/** How many bytes of requests the journal keeps at most, besides its limit of entries. */
export const JOURNAL_BYTES = 16 * 1_048_576;

/** What an entry costs besides its texts: its fields and their numbers. */
const ENTRY_OVERHEAD = 100;

/** Deeper bodies are shown as a note: masking and writing them walk them recursively. */
const MAX_DEPTH = 64;

const costOf = (entry: Recorded) =>
  ENTRY_OVERHEAD + entry.path.length + (entry.authorization?.length ?? 0) + (entry.text?.length ?? 0);

/** Whether `value` nests objects and arrays deeper than `limit`, found without recursion. */
function deeperThan(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  for (let top = stack.pop(); top; top = stack.pop()) {
    const [item, depth] = top;
    if (typeof item !== 'object' || item === null) continue;
    if (depth > limit) return true;
    for (const child of Object.values(item)) stack.push([child, depth + 1]);
  }
  return false;
}

/** A body as the journal shows it: its JSON masked, or a note saying why it cannot be. */
function shown(text: string | undefined): unknown {
  if (text === undefined || text.trim() === '') return undefined;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return '(malformed JSON)';
  }
  return deeperThan(body, MAX_DEPTH) ? `(JSON nested deeper than ${MAX_DEPTH} levels)` : maskBody(body);
}

export class Journal {
  #entries: Recorded[] = [];
  #bytes = 0;
  #seq = 0;

  constructor(private readonly limit: number) {}

  /** Keeps `entry` as it is given (numbered, not copied): the caller makes a new one per request. */
  record(entry: Omit<Recorded, 'seq'>): void {
    const recorded = entry as Recorded;
    recorded.seq = ++this.#seq;
    this.#entries.push(recorded);
    this.#bytes += costOf(recorded);
    // Trim in batches so a full journal does not shift its whole array on every request.
    if (this.#entries.length > this.limit * 1.5 + 100) this.#drop(this.#entries.length - this.limit);
    let oldest = 0;
    let bytes = this.#bytes;
    for (const entry of this.#entries) {
      if (bytes <= JOURNAL_BYTES) break;
      bytes -= costOf(entry);
      oldest++;
    }
    if (oldest > 0) this.#drop(oldest);
  }

  list(filter: { route?: string; version?: string } = {}): JournalEntry[] {
    return this.#entries
      .slice(-this.limit)
      .filter(
        (e) =>
          (!filter.route || e.route === filter.route) && (!filter.version || e.version === filter.version),
      )
      .map(({ at, authorization, text, ...rest }) => ({
        ...rest,
        time: new Date(at).toISOString(),
        ...(authorization === undefined ? {} : { authorization: maskAuthorization(authorization) }),
        body: shown(text),
      }));
  }

  clear(): void {
    this.#entries = [];
    this.#bytes = 0;
  }

  #drop(count: number): void {
    for (const entry of this.#entries.splice(0, count)) this.#bytes -= costOf(entry);
  }
}
