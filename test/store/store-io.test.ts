/**
 * The file system refusing the store: permissions are a config error (exit 2), a full disk a local
 * failure (exit 5), never an "unexpected failure", and a write that fails leaves the store exactly
 * as it was. Permission tests need a user the permissions apply to: as root they run payorder as
 * nobody; the full disk is a small tmpfs in a private mount namespace, made full.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, copyFileSync, cpSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import Conf from 'conf';
import { execa } from 'execa';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { BIN, cacheEnv, tempDir } from '../helpers/cli.js';
import { type RunResult, runInProcess } from '../helpers/context.js';
import {
  expectShownError,
  failureOf,
  IS_ROOT,
  NOBODY,
  STORED,
  type StoreFolder,
  snapshot,
  storeFolder,
} from './store-folder.js';

const STORED_TEXT = JSON.stringify(STORED);

describe('permissions', () => {
  // As root the files are given to nobody and payorder runs as nobody, in a process of its own; the
  // run's temporary folder must then let nobody through (only through: o+x, no listing).
  const root = inject('tempRoot');
  const rootMode = statSync(root).mode & 0o7777;
  // nobody runs a copy of the built CLI, and of the Node running the tests, inside that folder: the
  // clone (and the Node it installed) may sit where nobody cannot go (a home folder of mode 0700, a
  // folder of mktemp -d).
  const copy = join(root, 'payorder-for-nobody');
  const node = join(copy, 'node');
  beforeAll(() => {
    if (!IS_ROOT) return;
    chmodSync(root, rootMode | 0o001);
    for (const part of ['bin', 'dist', 'package.json'])
      cpSync(join(dirname(BIN), '..', part), join(copy, part), { recursive: true });
    copyFileSync(process.execPath, node);
    spawnSync('chmod', ['-R', 'a+rX', copy]);
  });
  afterAll(() => {
    if (IS_ROOT) chmodSync(root, rootMode);
  });

  // A folder left without write access cannot be removed by a user who is not root.
  const restore: (() => void)[] = [];
  afterEach(() => {
    for (const undo of restore.splice(0)) undo();
  });

  /** A store folder of the user payorder runs as in these tests. */
  function usersFolder(): StoreFolder {
    const folder = storeFolder();
    if (IS_ROOT)
      for (const path of [dirname(folder.dir), folder.dir, folder.file]) chownSync(path, NOBODY, NOBODY);
    return folder;
  }

  function chmodForTest(path: string, mode: number) {
    const before = statSync(path).mode & 0o7777;
    chmodSync(path, mode);
    restore.push(() => chmodSync(path, before));
  }

  async function runAsUser(args: string[], folder: StoreFolder): Promise<RunResult> {
    if (!IS_ROOT) return runInProcess(args, { env: folder.env });
    const child = await execa(node, [join(copy, 'bin/payorder.js'), ...args], {
      uid: NOBODY,
      gid: NOBODY,
      env: { PATH: process.env.PATH, ...folder.env },
      extendEnv: false,
      reject: false,
      timeout: 20_000,
    });
    return { exitCode: child.exitCode ?? -1, stdout: String(child.stdout), stderr: String(child.stderr) };
  }

  it('a folder payorder may not write to: exit 2 naming the folder; the store is untouched', async () => {
    const folder = usersFolder();
    chmodForTest(folder.dir, 0o500);
    const result = await runAsUser(['config', 'set', 'default-output', 'table'], folder);
    expectShownError(result, 2, folder.dir, 'cannot be written: permission denied');
    expect(result.stderr).toContain('chmod u+w');
    expect(snapshot(folder.dir)).toEqual({ 'config.json': STORED_TEXT });
  });

  it('a store file payorder may not read: exit 2 naming the file and what to do', async () => {
    const folder = usersFolder();
    chmodForTest(folder.file, 0o200);
    const result = await runAsUser(['config', 'get', 'default-output'], folder);
    expectShownError(result, 2, folder.file, 'cannot be read: permission denied');
    expect(result.stderr).toContain('chmod 600');
  });
});

/** How to get a private mount namespace here, if at all: as root, or through a user namespace. */
function mountNamespace(): string[] | undefined {
  const probe = tempDir('payorder-probe-');
  for (const flags of [['--mount'], ['--user', '--map-root-user', '--mount']]) {
    const run = spawnSync('unshare', [
      ...flags,
      'sh',
      '-c',
      'mount -t tmpfs -o size=16k tmpfs "$1"',
      'sh',
      probe,
    ]);
    if (run.status === 0) return flags;
  }
  return undefined;
}

