import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { orderedPool, type PoolOptions } from '../../src/orders/ordered-pool.js';

/** An async source of 0..count-1 that records how far it was read and whether it was closed. */
function source(count: number, { gapMs = 0 } = {}) {
  const state = { pulled: 0, closed: false };
  async function* items(): AsyncGenerator<number> {
    try {
      for (let i = 0; i < count; i++) {
        if (gapMs > 0) await sleep(gapMs);
        state.pulled++;
        yield i;
      }
    } finally {
      state.closed = true;
    }
  }
  return { items: items(), state };
}

async function collect<R>(pool: AsyncIterable<R>): Promise<R[]> {
  const results: R[] = [];
  for await (const result of pool) results.push(result);
  return results;
}

/** Work that counts how many calls are in flight at once. */
function trackedWork(delayOf: (item: number) => number) {
  const stats = { inFlight: 0, maxInFlight: 0, started: [] as number[] };
  const work = async (item: number) => {
    stats.started.push(item);
    stats.inFlight++;
    stats.maxInFlight = Math.max(stats.maxInFlight, stats.inFlight);
    try {
      await sleep(delayOf(item));
      return `done ${item}`;
    } finally {
      stats.inFlight--;
    }
  };
  return { work, stats };
}

/**
 * Runs `fn` with the process's unhandled-rejection listeners (the test runner's) swapped for one
 * that records, so a rejection nobody handled is observed here instead of failing the whole run.
 */
async function withUnhandledRejections(fn: () => Promise<void>) {
  const unhandled: unknown[] = [];
  const record = (reason: unknown) => unhandled.push(reason);
  const saved = process.listeners('unhandledRejection');
  process.removeAllListeners('unhandledRejection');
  process.on('unhandledRejection', record);
  let caught: unknown;
  try {
    await fn();
  } catch (error) {
    caught = error;
  } finally {
    // Unhandled rejections are reported after the microtask queue drains: give them a turn.
    await sleep(50);
    process.off('unhandledRejection', record);
    for (const listener of saved) process.on('unhandledRejection', listener);
  }
  return { unhandled, caught };
}

