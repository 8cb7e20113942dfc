/**
 * The store's lock (config.lock beside config.json): what is not a lock is named at once, and a lock
 * another process holds is waited for with a line on stderr, then refused with a clear error.
 */
import { lstatSync, readFileSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/profile-store.js';
import { runInProcess } from '../helpers/context.js';
import { expectShownError, failureOf, STORED, type StoreFolder, storeFolder } from './store-folder.js';

const configSet = (folder: StoreFolder) =>
  runInProcess(['config', 'set', 'default-output', 'table'], { env: folder.env });

/**
 * Holds the lock of `folder`'s store for `ms`, as a token renewal does inside an update: resolves
 * once the lock is held, with `released` for when it is let go.
 */
async function holdLock(folder: StoreFolder, ms: number): Promise<{ released: Promise<void> }> {
  let held!: () => void;
  const taken = new Promise<void>((resolve) => {
    held = resolve;
  });
  const released = folder.store().update(async () => {
    held();
    await sleep(ms);
  });
  await taken;
  // Wrapped: a promise resolved with a promise would wait for it, and the caller must not.
  return { released };
}

describe('a stray config.lock', () => {
  const cases: [string, (lock: string) => void][] = [
    ['a file just made', (lock) => writeFileSync(lock, '')],
    [
      'a file an hour old',
      (lock) => {
        writeFileSync(lock, '');
        const hourAgo = new Date(Date.now() - 3_600_000);
        utimesSync(lock, hourAgo, hourAgo);
      },
    ],
    ['a symbolic link', (lock) => symlinkSync('/nonexistent-payorder-target', lock)],
  ];

  it.for(cases)('%s: a store write fails at once, exit 2, naming it with what to do', async ([, make]) => {
    const folder = storeFolder();
    const lock = join(folder.dir, 'config.lock');
    make(lock);
    const started = performance.now();
    const result = await configSet(folder);
    expect(performance.now() - started).toBeLessThan(5_000);
    expectShownError(result, 2, lock, "not payorder's lock");
    expect(result.stderr.trim().split('\n')).toHaveLength(2);
    expect(result.stderr).toContain(
      `hint: payorder makes this lock as a folder; if no payorder is running, remove it: rm '${lock}'`,
    );
    // Never removed for the user, and the store is as it was.
    expect(lstatSync(lock, { throwIfNoEntry: false })).toBeDefined();
    expect(JSON.parse(readFileSync(folder.file, 'utf8'))).toEqual(STORED);
  });
});

describe('a lock another process holds', () => {
  it('is waited for with a line on stderr, then the command goes on', async () => {
    const folder = storeFolder();
    const { released: holding } = await holdLock(folder, 2_500);
    const result = await configSet(folder);
    await holding;
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).toBe(
      `waiting for another payorder process, which holds the store's lock ${join(folder.dir, 'config.lock')}…\ndefault-output = table\n`,
    );
    expect(JSON.parse(readFileSync(folder.file, 'utf8')).defaults.output).toBe('table');
  });

  it('a short wait says nothing', async () => {
    const folder = storeFolder();
    const { released: holding } = await holdLock(folder, 200);
    const result = await configSet(folder);
    await holding;
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).toBe('default-output = table\n');
  });

  it('held longer than the wait: a one-line error naming the lock, the store unchanged', async () => {
    const folder = storeFolder();
    const { released: holding } = await holdLock(folder, 3_000);
    const lines: string[] = [];
    const store = openStore(folder.env, { notice: (line) => lines.push(line), waitMs: 1_500 });
    const error = await failureOf(() => store.update(() => {}));
    await holding;
    expect(error.kind).toBe('io');
    expect(error.exitCode).toBe(5);
    expect(error.message).toBe(
      `the store's lock ${join(folder.dir, 'config.lock')} is still held by another payorder process after 1.5 s; the store is unchanged`,
    );
    expect(error.details.hint).toMatch(/^wait for that process to finish[^\n]+taken over after 15 s$/);
    expect(lines).toHaveLength(1);
    expect(JSON.parse(readFileSync(folder.file, 'utf8'))).toEqual(STORED);
  });
});
