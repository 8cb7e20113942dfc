/**
 * Runs the grammar checks of a run: on this thread, and once the run proves large, in worker threads
 * beside it (one fewer than the cores, as this thread keeps checking too). Jobs are pulled lazily,
 * a batch at a time, so a caller that streams files never holds them all. A worker runs
 * dist/syntax-worker.cjs, built beside the CLI's bundle from worker.ts, which serves the checks.
 */
import { availableParallelism } from 'node:os';
import { parentPort, Worker } from 'node:worker_threads';
import type { Finding } from '../rules.js';
import { checkWithGrammar, type SyntaxJob } from './check-file.js';
import { adoptModules, filesFor, shareModules, type WasmModule } from './grammars.js';

/** Files per message: large enough that messaging costs little, small enough to share the work out. */
const BATCH = 32;
/** Workers start once this many files need parsing: below it, starting them costs more than it saves. */
const WORKERS_AFTER = 4 * BATCH;
/** Batches a worker holds, so it never waits for this thread between two. */
const IN_FLIGHT = 2;

export interface IndexedJob extends SyntaxJob {
  index: number;
}

interface Request {
  id: number;
  jobs: SyntaxJob[];
  /** Compiled runtime and grammars the worker has not been given yet. */
  modules?: Record<string, WasmModule>;
}
/** A batch's findings, a list per job in the order sent; or why the worker could not check it. */
type Reply = { id: number; findings: Finding[][]; error?: undefined } | { id: number; error: string };

/** Worker threads to add to this one by default: none where workers cannot load this module. */
export function defaultWorkers(): number {
  // Only the CLI's bundle has the worker's file beside it (src/ is TypeScript; the standalone
  // executable has no file of its own to load).
  return import.meta.url.endsWith('.cjs') ? Math.max(availableParallelism() - 1, 0) : 0;
}

/** Checks every job, calling `done` with each job's findings; `workers` threads help once the run is large. */
export async function runJobs(
  jobs: Iterator<IndexedJob>,
  workers: number,
  done: (job: IndexedJob, findings: Finding[]) => void,
): Promise<void> {
  let exhausted = false;
  const pull = (): IndexedJob[] => {
    const batch: IndexedJob[] = [];
    while (!exhausted && batch.length < BATCH) {
      const next = jobs.next();
      if (next.done) exhausted = true;
      else batch.push(next.value);
    }
    return batch;
  };
  const helpers: Array<Promise<void>> = [];
  let pulled = 0;
  for (let batch = pull(); batch.length > 0; batch = pull()) {
    pulled += batch.length;
    if (helpers.length === 0 && workers > 0 && pulled >= WORKERS_AFTER)
      for (let i = 0; i < workers; i++) helpers.push(helpInWorker(pull, done));
    for (const job of batch) done(job, await checkWithGrammar(job));
    // Let the workers' replies in, so each gets its next batch while this thread checks.
    if (helpers.length > 0) await new Promise((resolve) => setImmediate(resolve));
  }
  await Promise.all(helpers);
}

/** One worker, fed batches from `pull` until there are none. */
function helpInWorker(
  pull: () => IndexedJob[],
  done: (job: IndexedJob, findings: Finding[]) => void,
): Promise<void> {
  // A small young generation: a worker's garbage is many small short-lived objects, and the
  // default one makes each worker's memory grow by tens of megabytes before it is collected.
  const worker = new Worker(new URL('./syntax-worker.cjs', import.meta.url), {
    resourceLimits: { maxYoungGenerationSizeMb: 4, maxOldGenerationSizeMb: 512 },
  });
  const sent = new Map<number, IndexedJob[]>();
  const given = new Set<string>();
  let next = 0;
  return new Promise<void>((resolve, reject) => {
    const finish = (error?: Error) => {
      void worker.terminate();
      if (error) reject(error);
      else resolve();
    };
    const send = () => {
      while (sent.size < IN_FLIGHT) {
        const batch = pull();
        if (batch.length === 0) break;
        const id = next++;
        sent.set(id, batch);
        const needed = new Set(
          batch.flatMap((job) => filesFor(job.language)).filter((file) => !given.has(file)),
        );
        for (const file of needed) given.add(file);
        worker.postMessage({
          id,
          jobs: batch.map(({ file, text, language }) => ({ file, text, language })),
          ...(needed.size > 0 ? { modules: shareModules(needed) } : {}),
        } satisfies Request);
      }
      if (sent.size === 0) finish();
    };
    worker.on('message', (reply: Reply) => {
      if (reply.error !== undefined) return finish(new Error(reply.error));
      const batch = sent.get(reply.id);
      const { findings } = reply;
      if (!batch || findings.length !== batch.length)
        return finish(new Error(`a worker's answer to batch ${reply.id} does not match what was sent`));
      sent.delete(reply.id);
      batch.forEach((job, i) => {
        done(job, findings[i] ?? []);
      });
      send();
    });
    worker.once('error', finish);
    send();
  });
}

/** What a worker thread does (worker.ts): checks the batches this thread sends it. */
export function serve(): void {
  const port = parentPort;
  if (!port) throw new Error('serve() answers a parent thread: run it in a worker');
  port.on('message', async ({ id, jobs, modules }: Request) => {
    try {
      if (modules) adoptModules(modules);
      const findings: Finding[][] = [];
      for (const job of jobs) findings.push(await checkWithGrammar(job));
      port.postMessage({ id, findings } satisfies Reply);
    } catch (error) {
      port.postMessage({ id, error: String((error as Error).stack ?? error) } satisfies Reply);
    }
  });
}
