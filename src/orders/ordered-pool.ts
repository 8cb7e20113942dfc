/**
 * Runs async work on a stream of items with at most `concurrency` in flight, and hands results
 * back in input order. Memory stays bounded: no more than `window` items are held at once.
 */

export interface PoolOptions {
  concurrency: number;
  /** Stop taking new items when this says so (Ctrl-C); items in flight still finish. */
  stopped?: () => boolean;
}

export async function* orderedPool<T, R>(
  items: AsyncIterable<T>,
  work: (item: T) => Promise<R>,
  { concurrency, stopped = () => false }: PoolOptions,
): AsyncGenerator<R> {
  const window = concurrency * 4;
  const queue: Array<Promise<R>> = [];
  let running = 0;
  const waiters: Array<() => void> = [];
  const acquire = async () => {
    while (running >= concurrency) await new Promise<void>((resolve) => waiters.push(resolve));
    running++;
  };
  const release = () => {
    running--;
    waiters.shift()?.();
  };
  for await (const item of items) {
    if (stopped()) break;
    await acquire();
    queue.push(work(item).finally(release));
    while (queue.length >= window || (queue.length > 0 && (await isSettled(queue[0]!))))
      yield await queue.shift()!;
  }
  while (queue.length > 0) yield await queue.shift()!;
}

const PENDING = Symbol('pending');

async function isSettled(promise: Promise<unknown>): Promise<boolean> {
  return (
    (await Promise.race([
      promise.then(
        () => true,
        () => true,
      ),
      Promise.resolve(PENDING),
    ])) !== PENDING
  );
}
