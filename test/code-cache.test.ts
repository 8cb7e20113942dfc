/**
 * The code cache the launcher starts the CLI bundle with (src/code-cache.ts): where it goes, when it
 * is written, what is trusted. Unit tests of its parts, then the built binary in processes of its
 * own, each with a cache folder of its own.
 */
import {
  chmodSync,
  chownSync,
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it, vi } from 'vitest';
import {
  cacheFileName,
  cacheFolder,
  candidateCommands,
  decodeCache,
  encodeCache,
  isPrivate,
  sourceStamp,
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

  it('a run looks for the commands its first words may name, longest first, then the overview', () => {
    expect(candidateCommands(argv('order', 'get', '1f2e3d4c-0000-4000-8000-000000000000', '--json'))).toEqual(
      ['order get', 'order', ''],
    );
    expect(candidateCommands(argv('config', 'set', 'default-output', 'table'))).toEqual([
      'config set',
      'config',
      '',
    ]);
    expect(candidateCommands(argv('order', '--help'))).toEqual(['order', '']);
    expect(candidateCommands(argv('--help'))).toEqual(['']);
    expect(candidateCommands(argv())).toEqual(['']);
    expect(candidateCommands(argv('--env', 'stage', 'order', 'get'))).toEqual(['']);
    expect(candidateCommands(argv('Order', 'get'))).toEqual(['']);
  });

  it('a command of a build of the bundle and a Node: its version, its architecture and the flags it runs with', () => {
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
      cacheFileName(build, { ...node, execArgv: ['--max-semi-space-size=4'] }, 'order get'),
      cacheFileName(build, { ...node, env: { NODE_OPTIONS: '--jitless' } }, 'order get'),
    ])
      expect(other).not.toBe(name);
  });
});

