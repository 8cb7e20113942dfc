/**
 * The code cache the launcher starts the CLI bundle with (src/code-cache.ts): where it goes, when it
 * is written, what is trusted. Unit tests of its parts, then the built binary in processes of its
 * own, each with a cache folder of its own.
 */
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import {
  cacheFileName,
  cacheFolder,
  commandOf,
  decodeCache,
  encodeCache,
  isPrivate,
} from '../src/code-cache.js';
import { BIN, tempDir } from './helpers/cli.js';

describe('the cache folder', () => {
  it('is $XDG_CACHE_HOME/payorder, else ~/.cache/payorder, on Linux and the other Unixes', () => {
    expect(cacheFolder({ XDG_CACHE_HOME: '/var/cache/me' }, 'linux', '/home/me')).toBe(
      '/var/cache/me/payorder',
    );
    expect(cacheFolder({}, 'linux', '/home/me')).toBe('/home/me/.cache/payorder');
    expect(cacheFolder({}, 'freebsd', '/home/me')).toBe('/home/me/.cache/payorder');
    // The XDG specification: a relative path is ignored.
    expect(cacheFolder({ XDG_CACHE_HOME: 'cache' }, 'linux', '/home/me')).toBe('/home/me/.cache/payorder');
  });

  it('is ~/Library/Caches/payorder on macOS and %LOCALAPPDATA%\\payorder\\Cache on Windows', () => {
    expect(cacheFolder({ XDG_CACHE_HOME: '/x' }, 'darwin', '/Users/me')).toBe(
      '/Users/me/Library/Caches/payorder',
    );
    expect(cacheFolder({ LOCALAPPDATA: 'C:/Users/me/AppData/Local' }, 'win32', '')).toBe(
      join('C:/Users/me/AppData/Local', 'payorder', 'Cache'),
    );
  });

  it('is none without a home folder (or LOCALAPPDATA on Windows): then nothing is cached', () => {
    expect(cacheFolder({}, 'linux', '')).toBeUndefined();
    expect(cacheFolder({}, 'win32', 'C:/Users/me')).toBeUndefined();
  });
});

describe('what a cache file is for', () => {
  const argv = (...args: string[]) => ['node', 'payorder', ...args];

  it('a command: its first words, at most two, before any option or value', () => {
    expect(commandOf(argv('order', 'get', '1f2e3d4c-0000-4000-8000-000000000000', '--json'))).toBe(
      'order get',
    );
    expect(commandOf(argv('config', 'set', 'default-output', 'table'))).toBe('config set');
    expect(commandOf(argv('order', '--help'))).toBe('order');
    expect(commandOf(argv('--help'))).toBe('');
    expect(commandOf(argv())).toBe('');
    expect(commandOf(argv('--env', 'stage', 'order', 'get'))).toBe('');
    expect(commandOf(argv('Order', 'get'))).toBe('');
  });

  it('a command of a build of the bundle and a Node: its version, its platform and the flags it runs with', () => {
    const node = { version: 'v24.21.0', arch: 'x64' as const, execArgv: [] as string[], env: {} };
    const build = '0123456789abcdef';
    const name = cacheFileName(build, node, 'order get');
    expect(name).toMatch(/^cli-0123456789abcdef-node24\.21\.0-[0-9a-f]{8}-[0-9a-f]{8}\.cache$/);
    for (const other of [
      cacheFileName(build, node, 'order create'),
      cacheFileName(build, node, ''),
      cacheFileName('fedcba9876543210', node, 'order get'),
      cacheFileName(build, { ...node, version: 'v22.13.0' }, 'order get'),
      cacheFileName(build, { ...node, arch: 'arm64' }, 'order get'),
      cacheFileName(build, { ...node, execArgv: ['--max-semi-space-size=2'] }, 'order get'),
      cacheFileName(build, { ...node, env: { NODE_OPTIONS: '--jitless' } }, 'order get'),
    ])
      expect(other).not.toBe(name);
  });
});

