/**
 * The context every command runs in, built once by the entry point: I/O and whether a person is
 * looking, the environment variables, the clock, and lazy access to the profile store. Nothing
 * else in payorder reads process.env, process.stdout or Date.now().
 */
import type { ProfileStore } from './store/profile-store.js';

export interface IO {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  stdin: NodeJS.ReadableStream;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  stdinIsTTY: boolean;
  /** Whether to color what goes to stdout / stderr (TTY, NO_COLOR, FORCE_COLOR, TERM=dumb, --no-color). */
  colorOut: boolean;
  colorErr: boolean;
}

/** The options every command shares, known once argv is parsed. */
export interface Flags {
  debug: boolean;
  quiet: boolean;
  json: boolean;
  /** False with --no-input or without a TTY on stdin: never prompt. */
  interactive: boolean;
}

export type Env = Readonly<Record<string, string | undefined>>;

export interface Context {
  io: IO;
  env: Env;
  clock: () => Date;
  flags: Flags;
  /** Aborted on Ctrl-C / SIGTERM. */
  signal: AbortSignal;
  store(): Promise<ProfileStore>;
}

/** Colors per clig.dev: NO_COLOR wins, then FORCE_COLOR, then TERM=dumb, then whether it is a TTY. */
export function wantsColor(env: Env, isTTY: boolean): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false';
  if (env.TERM === 'dumb') return false;
  return isTTY;
}

/** The clock: real time, or PAYORDER_NOW (an ISO date) so tests and rehearsals can set the date. */
export function clockFrom(env: Env): () => Date {
  const fixed = env.PAYORDER_NOW;
  if (fixed === undefined || fixed === '') return () => new Date();
  const at = Date.parse(fixed);
  if (Number.isNaN(at)) throw new Error(`PAYORDER_NOW must be an ISO date, got ${JSON.stringify(fixed)}`);
  return () => new Date(at);
}

export function createContext(proc: NodeJS.Process, signal: AbortSignal): Context {
  const env = { ...proc.env };
  const stdoutIsTTY = Boolean(proc.stdout.isTTY);
  const stderrIsTTY = Boolean(proc.stderr.isTTY);
  let store: Promise<ProfileStore> | undefined;
  const context: Context = {
    io: {
      stdout: proc.stdout,
      stderr: proc.stderr,
      stdin: proc.stdin,
      stdoutIsTTY,
      stderrIsTTY,
      stdinIsTTY: Boolean(proc.stdin.isTTY),
      colorOut: wantsColor(env, stdoutIsTTY),
      colorErr: wantsColor(env, stderrIsTTY),
    },
    env,
    clock: clockFrom(env),
    flags: { debug: false, quiet: false, json: false, interactive: Boolean(proc.stdin.isTTY) },
    signal,
    store() {
      store ??= import('./store/profile-store.js').then(({ openStore }) => openStore(env));
      return store;
    },
  };
  return context;
}
