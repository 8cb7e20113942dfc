/**
 * The journal keys of a batch's lines. A line's key is the hash of its order (draftKey, 16 bytes as
 * hex) and the number of identical lines before it in this run plus one, so that the Nth identical
 * line of a rerun finds the Nth one's records. Counting them takes every hash seen so far; a batch
 * keeps them in a table of 16-byte slots, outside V8's heap: 20 to 40 bytes a hash with the free
 * slots, where a Map of the hex strings takes about 80, in the old generation, which V8 then grows
 * around them (docs/performance.md).
 */

/** A hash as four 32-bit words. */
type Words = readonly [number, number, number, number];
const WORDS = 4;
/** The table is doubled once this share of its slots is taken. */
const MAX_LOAD = 0.8;

export class LineKeys {
  /** Open addressing with linear probing; a slot of four zero words is free. */
  #slots = new Uint32Array(1024 * WORDS);
  #taken = 0;
  /** How many times a hash came, for those that came more than once (and for the all-zero hash). */
  readonly #repeats = new Map<string, number>();

  /** The key of the next line whose order hashes to `hash`: the Nth such line gets `hash#N`. */
  keyFor(hash: string): string {
    const words = wordsOf(hash);
    // Four zero words mark a free slot: the all-zero hash is counted with the repeats alone.
    const zero = words.every((word) => word === 0);
    if (!zero && !this.#seenBefore(words)) return `${hash}#1`;
    const count = (this.#repeats.get(hash) ?? (zero ? 0 : 1)) + 1;
    this.#repeats.set(hash, count);
    return `${hash}#${count}`;
  }

  /** Whether `words` were in the table; adds them if not. */
  #seenBefore(words: Words): boolean {
    const slot = this.#find(this.#slots, words);
    if (!isFree(this.#slots, slot)) return true;
    this.#slots.set(words, slot);
    if (++this.#taken > (this.#slots.length / WORDS) * MAX_LOAD) this.#grow();
    return false;
  }

  /** The slot holding `words` in `slots`, or the free one where they go. */
  #find(slots: Uint32Array, words: Words): number {
    const mask = slots.length / WORDS - 1;
    // The hash is a digest's: its first word is as good an index as any.
    for (let index = words[0] & mask; ; index = (index + 1) & mask) {
      const slot = index * WORDS;
      if (
        isFree(slots, slot) ||
        (slots[slot] === words[0] &&
          slots[slot + 1] === words[1] &&
          slots[slot + 2] === words[2] &&
          slots[slot + 3] === words[3])
      )
        return slot;
    }
  }

  #grow(): void {
    const old = this.#slots;
    const slots = new Uint32Array(old.length * 2);
    for (let slot = 0; slot < old.length; slot += WORDS) {
      if (isFree(old, slot)) continue;
      const words: Words = [old[slot] ?? 0, old[slot + 1] ?? 0, old[slot + 2] ?? 0, old[slot + 3] ?? 0];
      slots.set(words, this.#find(slots, words));
    }
    this.#slots = slots;
  }
}

const isFree = (slots: Uint32Array, slot: number) =>
  slots[slot] === 0 && slots[slot + 1] === 0 && slots[slot + 2] === 0 && slots[slot + 3] === 0;

/** The four 32-bit words of a hash given as 32 hex digits. */
function wordsOf(hash: string): Words {
  if (!/^[0-9a-f]{32}$/.test(hash)) throw new Error(`not a line hash: ${hash}`);
  const word = (start: number) => Number.parseInt(hash.slice(start, start + 8), 16);
  return [word(0), word(8), word(16), word(24)];
}
