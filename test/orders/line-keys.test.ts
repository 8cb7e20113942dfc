/**
 * A batch's line keys: the Nth line with the same hash gets the Nth key, whatever the table holds
 * (hashes that share their first words, tables that have grown, the all-zero hash).
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { LineKeys } from '../../src/orders/line-keys.js';

const hashOf = (n: number) => createHash('sha256').update(String(n)).digest().toString('hex', 0, 16);
/** Hashes that differ only in their last digits: the same first word, so the same first slot. */
const sibling = (n: number) => `00000001${'0'.repeat(16)}${n.toString(16).padStart(8, '0')}`;

/** The keys that were not what `expected` says, with what they were. */
function wrongKeys(keys: LineKeys, hashes: string[], occurrence: number): string[] {
  return hashes.filter((hash) => keys.keyFor(hash) !== `${hash}#${occurrence}`);
}

describe('line keys', () => {
  it('numbers each hash by its occurrences, and a new table starts afresh', () => {
    const keys = new LineKeys();
    const [a, b, c] = [hashOf(1), hashOf(2), hashOf(3)];
    expect([a, b, a, a, b, c].map((hash) => keys.keyFor(hash))).toEqual([
      `${a}#1`,
      `${b}#1`,
      `${a}#2`,
      `${a}#3`,
      `${b}#2`,
      `${c}#1`,
    ]);
    expect(new LineKeys().keyFor(a)).toBe(`${a}#1`);
  });

  it('keeps every count through the table’s growth: 200,000 hashes, then each again, then one a third time', () => {
    const keys = new LineKeys();
    const hashes = Array.from({ length: 200_000 }, (_, n) => hashOf(n));
    expect(wrongKeys(keys, hashes, 1)).toEqual([]);
    expect(wrongKeys(keys, hashes, 2)).toEqual([]);
    expect(keys.keyFor(hashes[123_456]!)).toBe(`${hashes[123_456]}#3`);
  });

  it('tells apart hashes that share a slot, before and after the table grows', () => {
    const keys = new LineKeys();
    const siblings = Array.from({ length: 3_000 }, (_, n) => sibling(n + 1));
    expect(wrongKeys(keys, siblings, 1)).toEqual([]);
    expect(wrongKeys(keys, siblings.toReversed(), 2)).toEqual([]);
  });

  it('counts the all-zero hash, which looks like a free slot', () => {
    const keys = new LineKeys();
    const zero = '0'.repeat(32);
    expect([zero, sibling(1), zero, zero].map((hash) => keys.keyFor(hash))).toEqual([
      `${zero}#1`,
      `${sibling(1)}#1`,
      `${zero}#2`,
      `${zero}#3`,
    ]);
  });

  it('refuses what is not a line hash (32 hex digits)', () => {
    expect(() => new LineKeys().keyFor('abc')).toThrow('not a line hash: abc');
  });
});
