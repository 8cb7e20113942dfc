/**
 * Runs async work on a stream of items with at most `concurrency` in flight, and hands results
 * back in input order as soon as each is ready. Memory stays bounded: no more than `window` items
 * are held at once. Once `stopped()` says so, no further item is started (not even one that was
 * already read and waiting for a free slot); items in flight finish and are handed back.
 */

export interface PoolOptions {
  concurrency: number;
  /** Stop taking new items when this says so (Ctrl-C, a fatal error); items in flight still finish. */
  stopped?: () => boolean;
}

interface Entry<R> {
  promise: Promise<R>;
  settled: boolean;
}

export async function* orderedPool<T, R>(
  items: AsyncIterable<T>,
  work: (item: T) => Promise<R>,
  { concurrency, stopped = () => false }: PoolOptions,
): AsyncGenerator<R> {
  const window = concurrency * 4;
  const queue: Array<Entry<R>> = [];
  let running = 0;
  let wake: (() => void) | undefined;
  const changed = () => new Promise<void>((resolve) => (wake = resolve));
  const settle = (entry: Entry<R>) => {
    entry.settled = true;
    running--;
    wake?.();
  };
  const input = items[Symbol.asyncIterator]();
  try {
    for (;;) {
      // Hand back what is ready, and wait for a free slot and room in the window before reading on.
      while (queue[0]?.settled) yield await queue.shift()!.promise;
      while (running >= concurrency || queue.length >= window) {
        await changed();
        while (queue[0]?.settled) yield await queue.shift()!.promise;
      }
      if (stopped()) break;
      const next = await input.next();
      if (next.done || stopped()) break;
      running++;
      const entry: Entry<R> = { promise: work(next.value), settled: false };
      // Settling is tracked on both paths, which also marks a failure as handled until its turn comes.
      entry.promise.then(
        () => settle(entry),
        () => settle(entry),
      );
      queue.push(entry);
    }
  } finally {
    await input.return?.();
  }
  while (queue.length > 0) yield await queue.shift()!.promise;
}
