/**
 * The profile store holds client secrets, so it is used only when it is safely ours (as ssh does
 * with its keys), and it never changes a folder it did not create; what it did before stays. The
 * tests use the store's API and, where a user would see it, the CLI. Shapes: profile-shape.test.ts;
 * the file system failing: store-io.test.ts.
 */
import {
  chmodSync,
  chownSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { expectNoLeak, SECRET, SHOP, tempDir } from '../helpers/cli.js';
import { runInProcess } from '../helpers/context.js';
import { call, useSandbox } from '../helpers/sandbox.js';
import {
  at,
  emptyStoreFolder,
  expectConfigError,
  expectShownError,
  failureOf,
  IS_ROOT,
  modeOf,
  NOBODY,
  STORED,
  type StoreFolder,
  snapshot,
  storeFolder,
} from './store-folder.js';

const configSet = (folder: StoreFolder) =>
  runInProcess(['config', 'set', 'default-output', 'table'], { env: folder.env });

/** A folder of another user's, holding the file they want payorder to use. */
function theirs(content?: unknown) {
  const file = join(tempDir('payorder-theirs-'), 'config.json');
  if (content !== undefined) writeFileSync(file, JSON.stringify(content));
  return file;
}

interface Unsafe {
  /** The store as a test sets it up: payorder must refuse it. */
  folder: StoreFolder;
  /** The path the error must name. */
  path: string;
  problem: RegExp;
  /** Files outside the folder that must stay as they are (a link's target). */
  outside?: string[];
}

const UNSAFE: [string, () => Unsafe][] = [
  [
    'config.json is a symbolic link to another file',
    () => {
      const folder = emptyStoreFolder();
      const target = theirs(STORED);
      symlinkSync(target, folder.file);
      return { folder, path: folder.file, problem: /symbolic link/, outside: [target] };
    },
  ],
  [
    'config.json is a symbolic link to a file that does not exist yet',
    () => {
      const folder = emptyStoreFolder();
      symlinkSync(theirs(), folder.file);
      return { folder, path: folder.file, problem: /symbolic link/ };
    },
  ],
  [
    'the folder is a symbolic link',
    () => {
      const real = storeFolder();
      const link = join(tempDir(), 'payorder');
      symlinkSync(real.dir, link);
      return { folder: at(link), path: link, problem: /symbolic link/, outside: [real.file] };
    },
  ],
  [
    'config.json is writable by its group',
    () => {
      const folder = storeFolder();
      chmodSync(folder.file, 0o620);
      return { folder, path: folder.file, problem: /writable by its group \(mode 0620\)/ };
    },
  ],
  [
    'config.json is writable by others',
    () => {
      const folder = storeFolder();
      chmodSync(folder.file, 0o606);
      return { folder, path: folder.file, problem: /writable by others \(mode 0606\)/ };
    },
  ],
  [
    'the folder is writable by its group',
    () => {
      const folder = storeFolder();
      chmodSync(folder.dir, 0o770);
      return { folder, path: folder.dir, problem: /writable by its group \(mode 0770\)/ };
    },
  ],
  [
    'the folder is writable by others, sticky like /tmp',
    () => {
      const folder = storeFolder();
      chmodSync(folder.dir, 0o1777);
      return { folder, path: folder.dir, problem: /writable by others \(mode 1777\)/ };
    },
  ],
  [
    'config.json is a folder',
    () => {
      const folder = emptyStoreFolder();
      mkdirSync(folder.file, { mode: 0o700 });
      return { folder, path: folder.file, problem: /not a regular file/ };
    },
  ],
];

const OWNED_BY_ANOTHER: [string, () => Unsafe][] = [
  [
    'config.json is owned by another user',
    () => {
      const folder = storeFolder();
      chownSync(folder.file, NOBODY, NOBODY);
      return { folder, path: folder.file, problem: /owned by uid 65534, not by you \(uid 0\)/ };
    },
  ],
  [
    'the folder is owned by another user',
    () => {
      const folder = storeFolder();
      chownSync(folder.dir, NOBODY, NOBODY);
      return { folder, path: folder.dir, problem: /owned by uid 65534, not by you \(uid 0\)/ };
    },
  ],
];

/** What a refused store must leave as it was: the folder, its files, their modes, the link targets. */
function stateOf({ folder, outside = [] }: Unsafe) {
  return {
    folder: snapshot(folder.dir),
    modes: [folder.dir, folder.file].map((path) => (existsSync(path) ? modeOf(path) : 'none')),
    link: lstatSync(folder.file, { throwIfNoEntry: false })?.isSymbolicLink() ?? false,
    outside: outside.map((path) => readFileSync(path, 'utf8')),
  };
}

function refusalTests(cases: [string, () => Unsafe][]) {
  it.each(cases)('%s: read() refuses it, naming the path and the problem', async (_, setup) => {
    const unsafe = setup();
    expectConfigError(await failureOf(() => unsafe.folder.store().read()), unsafe.path, unsafe.problem);
  });

  it.each(cases)('%s: update() refuses it and writes nothing', async (_, setup) => {
    const unsafe = setup();
    const before = stateOf(unsafe);
    const change = vi.fn();
    const error = await failureOf(() => unsafe.folder.store().update(change));
    expectConfigError(error, unsafe.path, unsafe.problem);
    expect(change).not.toHaveBeenCalled();
    expect(stateOf(unsafe)).toEqual(before);
  });

  it.each(cases)('%s: a command says so and exits 2', async (_, setup) => {
    const unsafe = setup();
    const before = stateOf(unsafe);
    expectShownError(await configSet(unsafe.folder), 2, unsafe.path, unsafe.problem);
    expectShownError(
      await runInProcess(['config', 'list', '--all'], { env: unsafe.folder.env }),
      2,
      unsafe.path,
      unsafe.problem,
    );
    expect(stateOf(unsafe)).toEqual(before);
  });
}

describe('a store that is not safely ours is refused', () => {
  refusalTests(UNSAFE);

  describe.skipIf(!IS_ROOT)('owned by another user (needs root to chown files to another user)', () => {
    refusalTests(OWNED_BY_ANOTHER);
  });

  describe('a planted link does not send the secret to its addresses', () => {
    const sb = useSandbox({ accounts: [SHOP] });

    it('login with a config.json linked to another user’s file: exit 2, nothing reaches their server', async () => {
      const folder = emptyStoreFolder();
      const target = theirs({
        environments: { stage: { addresses: { v2: { auth: sb.url, checkout: sb.url } } } },
      });
      symlinkSync(target, folder.file);
      const planted = readFileSync(target, 'utf8');
      const result = await runInProcess(
        [
          'login',
          '--env',
          'stage',
          '--username',
          SHOP.username,
          '--client-id',
          SHOP.clientId,
          '--client-secret-stdin',
        ],
        { env: folder.env, stdin: SECRET },
      );
      expectNoLeak(result);
      expectShownError(result, 2, folder.file, /symbolic link/);
      expect((await call(sb.url, 'GET', '/_sandbox/journal')).body.entries).toEqual([]);
      expect(readFileSync(target, 'utf8')).toBe(planted);
    });
  });
});

describe('the folder: created 0700 when missing, never changed when it exists', () => {
  it('a folder of ours that others cannot write is used as it is (0750 stays 0750)', async () => {
    const folder = storeFolder();
    chmodSync(folder.dir, 0o750);
    await folder.store().update((data) => {
      data.defaults = { output: 'tsv' };
    });
    expect(modeOf(folder.dir)).toBe('750');
    expect(JSON.parse(readFileSync(folder.file, 'utf8')).defaults).toEqual({ output: 'tsv' });
  });

  it('a sticky world-writable folder (PAYORDER_CONFIG_DIR=/tmp-like) keeps its mode and gets no store', async () => {
    const dir = join(tempDir(), 'shared');
    mkdirSync(dir);
    chmodSync(dir, 0o1777);
    const result = await runInProcess(['config', 'set', 'stage.v2.auth-url', 'https://auth.shop.example'], {
      env: at(dir).env,
    });
    expectShownError(result, 2, dir, 'writable by others (mode 1777)');
    expect(result.stderr).toContain('PAYORDER_CONFIG_DIR');
    expect(modeOf(dir)).toBe('1777');
    expect(snapshot(dir)).toEqual({});
  });

  it.each([
    ['000', 0o000],
    ['277', 0o277],
  ])('missing folders are created 0700 under umask %s, and the store is usable', async (_, mask) => {
    const parent = join(tempDir(), 'config');
    const folder = at(join(parent, 'payorder'));
    const previous = process.umask(mask);
    try {
      await folder.store().update((data) => {
        data.defaults = { output: 'json' };
      });
    } finally {
      process.umask(previous);
    }
    expect(modeOf(parent)).toBe('700');
    expect(modeOf(folder.dir)).toBe('700');
    expect(folder.store().read()).toEqual({ defaults: { output: 'json' } });
    if (mask === 0) expect(modeOf(folder.file)).toBe('600');
  });
});

describe('what stays as it was', () => {
  it('a store payorder wrote reads back as it is, 0600 in a 0700 folder', async () => {
    const folder = at(join(tempDir(), 'payorder'));
    await folder.store().update((data) => Object.assign(data, structuredClone(STORED)));
    expect(folder.store().read()).toEqual(STORED);
    expect(modeOf(folder.file)).toBe('600');
    expect(modeOf(folder.dir)).toBe('700');
    expect(snapshot(folder.dir)).toEqual({ 'config.json': JSON.stringify(STORED, null, '\t') });
  });

  it('no store yet reads as empty and creates nothing', () => {
    const folder = at(join(tempDir(), 'payorder'));
    expect(folder.store().read()).toEqual({});
    expect(existsSync(folder.dir)).toBe(false);
  });

  it('a corrupt file is named and never replaced', async () => {
    const folder = storeFolder('{"environments": {');
    const change = vi.fn();
    const error = await failureOf(() => folder.store().update(change));
    expectConfigError(error, folder.file, 'cannot be read');
    expect(change).not.toHaveBeenCalled();
    expect(readFileSync(folder.file, 'utf8')).toBe('{"environments": {');
  });

  it('parallel updates from two stores on one folder lose nothing (the lock)', async () => {
    const folder = storeFolder({});
    const [one, two] = [folder.store(), folder.store()];
    await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        (i % 2 ? one : two).update(async (data) => {
          await new Promise((resolve) => setTimeout(resolve, 2));
          (data as Record<string, unknown>)[`k${i}`] = i;
        }),
      ),
    );
    expect(Object.keys(folder.store().read()).sort()).toHaveLength(12);
  });
});
