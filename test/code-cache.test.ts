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

  it('a build of the bundle and a Node: its version, its platform and the flags it runs with', () => {
    const node = { version: 'v24.21.0', arch: 'x64' as const, execArgv: [] as string[], env: {} };
    const name = cacheFileName('0123456789abcdef', node);
    expect(name).toMatch(/^cli-0123456789abcdef-node24\.21\.0-[0-9a-f]{8}\.cache$/);
    expect(cacheFileName('fedcba9876543210', node)).not.toBe(name);
    expect(cacheFileName('0123456789abcdef', { ...node, version: 'v22.13.0' })).not.toBe(name);
    expect(cacheFileName('0123456789abcdef', { ...node, arch: 'arm64' })).not.toBe(name);
    expect(cacheFileName('0123456789abcdef', { ...node, execArgv: ['--max-semi-space-size=2'] })).not.toBe(
      name,
    );
    expect(cacheFileName('0123456789abcdef', { ...node, env: { NODE_OPTIONS: '--jitless' } })).not.toBe(name);
  });
});

describe('a cache file', () => {
  it('holds the commands it was made by and V8’s data, and reads back as written', () => {
    const data = Buffer.from([0, 1, 2, 250, 255]);
    expect(decodeCache(encodeCache({ commands: ['', 'order get'], data }))).toEqual({
      commands: ['', 'order get'],
      data,
    });
    expect(decodeCache(encodeCache({ commands: [], data }))).toEqual({ commands: [], data });
  });

  it('anything else is not one: another file, a cut one, a list that is not a list of commands', () => {
    const whole = encodeCache({ commands: ['order get'], data: Buffer.from('data') });
    expect(decodeCache(Buffer.from('#!/bin/sh\nrm -rf /\n'))).toBeUndefined();
    expect(decodeCache(Buffer.alloc(0))).toBeUndefined();
    expect(decodeCache(whole.subarray(0, 30))).toBeUndefined();
    const text = whole.toString('latin1').replace('["order get"]', '{"order":"x"}');
    expect(decodeCache(Buffer.from(text, 'latin1'))).toBeUndefined();
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

/** The cache files in `cacheHome`, with the commands each lists. */
function cacheFiles(cacheHome: string) {
  const folder = join(cacheHome, 'payorder');
  if (!existsSync(folder)) return [];
  return readdirSync(folder).map((name) => {
    const path = join(folder, name);
    return { name, path, commands: decodeCache(readFileSync(path))?.commands };
  });
}

/** The path of the one cache file in `cacheHome`. */
function onlyFile(cacheHome: string): string {
  const files = cacheFiles(cacheHome);
  expect(files).toHaveLength(1);
  return files[0]!.path;
}

const modeOf = (path: string) => (statSync(path).mode & 0o777).toString(8);

describe.concurrent('the CLI started with its code cache (the built binary)', () => {
  it('the first run writes the cache, 0600 in a 0700 folder; a run of another command adds to it, the same command does not', async () => {
    const home = tempDir('code-cache-');
    const first = await payorder(home, ['--help']);
    expect(first.exitCode).toBe(0);
    expect(first.stderr).toBe('');
    const [file, ...others] = cacheFiles(home);
    expect(others).toEqual([]);
    expect(file!.name).toMatch(/^cli-[0-9a-f]{16}-node\d+\.\d+\.\d+-[0-9a-f]{8}\.cache$/);
    expect(file!.commands).toEqual(['']);
    expect(modeOf(join(home, 'payorder'))).toBe('700');
    expect(modeOf(file!.path)).toBe('600');

    // From the cache: the same output. V8 took the cache, or the second run would list only its own.
    const second = await payorder(home, ['--help']);
    expect(second.stdout).toBe(first.stdout);
    expect(cacheFiles(home)[0]!.commands).toEqual(['']);
    const order = await payorder(home, ['order', '--help']);
    expect(order.exitCode).toBe(0);
    expect(cacheFiles(home)).toEqual([
      expect.objectContaining({ name: file!.name, commands: ['', 'order'] }),
    ]);
  });

  it('the sandbox’s run-time heap settings are undone before its cache is made: the next run takes it', async () => {
    const home = tempDir('code-cache-');
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
    expect(cacheFiles(home)).toEqual([expect.objectContaining({ commands: ['sandbox'] })]);
    expect((await payorder(home, ['--help'])).exitCode).toBe(0);
    expect(cacheFiles(home)).toEqual([expect.objectContaining({ commands: ['sandbox', ''] })]);
  });

  it('a cache V8 refuses, or a file that is not one, is replaced; the run is the same', async () => {
    const home = tempDir('code-cache-');
    const expected = await payorder(home, ['--version']);
    await payorder(home, ['--help']);
    const path = onlyFile(home);
    for (const planted of [
      encodeCache({ commands: ['', 'order'], data: Buffer.from('not what V8 makes') }),
      Buffer.from('not a cache at all'),
    ]) {
      writeFileSync(path, planted, { mode: 0o600 });
      const run = await payorder(home, ['--help']);
      expect(run.exitCode).toBe(0);
      expect(run.stderr).toBe('');
      expect(run.stdout).toContain('Usage: payorder');
      expect(cacheFiles(home)).toEqual([expect.objectContaining({ path, commands: [''] })]);
    }
    expect((await payorder(home, ['--version'])).stdout).toBe(expected.stdout);
  });

  it('a cache file others may write is not read, but replaced; in a folder others may write, nothing is read or written', async () => {
    const home = tempDir('code-cache-');
    await payorder(home, ['--help']);
    const path = onlyFile(home);
    // Made by a run of --help: V8 would take it. Not read, the run lists only its own command.
    const made = readFileSync(path);
    chmodSync(path, 0o666);
    expect((await payorder(home, ['config', '--help'])).exitCode).toBe(0);
    expect(cacheFiles(home)).toEqual([expect.objectContaining({ path, commands: ['config'] })]);
    expect(modeOf(path)).toBe('600');

    writeFileSync(path, made);
    chmodSync(join(home, 'payorder'), 0o777);
    expect((await payorder(home, ['order', '--help'])).exitCode).toBe(0);
    expect(readFileSync(path)).toEqual(made);
  });

  it.skipIf(process.getuid?.() !== 0)(
    'a cache file of another user is not read, but replaced (needs root to give a file away)',
    async () => {
      const home = tempDir('code-cache-');
      await payorder(home, ['--help']);
      const path = onlyFile(home);
      chownSync(path, 65534, 65534);
      expect((await payorder(home, ['order', '--help'])).exitCode).toBe(0);
      expect(cacheFiles(home)).toEqual([expect.objectContaining({ path, commands: ['order'] })]);
      expect(statSync(path).uid).toBe(0);
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

  it('keeps at most eight cache files, the least recently written going first', async () => {
    const home = tempDir('code-cache-');
    const folder = join(home, 'payorder');
    mkdirSync(folder, { mode: 0o700 });
    const old = Array.from({ length: 9 }, (_, i) =>
      join(folder, `cli-${String(i).padStart(16, '0')}-node1.0.0-00000000.cache`),
    );
    old.forEach((path, i) => {
      writeFileSync(path, 'old', { mode: 0o600 });
      const when = new Date(Date.UTC(2026, 0, 1 + i));
      utimesSync(path, when, when);
    });
    await payorder(home, ['--help']);
    const left = readdirSync(folder).sort();
    expect(left).toHaveLength(8);
    expect(left).toEqual(expect.arrayContaining(old.slice(2).map((path) => path.slice(folder.length + 1))));
  });
});
