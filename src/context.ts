/**
 * The context every command runs in, built once by the entry point (or by a test): I/O and whether
 * a person is looking, who asks that person (the Prompter), the environment variables, the clock,
 * and the lazy dependencies: the profile store, the data folder, the OS keychain and the service
 * client. Nothing else in payorder reads process.env, process.stdout or Date.now().
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { ServiceClient, Target } from './api/service.js';
import type { Transport } from './api/transport.js';
import { commandLine } from './command-line.js';
import { type DataFolder, dataFolderOf } from './store/data-folder.js';
import type { KeychainAccess } from './store/keychain.js';
import type { ProfileStore } from './store/profile-store.js';
import { type Prompter, terminalPrompter } from './terminal/prompter.js';
import { escapeControl } from './terminal/terminal-text.js';
import { clockFrom, type Env, timeoutSeconds, wantsColor } from './variables.js';

export type { Env } from './variables.js';

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
  /** The terminal's width in columns when stdout / stderr is one that reports it, else 0. */
  stdoutColumns: number;
  stderrColumns: number;
}

/** The options every command shares, known once argv is parsed. */
export interface Flags {
  debug: boolean;
  quiet: boolean;
  json: boolean;
  /** False with --no-input or without a TTY on stdin: never prompt. */
  interactive: boolean;
  /** --allow-insecure-http: http:// addresses for production and stage (session/cleartext.ts). */
  allowInsecureHttp: boolean;
  /** --jq: stdout is held for the filter (output/jq-output.ts) until the command is done. */
  jq: boolean;
}

export interface ClientOptions {
  /** Values to mask in --debug traces and error excerpts besides the known secret fields. */
  secrets?: string[];
  /** Abort requests in flight on Ctrl-C (default); a batch lets them finish instead. */
  interruptible?: boolean;
  /**
   * How many requests the command keeps in flight (a batch's --concurrency): its requests then go
   * through a keep-alive agent with that many connections. One-shot commands leave it out: their
   * agent opens as many as they need.
   */
  connections?: number;
}

export interface Context {
  io: IO;
  env: Env;
  clock: () => Date;
  /**
   * Waits `ms` milliseconds, or rejects when `signal` aborts: real time, or a test's own time (so
   * that waiting for an order's payment takes no real minutes in a test).
   */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  flags: Flags;
  /** Asks a person; only when `flags.interactive` says one can answer. */
  prompter: Prompter;
  /**
   * Aborted on Ctrl-C, SIGTERM or SIGHUP (stop taking new work; let work in flight finish), and on a closed
   * stdout (reason "EPIPE").
   */
  signal: AbortSignal;
  /**
   * Aborted on a second Ctrl-C, SIGTERM or SIGHUP: payorder ends right after its listeners have run, so
   * a listener says (synchronously) what was left undone.
   */
  forced: AbortSignal;
  store(): Promise<ProfileStore>;
  /**
   * What payorder keeps of its own work (the automatic journals of batches): PAYORDER_DATA_DIR, else
   * $XDG_DATA_HOME/payorder. Nothing is created until a part of it is asked for.
   */
  dataFolder(): DataFolder;
  /**
   * The OS keychain, or why there is none. Opening it loads a native addon: only the code that
   * writes, reads or removes a client secret (session/secret-storage.ts) asks for it.
   */
  keychain(): Promise<KeychainAccess>;
  /** The service client for a target: the one place where one is built. */
  client(target: Target, options?: ClientOptions): Promise<ServiceClient>;
  /**
   * How requests travel (api/transport.ts): Node's fetch for a one-shot command; agents keeping
   * `connections` connections (ClientOptions.connections), or going through the proxy the environment
   * sets (api/proxy.ts), otherwise.
   */
  transport(connections?: number): Promise<Transport>;
}

export interface ContextParts {
  io: Omit<IO, 'colorOut' | 'colorErr'> & Partial<Pick<IO, 'colorOut' | 'colorErr'>>;
  env: Env;
  signal: AbortSignal;
  forced?: AbortSignal;
  /** Defaults to the clock the environment sets (PAYORDER_NOW), else real time. */
  clock?: () => Date;
  /** Defaults to real time. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Defaults to the OS keychain; tests may give one of their own. */
  keychain?: () => Promise<KeychainAccess>;
  /** Defaults to the terminal's prompts on stdin and stderr; tests give one that answers from a script. */
  prompter?: Prompter;
}