describe('a cache file', () => {
  it('holds the command whose run made it and V8’s data, and reads back as written', () => {
    const data = Buffer.from([0, 1, 2, 250, 255]);
    expect(decodeCache(encodeCache({ command: 'order get', data }))).toEqual({ command: 'order get', data });
    expect(decodeCache(encodeCache({ command: '', data }))).toEqual({ command: '', data });
  });

  it('anything else is not one: another file, an empty one, one cut short', () => {
    const whole = encodeCache({ command: 'order get', data: Buffer.from('data') });
    expect(decodeCache(Buffer.from('#!/bin/sh\nrm -rf /\n'))).toBeUndefined();
    expect(decodeCache(Buffer.alloc(0))).toBeUndefined();
    expect(decodeCache(whole.subarray(0, 30))).toBeUndefined();
  });

  it('is trusted only when it is this user’s and no one else may write it', () => {
    const stats = (uid: number, mode: number) => ({ uid, mode });
    expect(isPrivate(stats(1000, 0o100600), 1000)).toBe(true);
    expect(isPrivate(stats(1000, 0o40700), 1000)).toBe(true);
    expect(isPrivate(stats(1000, 0o100644), 1000)).toBe(true);
    expect(isPrivate(stats(1001, 0o100600), 1000)).toBe(false);
    expect(isPrivate(stats(1000, 0o100620), 1000)).toBe(false);
    expect(isPrivate(stats(1000, 0o40777), 1000)).toBe(false);
    // Where files have no owners (Windows), there is nothing to check.
    expect(isPrivate(stats(0, 0o100666), undefined)).toBe(true);
  });
});

/** Runs the built binary with the cache under `cacheHome`; `env` on top. */
async function payorder(cacheHome: string, args: string[], env: Record<string, string> = {}) {
  return execa(process.execPath, [BIN, ...args], {
    env: { PATH: process.env.PATH, HOME: cacheHome, XDG_CACHE_HOME: cacheHome, NO_COLOR: '1', ...env },
    extendEnv: false,
    reject: false,
    stdin: 'ignore',
  });
}

/** The cache files in `cacheHome`, each with its command and its file's inode (a new file, a new one). */
function cacheFiles(cacheHome: string) {
  const folder = join(cacheHome, 'payorder');
  if (!existsSync(folder)) return [];
  return readdirSync(folder)
    .sort()
    .map((name) => {
      const path = join(folder, name);
      return { name, path, command: decodeCache(readFileSync(path))?.command, inode: statSync(path).ino };
    });
}

/** The cache file of `command` in `cacheHome`. */
function fileOf(cacheHome: string, command: string) {
  const [file, ...others] = cacheFiles(cacheHome).filter((each) => each.command === command);
  expect(file, `the cache of "${command}"`).toBeDefined();
  expect(others).toEqual([]);
  return file!;
}

const modeOf = (path: string) => (statSync(path).mode & 0o777).toString(8);

/** Starts the sandbox as its own process, waits for it to listen and set its heap, and stops it. */
async function sandboxRun(home: string) {
  const sandbox = execa(process.execPath, [BIN, 'sandbox', '--port', '0', '--json'], {
    env: { PATH: process.env.PATH, HOME: home, XDG_CACHE_HOME: home },
    extendEnv: false,
    reject: false,
    stdin: 'ignore',
  });
  // The start line comes once it listens; then it sets its heap (src/heap-settings.ts).
  await new Promise((resolve) => sandbox.stdout!.once('data', resolve));
  await new Promise((resolve) => setTimeout(resolve, 200));
  sandbox.kill('SIGTERM');
  expect((await sandbox).exitCode).toBe(0);
}

