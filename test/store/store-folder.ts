/**
 * Store folders for the store tests: a folder of the test's own holding a store, the environment
 * that points payorder at it, and checks of what a refusal must look like.
 */
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { CliError } from '../../src/errors.js';
import { openStore } from '../../src/store/profile-store.js';
import { SECRET, SHOP, tempDir } from '../helpers/cli.js';
import type { RunResult } from '../helpers/context.js';
import { rejection } from '../helpers/refusal.js';

/** A store as payorder writes it: a login on stage with its addresses, and a default. */
export const STORED = {
  defaults: { output: 'json' },
  environments: {
    stage: {
      credentials: SHOP,
      api: 'v2',
      addresses: { v2: { auth: 'https://auth.shop.example', checkout: 'https://checkout.shop.example' } },
      loggedInAt: '2026-05-01T10:00:00.000Z',
    },
  },
};

/**
 * STORED with two named profiles, written in the file after the default one and not by name, each
 * with a login whose secret is in the file.
 */
export const STORED_WITH_PROFILES = {
  ...STORED,
  profiles: {
    'shop-b': { environments: { sandbox: { credentials: { ...SHOP, username: 'second-shop' } } } },
    acme: { environments: { stage: { credentials: { ...SHOP, clientId: 'acme-client' }, api: 'v1' } } },
  },
};

/** Whether this process may chown files to another user (and reads every file whatever its mode). */
export const IS_ROOT = process.geteuid?.() === 0;

/** The user files are given to in tests of "owned by another user". */
export const NOBODY = 65534;

export interface StoreFolder {
  dir: string;
  file: string;
  /** The environment that makes payorder use this folder. */
  env: Record<string, string>;
  store(): ReturnType<typeof openStore>;
}

/** A store folder `payorder` inside a fresh temporary folder, 0700, with no store in it yet. */
export function emptyStoreFolder(): StoreFolder {
  const dir = join(tempDir(), 'payorder');
  mkdirSync(dir, { mode: 0o700 });
  return at(dir);
}

/** A 0700 store folder holding `content` in a 0600 config.json: a string verbatim, anything else as JSON. */
export function storeFolder(content: unknown = STORED): StoreFolder {
  const folder = emptyStoreFolder();
  writeFileSync(folder.file, typeof content === 'string' ? content : JSON.stringify(content), {
    mode: 0o600,
  });
  return folder;
}

/** The store at `dir`, whatever is there. */
export function at(dir: string): StoreFolder {
  return {
    dir,
    file: join(dir, 'config.json'),
    env: { PAYORDER_CONFIG_DIR: dir, HOME: dir },
    store: () => openStore({ PAYORDER_CONFIG_DIR: dir }),
  };
}

/** The permission bits of a path, in octal ("700", "1777"). */
export const modeOf = (path: string) => (statSync(path).mode & 0o7777).toString(8);

/** What is in a folder and in its files, to show that nothing was written. */
export function snapshot(dir: string): Record<string, string> {
  const entries: Record<string, string> = {};
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    const stats = statSync(path, { throwIfNoEntry: false });
    entries[name] = stats?.isFile() ? readFileSync(path, 'utf8') : stats?.isDirectory() ? '(folder)' : '(?)';
  }
  return entries;
}

/** The error `action` fails with; the test fails when it does not fail with a CliError. */
export const failureOf = (action: () => unknown): Promise<CliError> =>
  rejection(action, 'the store did not refuse');

/** A config error (exit 2) that names `path` and the problem, and says what to do. */
export function expectConfigError(error: CliError, path: string, problem: RegExp | string): void {
  expect(error.kind).toBe('config');
  expect(error.exitCode).toBe(2);
  expect(error.message).toContain(path);
  if (typeof problem === 'string') expect(error.message).toContain(problem);
  else expect(error.message).toMatch(problem);
  // What to do about it, on one line.
  expect(error.details.hint).toMatch(/^[^\n]+$/);
  expect(error.message).not.toContain(SECRET);
}

/** What a user sees of a store error: one error line naming the path and the problem, a hint, the exit code. */
export function expectShownError(
  result: RunResult,
  exitCode: number,
  path: string,
  problem: RegExp | string,
) {
  expect(result.stderr).not.toContain('unexpected failure');
  expect(result.exitCode).toBe(exitCode);
  const line = result.stderr.split('\n').find((text) => text.startsWith('error: ')) ?? '';
  expect(line).toContain(path);
  if (typeof problem === 'string') expect(line).toContain(problem);
  else expect(line).toMatch(problem);
  expect(result.stderr).toContain('hint: ');
  expect(result.stdout).toBe('');
  expect(result.stderr).not.toContain(SECRET);
}