describe('a cache file', () => {
  it('holds the command whose run made it, the bundle file it was made from and V8’s data', () => {
    const data = Buffer.from([0, 1, 2, 250, 255]);
    const source = sourceStamp({ size: 1_000_000, mtimeMs: 499_137_600_000, ino: 42 });
    expect(source).toBe('1000000:499137600000:42');
    expect(decodeCache(encodeCache({ command: 'order get', source, data }))).toEqual({
      command: 'order get',
      source,
      data,
    });
    expect(decodeCache(encodeCache({ command: '', source, data }))).toEqual({ command: '', source, data });
  });

  it('anything else is not one: another file, an empty one, one cut short', () => {
    const whole = encodeCache({ command: 'order get', source: '1:2:3', data: Buffer.from('data') });
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

describe('the CLI bundle', () => {
  const bundle = join(dirname(BIN), '../dist/cli.cjs');

  it('is strict from its first statement, ASCII (read as latin1), and ends with the line that names its build', () => {
    const text = readFileSync(bundle, 'utf8');
    expect(text.startsWith('"use strict";')).toBe(true);
    expect(/[^\x00-\x7f]/.exec(text)).toBeNull();
    expect(text).toMatch(/\n\/\/# build=[0-9a-f]{16}\n$/);
  });
});

/** Runs the built binary (or the one at `bin`) with HOME and the cache at `home`; `env` on top. */
async function payorder(home: string, args: string[], env: Record<string, string> = {}, bin = BIN) {
  return execa(process.execPath, [bin, ...args], {
    env: { PATH: process.env.PATH, HOME: home, XDG_CACHE_HOME: home, NO_COLOR: '1', ...env },
    extendEnv: false,
    reject: false,
    stdin: 'ignore',
  });
}

/** The cache folder of a run given `home` (payorder above). */
const folderOf = (home: string) => cacheFolder({ XDG_CACHE_HOME: home }, process.platform, home)!;

/** The cache files of a run given `home`, each with its command and its file's inode (a new file, a new one). */
function cacheFiles(home: string) {
  const folder = folderOf(home);
  if (!existsSync(folder)) return [];
  return readdirSync(folder)
    .sort()
    .map((name) => {
      const path = join(folder, name);
      const header = decodeCache(readFileSync(path));
      return { name, path, command: header?.command, source: header?.source, inode: statSync(path).ino };
    });
}

/** The cache file of `command`. */
function fileOf(home: string, command: string) {
  const [file, ...others] = cacheFiles(home).filter((each) => each.command === command);
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

// On Windows a run without LOCALAPPDATA (the tests give payorder no other variable) caches nothing.
describe.skipIf(process.platform === 'win32')(
  'the CLI started with its code cache (the built binary)',
  { concurrent: true },
  () => {
    it('a command’s first run writes its cache, 0600 in a 0700 folder; its next runs take it as it is', async () => {
      const home = tempDir('code-cache-');
      const first = await payorder(home, ['--help']);
      expect(first.exitCode).toBe(0);
      expect(first.stderr).toBe('');
      const overview = fileOf(home, '');
      expect(overview.name).toMatch(/^cli-[0-9a-f]{16}-node\d+\.\d+\.\d+-[0-9a-f]{8}-[0-9a-f]{8}\.cache$/);
      expect(modeOf(folderOf(home))).toBe('700');
      expect(modeOf(overview.path)).toBe('600');

      // From the cache, the same output; V8 took the cache, or the run would have written it again.
      const second = await payorder(home, ['--help']);
      expect(second.stdout).toBe(first.stdout);
      expect(fileOf(home, '')).toEqual(overview);

      expect((await payorder(home, ['config', 'list', '--help'])).exitCode).toBe(0);
      const list = fileOf(home, 'config list');
      await payorder(home, ['config', 'list', '--help']);
      expect(cacheFiles(home)).toEqual([overview, list].sort((a, b) => (a.name < b.name ? -1 : 1)));
    });

    it('a file is named by the command tree, never by a word of the user’s', async () => {
      const home = tempDir('code-cache-');
      const run = await payorder(home, ['migrate-check', 'billing-service']);
      expect(run.exitCode).not.toBe(0);
      expect(cacheFiles(home).map(({ command }) => command)).toEqual(['migrate-check']);
      for (const { path } of cacheFiles(home))
        expect(readFileSync(path).includes('billing-service')).toBe(false);
      // The next run of the command, with another folder, finds its file.
      const made = fileOf(home, 'migrate-check');
      await payorder(home, ['migrate-check', 'shop-folder']);
      expect(cacheFiles(home)).toEqual([made]);
    });

    it('the sandbox’s run-time heap settings are undone before its cache is made: its next run takes it', async () => {
      const home = tempDir('code-cache-');
      await sandboxRun(home);
      const made = fileOf(home, 'sandbox');
      await sandboxRun(home);
      expect(fileOf(home, 'sandbox')).toEqual(made);
    });

    it('a batch’s cache is made before it sets its compiler (never put back): its next run takes it', async () => {
      const home = tempDir('code-cache-');
      const input = join(home, 'lines.ndjson');
      // A line refused before anything is sent: the batch begins, and needs no service.
      writeFileSync(input, `${JSON.stringify({ amount: 'x', description: 'd' })}\n`);
      const batch = () =>
        payorder(home, ['order', 'create', '--env', 'sandbox', '--input', input, '-o', 'ndjson'], {
          PAYORDER_USERNAME: 'u',
          PAYORDER_CLIENT_ID: 'c',
          PAYORDER_CLIENT_SECRET_ID: 's',
        });
      expect((await batch()).stdout).toContain('"outcome":"failed"');
      const made = fileOf(home, 'order create');
      expect((await batch()).exitCode).toBe(1);
      expect(fileOf(home, 'order create')).toEqual(made);
    });

    it('a long-running command writes its cache as its long work begins, not when it ends', async () => {
      const home = tempDir('code-cache-');
      const sandbox = execa(process.execPath, [BIN, 'sandbox', '--port', '0', '--json'], {
        env: { PATH: process.env.PATH, HOME: home, XDG_CACHE_HOME: home },
        extendEnv: false,
        reject: false,
        stdin: 'ignore',
      });
      try {
        await new Promise((resolve) => sandbox.stdout!.once('data', resolve));
        // Still serving: its file is there already (made after hours of serving, it lacked the start-up).
        await vi.waitFor(() => expect(cacheFiles(home).map(({ command }) => command)).toEqual(['sandbox']), {
          timeout: 10_000,
        });
        const made = fileOf(home, 'sandbox');
        sandbox.kill('SIGTERM');
        expect((await sandbox).exitCode).toBe(0);
        // Its end writes nothing more.
        expect(fileOf(home, 'sandbox')).toEqual(made);
      } finally {
        sandbox.kill();
      }
    });

    it('a cache V8 refuses, or a file that is not one, is written again; the run is the same', async () => {
      const home = tempDir('code-cache-');
      const expected = await payorder(home, ['--help']);
      const { path, source } = fileOf(home, '');
      for (const planted of [
        encodeCache({ command: '', source: source!, data: Buffer.from('not what V8 makes') }),
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

    it('a bundle changed in place (same build line, same length) is never given the cache made for it before', async () => {
      // A copy of the package's launcher and bundle, so that the test can change its bundle.
      const home = tempDir('code-cache-');
      const root = tempDir('code-cache-package-');
      for (const file of ['package.json', 'bin/payorder.js', 'dist/code-cache.js', 'dist/cli.cjs']) {
        mkdirSync(dirname(join(root, file)), { recursive: true });
        copyFileSync(join(dirname(BIN), '..', file), join(root, file));
      }
      const bin = join(root, 'bin/payorder.js');
      await payorder(home, ['--help'], {}, bin);
      const made = fileOf(home, '');
      await payorder(home, ['--help'], {}, bin);
      expect(fileOf(home, '')).toEqual(made);
      // The same text, as a patch of the same length would leave it: another file all the same.
      const text = readFileSync(join(root, 'dist/cli.cjs'));
      rmSync(join(root, 'dist/cli.cjs'));
      writeFileSync(join(root, 'dist/cli.cjs'), text);
      await payorder(home, ['--help'], {}, bin);
      const remade = fileOf(home, '');
      expect(remade.inode).not.toBe(made.inode);
      expect(remade.source).not.toBe(made.source);
    });

    it('a cache file others may write, or a link, is not read but written again; in a folder others may write, nothing is read or written', async () => {
      const home = tempDir('code-cache-');
      await payorder(home, ['--help']);
      const made = fileOf(home, '');
      chmodSync(made.path, 0o666);
      expect((await payorder(home, ['--help'])).exitCode).toBe(0);
      const rewritten = fileOf(home, '');
      expect(rewritten.inode).not.toBe(made.inode);
      expect(modeOf(made.path)).toBe('600');

      // A link to a good cache elsewhere: replaced by a file of its own, the other file untouched.
      const elsewhere = join(tempDir('code-cache-other-'), 'cache');
      copyFileSync(rewritten.path, elsewhere);
      const good = readFileSync(elsewhere);
      rmSync(rewritten.path);
      symlinkSync(elsewhere, rewritten.path);
      expect((await payorder(home, ['--help'])).exitCode).toBe(0);
      expect(readFileSync(elsewhere)).toEqual(good);
      expect(fileOf(home, '').inode).not.toBe(statSync(elsewhere).ino);
      expect(lstatSync(rewritten.path).isSymbolicLink()).toBe(false);

      const before = cacheFiles(home);
      chmodSync(folderOf(home), 0o777);
      expect((await payorder(home, ['order', '--help'])).exitCode).toBe(0);
      expect(cacheFiles(home)).toEqual(before);
    });

    it.skipIf(process.getuid?.() !== 0)(
      'a cache file of another user is not read but written again; no folder is made in another user’s (needs root)',
      async () => {
        const home = tempDir('code-cache-');
        await payorder(home, ['--help']);
        const made = fileOf(home, '');
        chownSync(made.path, 65534, 65534);
        expect((await payorder(home, ['--help'])).exitCode).toBe(0);
        expect(fileOf(home, '').inode).not.toBe(made.inode);
        expect(statSync(made.path).uid).toBe(0);

        // As under sudo with the user's HOME: the user's folder is not root's to fill.
        const users = tempDir('code-cache-home-');
        chownSync(users, 65534, 65534);
        const run = await payorder(users, ['--help'], { XDG_CACHE_HOME: join(users, '.cache') });
        expect(run.exitCode).toBe(0);
        expect(readdirSync(users)).toEqual([]);
      },
    );

    it('nothing is cached with NODE_DISABLE_COMPILE_CACHE, nor where the folder cannot be made; the run is the same', async () => {
      const home = tempDir('code-cache-');
      const off = await payorder(home, ['--help'], { NODE_DISABLE_COMPILE_CACHE: '1' });
      expect(off.exitCode).toBe(0);
      expect(existsSync(folderOf(home))).toBe(false);

      const blocked = join(home, 'a-file');
      writeFileSync(blocked, '');
      const run = await payorder(home, ['--help'], { XDG_CACHE_HOME: blocked });
      expect(run.exitCode).toBe(0);
      expect(run.stderr).toBe('');
      expect(run.stdout).toBe(off.stdout);
    });

    it('keeps at most 32 cache files, the least recently written going first, and no temporary file a dead run left', async () => {
      const home = tempDir('code-cache-');
      const folder = folderOf(home);
      mkdirSync(folder, { recursive: true, mode: 0o700 });
      const old = Array.from({ length: 33 }, (_, i) =>
        join(folder, `cli-${String(i).padStart(16, '0')}-node1.0.0-00000000-00000000.cache`),
      );
      const dead = join(folder, 'cli-0000000000000000-node1.0.0-00000000-00000000.cache.4242-0badcafe.tmp');
      for (const [i, path] of [...old, dead].entries()) {
        writeFileSync(path, 'old', { mode: 0o600 });
        const when = new Date(Date.UTC(2026, 0, 1 + i));
        utimesSync(path, when, when);
      }
      await payorder(home, ['--help']);
      const left = readdirSync(folder);
      expect(left).toHaveLength(32);
      expect(left).toEqual(expect.arrayContaining(old.slice(2).map((path) => path.slice(folder.length + 1))));
    });
  },
);
