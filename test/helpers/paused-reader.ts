/**
 * A stdout with a reader that can pause, for the tests of back-pressure: while the reader is paused
 * nothing it was given is taken, so past its small buffer every write asks the writer to wait
 * (write() returns false) until the reader goes on. Runs payorder in process with it as stdout.
 */
import { PassThrough, Readable, Writable } from 'node:stream';
import { buildContext } from '../../src/context.js';
import { run } from '../../src/main.js';

export interface PausedReader {
  stream: Writable;
  /** How many whole lines the reader has taken. */
  lines(): number;
  /** Each line taken, in order. */
  taken(): string[];
  pause(): void;
  resume(): void;
}

/** A reader of `highWaterMark` bytes of buffer that takes everything it is given unless paused. */
export function pausedReader({ highWaterMark = 16 * 1024 } = {}): PausedReader {
  const taken: string[] = [];
  let partial = '';
  let paused = false;
  let waiting: (() => void) | undefined;
  const stream = new Writable({
    highWaterMark,
    write(chunk: Buffer, _encoding, callback) {
      const take = () => {
        const parts = (partial + chunk.toString('utf8')).split('\n');
        partial = parts.pop()!;
        taken.push(...parts);
        callback();
      };
      if (paused) waiting = take;
      else take();
    },
  });
  return {
    stream,
    lines: () => taken.length,
    taken: () => taken,
    pause() {
      paused = true;
    },
    resume() {
      paused = false;
      const next = waiting;
      waiting = undefined;
      next?.();
    },
  };
}

/** Runs `payorder ARGS…` in process with `reader` as its stdout (not a TTY); stderr is captured. */
export async function runWithReader(
  args: string[],
  reader: PausedReader,
  env: Record<string, string | undefined>,
): Promise<{ exitCode: number; stderr: string }> {
  const stderr = new PassThrough();
  const chunks: Buffer[] = [];
  stderr.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ctx = buildContext({
    io: {
      stdout: reader.stream,
      stderr,
      stdin: Readable.from([]),
      stdoutIsTTY: false,
      stderrIsTTY: false,
      stdinIsTTY: false,
      stdoutColumns: 0,
      stderrColumns: 0,
    },
    env,
    signal: new AbortController().signal,
  });
  const exitCode = await run(['node', 'payorder', ...args], ctx);
  await new Promise((resolve) => setImmediate(resolve));
  return { exitCode, stderr: Buffer.concat(chunks).toString('utf8') };
}
