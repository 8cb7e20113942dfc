/**
 * Runs async work on a stream of items with at most `concurrency` in flight, and hands results
 * back in input order as soon as each is ready. Memory stays bounded: no more than `window` items
 * are held at once. Once `stopped()` says so, no further item is started (not even one that was
 * already read and waiting for a free slot); items in flight finish and are handed back.
 */

export interface PoolOptions {
  concurrency: number;
  /** Stop taking new items when this says so (a fatal error); items in flight still finish. */
  stopped?: () => boolean;
  /**
   * Ctrl-C: stop taking new items, and stop waiting for the input too (a FIFO with no writer yet
   * may never give the next item); items in flight still finish.
   */
  signal?: AbortSignal;
}

interface Entry<R> {
  promise: Promise<R>;
  settled: boolean;
}

export async function* orderedPool<T, R>(
  items: AsyncIterable<T>,
  work: (item: T) => Promise<R>,
  { concurrency, stopped: stoppedByCaller = () => false, signal }: PoolOptions,
): AsyncGenerator<R> {
  const stopped = () => signal?.aborted === true || stoppedByCaller();
  const window = concurrency * 4;
  const queue: Array<Entry<R>> = [];
  let running = 0;
  // Each wait is a fresh promise that a settled item or Ctrl-C resolves. Nothing is raced against
  // a promise that lives for the whole run: every race would stay in its list of reactions, holding
  // the item it was won with, and memory would grow with the input.
  let wake: (() => void) | undefined;
  const changed = () => new Promise<void>((resolve) => (wake = resolve));
  const onAbort = () => wake?.();
  signal?.addEventListener('abort', onAbort, { once: true });
  /** The oldest entry, taken off the queue once it has settled: results go out in input order. */
  const settledHead = () => (queue[0]?.settled ? queue.shift() : undefined);
  const settle = (entry: Entry<R>) => {
    entry.settled = true;
    running--;
    wake?.();
  };
  const input = items[Symbol.asyncIterator]();
  // The read in progress: kept across wake-ups, so a slow input never holds back a ready result.
  let pending: Promise<IteratorResult<T>> | undefined;
  try {
    for (;;) {
      for (let done = settledHead(); done; done = settledHead()) yield await done.promise;
      if (running >= concurrency || queue.length >= window) {
        await changed();
        continue;
      }
      if (stopped()) break;
      pending ??= input.next();
      const next = await Promise.race([pending, changed().then(() => undefined)]);
      // A result became ready (or Ctrl-C came) while the input was still reading: see to that first.
      if (next === undefined) continue;
      pending = undefined;
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
    signal?.removeEventListener('abort', onAbort);
    // Not awaited while a read is still waiting for input: it would hold the stop.
    if (signal?.aborted || pending) void input.return?.()?.catch(() => {});
    else await input.return?.();
  }
  for (let entry = queue.shift(); entry; entry = queue.shift()) yield await entry.promise;
}
