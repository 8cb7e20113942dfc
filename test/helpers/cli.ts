/**
 * Runs payorder for a test, with its own config folder, and checks every output for leaked secrets,
 * tokens and stack traces as it goes: in process by default (the real command tree and context
 * wiring, a test context for I/O), or as the built binary (bin/payorder.js → dist/) for the tests
 * that need a real process: signals, terminals, packaging.
 */
import { mkdtempSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { execa, type Options } from 'execa';
import { expect, inject } from 'vitest';
import { runInProcess } from './context.js';

export const BIN = resolve(import.meta.dirname, '../../bin/payorder.js');

/** The secret of the account the end-to-end tests log in with; it must never be printed. */
export const SECRET = 'Sup3r-Secret-Value-9f2c';
export const SHOP = { username: 'shop-owner', clientId: 'shop-client-7', clientSecretId: SECRET };
export const JWT = /eyJ[\w-]+\.[\w-]+\.[\w-]+/;

/**
 * The flags of an order for `order create`: a description and the shop's two URLs, plus the amount
 * when one is given (tests that vary the amount pass it themselves).
 */
export function orderFlags({
  amount,
  description = 'Invoice 42',
}: {
  amount?: string;
  description?: string;
} = {}) {
  return [
    ...(amount === undefined ? [] : ['--amount', amount]),
    '--description',
    description,
    '--success',
    'https://shop.example/ok',
    '--fail',
    'https://shop.example/ko',
  ];
}

export interface Result {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/** A fresh folder inside the run's temporary root (removed when the run ends). */
export function tempDir(prefix = 'payorder-test-'): string {
  return mkdtempSync(join(inject('tempRoot'), prefix));
}

export interface CliOptions {
  env?: Record<string, string | undefined>;
  input?: string;
  /** The command prints a token by design (payorder token): skip the token leak check on stdout. */
  printsToken?: boolean;
  timeout?: number;
  cwd?: string;
  /** Run the built binary in a process of its own instead of in process. */
  spawn?: boolean;
}

/**
 * The cache folder of every payorder a test starts as a process of its own: one for the whole run,
 * so Node's compile cache (bin/payorder.js) is made once, not in each test's home folder.
 */
export const cacheEnv = () => ({ XDG_CACHE_HOME: join(inject('tempRoot'), 'cache') });

/**
 * The whole environment a test gives payorder: a config folder, a data folder beside it (each test
 * its own: no batch sees another test's automatic journals), and a sandbox for every address.
 */
export function cliEnv(
  base: { configDir: string; url?: string },
  extra: Record<string, string | undefined> = {},
) {
  return {
    PATH: process.env.PATH,
    HOME: base.configDir,
    ...cacheEnv(),
    PAYORDER_CONFIG_DIR: base.configDir,
    PAYORDER_DATA_DIR: `${base.configDir}.data`,
    ...(base.url ? { PAYORDER_AUTH_URL: base.url, PAYORDER_CHECKOUT_URL: base.url } : {}),
    ...extra,
  };
}

/** Runs a shell command line on a pseudo-terminal (`script`) and returns what the screen showed. */
export async function onTerminal(command: string, env: Record<string, string | undefined>): Promise<Result> {
  const result = await execa('script', ['-qefc', command, '/dev/null'], {
    env,
    extendEnv: false,
    reject: false,
    input: '',
    timeout: 15_000,
  });
  return {
    exitCode: result.exitCode ?? -1,
    stdout: String(result.stdout).replace(/\r/g, ''),
    stderr: String(result.stderr),
  };
}

/** A CLI of its own: a new, empty config folder, and no sandbox. */
export const freshCli = () => cliFor({ configDir: tempDir() });

/** A CLI bound to one config folder and one sandbox. */
export function cliFor(base: { configDir: string; url?: string; env?: Record<string, string> }) {
  const baseEnv = (extra: Record<string, string | undefined> = {}) => cliEnv(base, { ...base.env, ...extra });
  return async function run(args: string[], options: CliOptions = {}): Promise<Result> {
    if (!options.spawn && options.cwd === undefined) {
      const result = await runInProcess(args, { env: baseEnv(options.env), stdin: options.input });
      expectNoLeak(result, options.printsToken);
      return result;
    }
    const execaOptions: Options = {
      reject: false,
      extendEnv: false,
      env: baseEnv(options.env),
      input: options.input,
      timeout: options.timeout ?? 20_000,
      cwd: options.cwd,
      stripFinalNewline: false,
    };
    const child = await execa(process.execPath, [BIN, ...args], execaOptions);
    const result = {
      exitCode: child.exitCode ?? -1,
      stdout: String(child.stdout),
      stderr: String(child.stderr),
    };
    expectNoLeak(result, options.printsToken);
    return result;
  };
}

export function expectNoLeak(result: Result, printsToken = false): void {
  for (const stream of ['stdout', 'stderr'] as const) {
    expect(result[stream], `${stream} leaks the secret`).not.toContain(SECRET);
    if (!(printsToken && stream === 'stdout'))
      expect(result[stream], `${stream} leaks a token`).not.toMatch(JWT);
    expect(result[stream], `${stream} shows a stack trace`).not.toMatch(/\n\s+at .+:\d+:\d+/);
  }
}