describe('orderedPool', () => {
  it('hands results back in input order even when later items finish first', async () => {
    // Item 0 is the slowest, item 9 the fastest: completion order is the reverse of input order.
    const { items } = source(10);
    const { work } = trackedWork((item) => (10 - item) * 3);
    const results = await collect(orderedPool(items, work, { concurrency: 4 }));
    expect(results).toEqual(Array.from({ length: 10 }, (_, i) => `done ${i}`));
  });

  it.each([1, 3, 8])('keeps exactly %i item(s) in flight at most, and uses them all', async (concurrency) => {
    const { items } = source(40);
    const { work, stats } = trackedWork((item) => 1 + (item % 5));
    const results = await collect(orderedPool(items, work, { concurrency }));
    expect(results).toHaveLength(40);
    expect(stats.maxInFlight).toBe(concurrency);
    expect(stats.inFlight).toBe(0);
  });

  it('holds a bounded number of unreturned items while the first one is slow', async () => {
    const concurrency = 2;
    const { items, state } = source(50);
    const { work } = trackedWork((item) => (item === 0 ? 80 : 0));
    let received = 0;
    let maxHeld = 0;
    for await (const _ of orderedPool(items, work, { concurrency })) {
      maxHeld = Math.max(maxHeld, state.pulled - received);
      received++;
    }
    expect(received).toBe(50);
    // The module's window: four times the concurrency.
    expect(maxHeld).toBe(concurrency * 4);
  });

  it('returns nothing for an empty input and never calls the work', async () => {
    const { items, state } = source(0);
    const { work, stats } = trackedWork(() => 0);
    expect(await collect(orderedPool(items, work, { concurrency: 2 }))).toEqual([]);
    expect(stats.started).toEqual([]);
    expect(state.closed).toBe(true);
  });

  it('accepts a plain async iterable, not only generators', async () => {
    const iterable: AsyncIterable<string> = {
      [Symbol.asyncIterator]() {
        const values = ['a', 'b', 'c'];
        return {
          next: async () =>
            values.length > 0
              ? { done: false, value: values.shift()! }
              : { done: true, value: undefined as unknown as string },
        };
      },
    };
    const results = await collect(orderedPool(iterable, async (s) => s.toUpperCase(), { concurrency: 2 }));
    expect(results).toEqual(['A', 'B', 'C']);
  });

  describe('stopping (Ctrl-C)', () => {
    it('on an aborted signal stops waiting for input that may never come, and hands back what finished', async () => {
      const controller = new AbortController();
      // An input that gives one item, then waits forever (a FIFO whose writer went quiet).
      const items = (async function* () {
        yield 1;
        await new Promise(() => {});
      })();
      const pool = orderedPool(items, async (item: number) => item * 10, {
        concurrency: 2,
        signal: controller.signal,
      });
      const first = await pool.next();
      setTimeout(() => controller.abort(), 20);
      expect(first).toEqual({ done: false, value: 10 });
      expect(await pool.next()).toEqual({ done: true, value: undefined });
    });

    it('stops taking input once stopped() is true, lets items in flight finish, and closes the input', async () => {
      const { items, state } = source(100);
      const { work, stats } = trackedWork(() => 5);
      const options: PoolOptions = { concurrency: 2, stopped: () => stats.started.length >= 3 };
      const results = await collect(orderedPool(items, work, options));
      expect(results).toEqual(['done 0', 'done 1', 'done 2']);
      expect(stats.started).toEqual([0, 1, 2]);
      // Nothing is read once the pool is stopped: the input is closed where it stands.
      expect(state.pulled).toBe(3);
      expect(state.closed).toBe(true);
    });

    it('takes nothing at all when already stopped', async () => {
      const { items, state } = source(5);
      const { work, stats } = trackedWork(() => 0);
      expect(await collect(orderedPool(items, work, { concurrency: 2, stopped: () => true }))).toEqual([]);
      expect(stats.started).toEqual([]);
      expect(state.pulled).toBe(0);
    });

    // `stopped()` is checked again after waiting for a free slot: an order is never sent after Ctrl-C.
    it('does not start an item that was still waiting for a free slot when the stop came', async () => {
      const { items } = source(10);
      let stop = false;
      const started: number[] = [];
      const work = async (item: number) => {
        started.push(item);
        // Ctrl-C arrives while item 0 is in flight and item 1 waits for its slot.
        if (item === 0) {
          await sleep(10);
          stop = true;
          await sleep(10);
        }
        return item;
      };
      const results = await collect(orderedPool(items, work, { concurrency: 1, stopped: () => stop }));
      expect(started).toEqual([0]);
      expect(results).toEqual([0]);
    });
  });

  describe('errors', () => {
    it('yields the results before a failed item, then throws its error', async () => {
      // The failing item is the last and the slowest, so the pool is already waiting for it.
      const { items } = source(4);
      const boom = new Error('line 3 exploded');
      const work = async (item: number) => {
        await sleep(item === 3 ? 30 : 5);
        if (item === 3) throw boom;
        return item;
      };
      const received: number[] = [];
      let caught: unknown;
      try {
        for await (const result of orderedPool(items, work, { concurrency: 4 })) received.push(result);
      } catch (error) {
        caught = error;
      }
      expect(received).toEqual([0, 1, 2]);
      expect(caught).toBe(boom);
    });

    it('passes on an error thrown by the input', async () => {
      const broken = new Error('cannot read the input');
      async function* items() {
        yield 1;
        throw broken;
      }
      await expect(collect(orderedPool(items(), async (n: number) => n, { concurrency: 2 }))).rejects.toBe(
        broken,
      );
    });

    // A work promise that rejects while an earlier item is still in flight must not be an unhandled
    // rejection (Node would end the process before the error reaches the caller).
    it('reports a failure of an item behind a slower one as the pool error, not as an unhandled rejection', async () => {
      const boom = new Error('line 2 exploded');
      const work = async (item: number) => {
        await sleep(item === 0 ? 30 : 1);
        if (item === 2) throw boom;
        return item;
      };
      const { unhandled, caught } = await withUnhandledRejections(async () => {
        await collect(orderedPool(source(4).items, work, { concurrency: 4 }));
      });
      expect(caught).toBe(boom);
      expect(unhandled).toEqual([]);
    });
  });

  // Results stream: a finished first result is handed back before the pool reads far ahead.
  it('hands a finished result back before reading far ahead in a slow input', async () => {
    const events: string[] = [];
    const { items } = source(8, { gapMs: 10 });
    const pool = orderedPool(
      (async function* () {
        for await (const item of items) {
          events.push(`pull ${item}`);
          yield item;
        }
      })(),
      async (item: number) => item,
      { concurrency: 1 },
    );
    for await (const result of pool) events.push(`result ${result}`);
    expect(events.indexOf('result 0')).toBeLessThan(events.indexOf('pull 2'));
  });
});
