/**
 * A context for running payorder in process: captured stdout and stderr, a stdin of the test's
 * choosing, TTY-ness, environment and clock set by the test (the role of gh's iostreams.Test()).
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { inject } from 'vitest';
import { buildContext, type Context } from '../../src/context.js';
import { run } from '../../src/main.js';
import type { KeychainAccess } from '../../src/store/keychain.js';
import type { Prompter } from '../../src/terminal/prompter.js';

export interface TestContextOptions {
  stdoutIsTTY?: boolean;
  stderrIsTTY?: boolean;
  stdinIsTTY?: boolean;
  /** The terminal width stdout and stderr report (0: none). */
  columns?: number;
  /** Fixes the clock; otherwise PAYORDER_NOW in `env`, else real time. */
  now?: Date;
  /** The clock and the sleep of the test's own time (see virtualTime), instead of `now`. */
  time?: { clock: () => Date; sleep: (ms: number, signal?: AbortSignal) => Promise<void> };
  env?: Record<string, string | undefined>;
  /** What stdin holds (it ends after it); empty by default. */
  stdin?: string | Readable;
  /** Aborting it is Ctrl-C. */
  signal?: AbortSignal;
  /** The keychain payorder sees; by default the OS keychain as `env` reaches it (none on Linux without a D-Bus address). */
  keychain?: KeychainAccess;
  /** Who answers payorder's questions (see scriptedPrompter); by default the terminal's prompts. */
  prompter?: Prompter;
}

export interface TestContext {
  ctx: Context;
  stdout(): string;
  stderr(): string;
}

function capture(): { stream: PassThrough; text: () => string } {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

export function testContext(options: TestContextOptions = {}): TestContext {
  const out = capture();
  const err = capture();
  const stdin =
    options.stdin instanceof Readable ? options.stdin : Readable.from([Buffer.from(options.stdin ?? '')]);
  const ctx = buildContext({
    io: {
      stdout: out.stream,
      stderr: err.stream,
      stdin,
      stdoutIsTTY: options.stdoutIsTTY ?? false,
      stderrIsTTY: options.stderrIsTTY ?? false,
      stdinIsTTY: options.stdinIsTTY ?? false,
      stdoutColumns: options.stdoutIsTTY ? (options.columns ?? 0) : 0,
      stderrColumns: options.stderrIsTTY ? (options.columns ?? 0) : 0,
    },
    // A data folder of its own unless the test names one: never the real ~/.local/share/payorder.
    env: { PAYORDER_DATA_DIR: join(inject('tempRoot'), `data-${randomUUID()}`), ...options.env },
    signal: options.signal ?? new AbortController().signal,
    ...(options.now ? { clock: () => options.now! } : {}),
    ...(options.time ?? {}),
    ...(options.keychain ? { keychain: () => Promise.resolve(options.keychain!) } : {}),
    prompter: options.prompter,
  });
  return { ctx, stdout: out.text, stderr: err.text };
}

export interface RunResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/** Runs `payorder ARGS…` in process in a test context; resolves when the command is done. */
export async function runInProcess(args: string[], options: TestContextOptions = {}): Promise<RunResult> {
  const { ctx, stdout, stderr } = testContext(options);
  const exitCode = await run(['node', 'payorder', ...args], ctx);
  // Let the captured streams deliver what was written last.
  await new Promise((resolve) => setImmediate(resolve));
  return { exitCode, stdout: stdout(), stderr: stderr() };
}

/**
 * A time of the test's own that moves only when payorder sleeps: a sleep of ten minutes returns at
 * once with the clock ten minutes on. `onSleep` runs before each sleep returns (say, to pay an order
 * after the second poll); `slept` lists every sleep asked for, in milliseconds.
 */
export function virtualTime(start: Date, onSleep: (count: number) => Promise<void> | void = () => {}) {
  let now = start.getTime();
  const slept: number[] = [];
  return {
    slept,
    clock: () => new Date(now),
    async sleep(ms: number, signal?: AbortSignal) {
      signal?.throwIfAborted();
      slept.push(ms);
      now += ms;
      await onSleep(slept.length);
    },
  };
}