const namespace = mountNamespace();

/**
 * Runs `payorder ARGS…` on a store held in a 256 KiB tmpfs that is then made full or read-only, in
 * a mount namespace of its own (nothing outside sees the mount); returns what payorder printed and
 * what the store folder holds afterwards.
 */
async function onFaultyDisk(fault: 'full' | 'read-only', args: string[]) {
  const mountPoint = tempDir();
  const dir = `${mountPoint}/payorder`;
  const script = `
    set -e
    mount -t tmpfs -o size=256k,mode=0700 tmpfs "$MOUNT"
    mkdir -m 700 "$DIR"
    printf '%s' "$STORE" > "$DIR/config.json"
    chmod 600 "$DIR/config.json"
    if [ "$FAULT" = full ]; then cat /dev/zero > "$MOUNT/filler" 2>/dev/null || true; fi
    if [ "$FAULT" = read-only ]; then mount -o remount,ro "$MOUNT"; fi
    set +e
    "$NODE" "$@"
    printf '\\n@@%s@@' "$?"
    for name in $(ls -A "$DIR"); do printf '%s\\n' "$name"; done
    printf '@@'
    cat "$DIR/config.json"`;
  const child = await execa('unshare', [...namespace!, 'sh', '-c', script, 'sh', BIN, ...args], {
    env: {
      PATH: process.env.PATH,
      HOME: dir,
      ...cacheEnv(),
      PAYORDER_CONFIG_DIR: dir,
      MOUNT: mountPoint,
      DIR: dir,
      STORE: STORED_TEXT,
      FAULT: fault,
      NODE: process.execPath,
    },
    extendEnv: false,
    reject: false,
    timeout: 20_000,
  });
  const [stdout = '', exitCode = '', names = '', store = ''] = String(child.stdout).split('@@');
  const result: RunResult = {
    exitCode: Number(exitCode),
    stdout: stdout.replace(/\n$/, ''),
    stderr: String(child.stderr),
  };
  return { result, dir, file: `${dir}/config.json`, names: names.split('\n').filter(Boolean), store };
}

describe.skipIf(!namespace)(
  'a disk that fails the write (needs unshare and mount for a private tmpfs, as root or in a user namespace)',
  () => {
    it('a full disk: exit 5 naming the store; the store is whole and no temporary file is left', async () => {
      const { result, file, names, store } = await onFaultyDisk('full', [
        'config',
        'set',
        'default-output',
        'table',
      ]);
      expectShownError(
        result,
        5,
        file,
        'cannot be written: no space left on the device; the store is unchanged',
      );
      expect(store).toBe(STORED_TEXT);
      expect(names).toEqual(['config.json']);
    });

    it('a read-only file system: exit 2 naming the folder; the store is whole', async () => {
      const { result, dir, names, store } = await onFaultyDisk('read-only', ['logout', '--env', 'stage']);
      expectShownError(result, 2, dir, 'the file system is read-only');
      expect(store).toBe(STORED_TEXT);
      expect(names).toEqual(['config.json']);
    });
  },
);

describe('a full disk, simulated in process (runs everywhere)', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  function diskFull() {
    vi.spyOn(Conf.prototype as any, 'store', 'set').mockImplementation(() => {
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), {
        code: 'ENOSPC',
        errno: -28,
      });
    });
  }

  it('update() fails with exit 5, naming the store; the store is as it was', async () => {
    const folder = storeFolder();
    diskFull();
    const error = await failureOf(() =>
      folder.store().update((data) => {
        data.defaults = { output: 'table' };
      }),
    );
    expect(error.exitCode).toBe(5);
    expect(error.message).toBe(
      `the payorder store ${folder.file} cannot be written: no space left on the device; the store is unchanged`,
    );
    expect(snapshot(folder.dir)).toEqual({ 'config.json': STORED_TEXT });
  });

  it('a command exits 5 with that error, not an unexpected failure', async () => {
    const folder = storeFolder();
    diskFull();
    const result = await runInProcess(['config', 'set', 'default-output', 'table'], { env: folder.env });
    expectShownError(result, 5, folder.file, 'no space left on the device');
    expect(readFileSync(folder.file, 'utf8')).toBe(STORED_TEXT);
  });
});