/** A context from its parts: the entry point passes the process's, tests their own. */
export function buildContext({
  io,
  env,
  signal,
  forced,
  clock,
  sleep,
  keychain: openOwn,
  prompter,
}: ContextParts): Context {
  let store: Promise<ProfileStore> | undefined;
  let dataFolder: DataFolder | undefined;
  let keychain: Promise<KeychainAccess> | undefined;
  const context: Context = {
    io: {
      ...io,
      colorOut: io.colorOut ?? wantsColor(env, io.stdoutIsTTY),
      colorErr: io.colorErr ?? wantsColor(env, io.stderrIsTTY),
    },
    env,
    clock: clock ?? clockFrom(env),
    sleep: sleep ?? ((ms, abort) => delay(ms, undefined, { signal: abort })),
    flags: {
      debug: false,
      quiet: false,
      json: false,
      interactive: io.stdinIsTTY,
      allowInsecureHttp: false,
      jq: false,
    },
    prompter: prompter ?? terminalPrompter(io, signal),
    signal,
    forced: forced ?? new AbortController().signal,
    store() {
      // A wait for another process's lock is said even with --quiet: a command must not seem to hang.
      store ??= import('./store/profile-store.js').then(({ openStore }) =>
        openStore(env, { notice: (line) => context.io.stderr.write(`${escapeControl(line)}\n`) }),
      );
      return store;
    },
    dataFolder() {
      dataFolder ??= dataFolderOf(env);
      return dataFolder;
    },
    keychain() {
      keychain ??=
        openOwn?.() ?? import('./store/keychain.js').then(({ openKeychain }) => openKeychain(env, signal));
      return keychain;
    },
    async transport(connections) {
      // Node's fetch for a one-shot command reached directly; the undici package's agents, loaded
      // only then, for a command that keeps many requests in flight or goes through a proxy.
      const [{ proxySettings }, { fetchTransport }] = await Promise.all([
        import('./api/proxy.js'),
        import('./api/transport.js'),
      ]);
      const proxy = proxySettings(env);
      const agents = async () =>
        (await import('./api/agent-transport.js')).agentTransport(connections, proxy);
      if (connections === undefined && proxy === undefined) return fetchTransport(agents);
      return agents();
    },
    async client(target, { secrets = [], interruptible = true, connections } = {}) {
      const [{ ServiceClient }, transport] = await Promise.all([
        import('./api/service.js'),
        context.transport(connections),
      ]);
      return new ServiceClient(
        target,
        {
          timeoutMs: timeoutSeconds(env) * 1000,
          trace: debugTrace(context),
          secrets,
          // A batch lets requests in flight finish on Ctrl-C, so that none is left with an unknown outcome.
          signal: interruptible ? signal : undefined,
          refusalRetries: 4,
          // One-shot commands say when a refused request is retried; a batch's or a bulk lookup's many
          // requests would fill the screen with such lines, and their results and summary tell how it went.
          notice:
            connections === undefined
              ? (line) => {
                  if (!context.flags.quiet) context.io.stderr.write(`${escapeControl(line)}\n`);
                }
              : undefined,
          transport,
        },
        commandLine(['login'], target, { api: false }),
      );
    },
  };
  return context;
}

/** With --debug, where a client's trace goes: stderr, a line each, escaped; otherwise none. */
export function debugTrace(ctx: Context): ((line: string) => void) | undefined {
  return ctx.flags.debug ? (line) => ctx.io.stderr.write(`[debug] ${escapeControl(line)}\n`) : undefined;
}

/**
 * The context whose service clients keep `connections` requests alive (ClientOptions.connections):
 * what a batch or a bulk lookup opens its session with.
 */
export function withConnections(ctx: Context, connections: number): Context {
  return { ...ctx, client: (target, options) => ctx.client(target, { ...options, connections }) };
}

/** The context of the running process. */
export function createContext(proc: NodeJS.Process, signal: AbortSignal, forced: AbortSignal): Context {
  const env = { ...proc.env };
  // The client secret stays with payorder: no program it starts (a browser, the system's opener)
  // inherits it from the process environment. payorder itself reads it from the context.
  delete proc.env.PAYORDER_CLIENT_SECRET_ID;
  return buildContext({
    forced,
    io: {
      stdout: proc.stdout,
      stderr: proc.stderr,
      stdin: proc.stdin,
      stdoutIsTTY: Boolean(proc.stdout.isTTY),
      stderrIsTTY: Boolean(proc.stderr.isTTY),
      stdinIsTTY: Boolean(proc.stdin.isTTY),
      stdoutColumns: proc.stdout.isTTY ? (proc.stdout.columns ?? 0) : 0,
      stderrColumns: proc.stderr.isTTY ? (proc.stderr.columns ?? 0) : 0,
    },
    env,
    signal,
  });
}