describe.concurrent('the CLI started with its code cache (the built binary)', () => {
  it('a command’s first run writes its cache, 0600 in a 0700 folder; its next runs take it as it is', async () => {
    const home = tempDir('code-cache-');
    const first = await payorder(home, ['--help']);
    expect(first.exitCode).toBe(0);
    expect(first.stderr).toBe('');
    const overview = fileOf(home, '');
    expect(overview.name).toMatch(/^cli-[0-9a-f]{16}-node\d+\.\d+\.\d+-[0-9a-f]{8}-[0-9a-f]{8}\.cache$/);
    expect(modeOf(join(home, 'payorder'))).toBe('700');
    expect(modeOf(overview.path)).toBe('600');

    // From the cache, the same output; V8 took the cache, or the run would have written it again.
    const second = await payorder(home, ['--help']);
    expect(second.stdout).toBe(first.stdout);
    expect(fileOf(home, '')).toEqual(overview);

    expect((await payorder(home, ['order', '--help'])).exitCode).toBe(0);
    const order = fileOf(home, 'order');
    await payorder(home, ['order', '--help']);
    expect(cacheFiles(home)).toEqual([overview, order].sort((a, b) => (a.name < b.name ? -1 : 1)));
  });

  it('the sandbox’s run-time heap settings are undone before its cache is made: its next run takes it', async () => {
    const home = tempDir('code-cache-');
    await sandboxRun(home);
    const made = fileOf(home, 'sandbox');
    await sandboxRun(home);
    expect(fileOf(home, 'sandbox')).toEqual(made);
  });

  it('a cache V8 refuses, or a file that is not one, is written again; the run is the same', async () => {
    const home = tempDir('code-cache-');
    const expected = await payorder(home, ['--help']);
    const { path } = fileOf(home, '');
    for (const planted of [
      encodeCache({ command: '', data: Buffer.from('not what V8 makes') }),
      Buffer.from('not a cache at all'),
    ]) {
      writeFileSync(path, planted, { mode: 0o600 });
      const run = await payorder(home, ['--help']);
      expect(run.exitCode).toBe(0);
      expect(run.stderr).toBe('');
      expect(run.stdout).toBe(expected.stdout);
      expect(readFileSync(path)).not.toEqual(planted);
      expect(fileOf(home, '').path).toBe(path);
    }
  });

  it('a cache file others may write is not read, but written again; in a folder others may write, nothing is read or written', async () => {
    const home = tempDir('code-cache-');
    await payorder(home, ['--help']);
    const made = fileOf(home, '');
    chmodSync(made.path, 0o666);
    expect((await payorder(home, ['--help'])).exitCode).toBe(0);
    expect(fileOf(home, '').inode).not.toBe(made.inode);
    expect(modeOf(made.path)).toBe('600');

    const before = cacheFiles(home);
    chmodSync(join(home, 'payorder'), 0o777);
    expect((await payorder(home, ['order', '--help'])).exitCode).toBe(0);
    expect(cacheFiles(home)).toEqual(before);
  });

  it.skipIf(process.getuid?.() !== 0)(
    'a cache file of another user is not read, but written again (needs root to give a file away)',
    async () => {
      const home = tempDir('code-cache-');
      await payorder(home, ['--help']);
      const made = fileOf(home, '');
      chownSync(made.path, 65534, 65534);
      expect((await payorder(home, ['--help'])).exitCode).toBe(0);
      expect(fileOf(home, '').inode).not.toBe(made.inode);
      expect(statSync(made.path).uid).toBe(0);
    },
  );

  it('nothing is cached with NODE_DISABLE_COMPILE_CACHE, nor where the folder cannot be made; the run is the same', async () => {
    const home = tempDir('code-cache-');
    const off = await payorder(home, ['--help'], { NODE_DISABLE_COMPILE_CACHE: '1' });
    expect(off.exitCode).toBe(0);
    expect(existsSync(join(home, 'payorder'))).toBe(false);

    const blocked = join(home, 'a-file');
    writeFileSync(blocked, '');
    const run = await payorder(home, ['--help'], { XDG_CACHE_HOME: blocked });
    expect(run.exitCode).toBe(0);
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe(off.stdout);
  });

  it('keeps at most 32 cache files, the least recently written going first', async () => {
    const home = tempDir('code-cache-');
    const folder = join(home, 'payorder');
    mkdirSync(folder, { mode: 0o700 });
    const old = Array.from({ length: 33 }, (_, i) =>
      join(folder, `cli-${String(i).padStart(16, '0')}-node1.0.0-00000000-00000000.cache`),
    );
    old.forEach((path, i) => {
      writeFileSync(path, 'old', { mode: 0o600 });
      const when = new Date(Date.UTC(2026, 0, 1 + i));
      utimesSync(path, when, when);
    });
    await payorder(home, ['--help']);
    const left = readdirSync(folder);
    expect(left).toHaveLength(32);
    expect(left).toEqual(expect.arrayContaining(old.slice(2).map((path) => path.slice(folder.length + 1))));
  });
});
