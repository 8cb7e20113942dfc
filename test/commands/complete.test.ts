/**
 * `payorder __complete LIST`, which the completion scripts call as they complete: the profile names
 * of the store PAYORDER_CONFIG_DIR names, one a line; the store only read, never a secret; on any
 * problem an empty answer and exit 0, so that completing never breaks a shell. Hidden from help,
 * the man page and the completions. (The scripts calling it in real shells: completion.test.ts.)
 */
import { chmodSync, existsSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/commands/program.js';
import { buildModel } from '../../src/completion/model.js';
import { expectNoLeak, tempDir } from '../helpers/cli.js';
import { runInProcess, testContext } from '../helpers/context.js';
import {
  at,
  emptyStoreFolder,
  STORED,
  STORED_WITH_PROFILES,
  snapshot,
  storeFolder,
} from '../store/store-folder.js';

async function complete(args: string[], env: Record<string, string>) {
  const result = await runInProcess(['__complete', ...args], { env });
  expectNoLeak(result);
  return result;
}

describe('payorder __complete profiles', () => {
  it('prints default, then every named profile by name, and changes nothing', async () => {
    const folder = storeFolder(STORED_WITH_PROFILES);
    const before = snapshot(folder.dir);
    const modified = statSync(folder.file).mtimeMs;
    expect(await complete(['profiles'], folder.env)).toEqual({
      exitCode: 0,
      stdout: 'default\nacme\nshop-b\n',
      stderr: '',
    });
    expect(snapshot(folder.dir)).toEqual(before);
    expect(statSync(folder.file).mtimeMs).toBe(modified);
  });

  it('a store without named profiles, or none at all: default alone, and nothing is created', async () => {
    expect((await complete(['profiles'], storeFolder(STORED).env)).stdout).toBe('default\n');

    const empty = emptyStoreFolder();
    expect((await complete(['profiles'], empty.env)).stdout).toBe('default\n');
    expect(snapshot(empty.dir)).toEqual({});

    const missing = at(join(tempDir(), 'not-yet'));
    expect(await complete(['profiles'], missing.env)).toEqual({
      exitCode: 0,
      stdout: 'default\n',
      stderr: '',
    });
    expect(existsSync(missing.dir)).toBe(false);
  });

  const unusable: Array<[string, () => string]> = [
    ['not JSON', () => storeFolder('{"profiles": {"shop-b": ').dir],
    [
      'a profile name --profile could never select',
      () => storeFolder({ ...STORED, profiles: { 'Shop B': STORED_WITH_PROFILES.profiles['shop-b'] } }).dir,
    ],
    [
      'a store others can write',
      () => {
        const folder = storeFolder(STORED_WITH_PROFILES);
        chmodSync(folder.file, 0o666);
        return folder.dir;
      },
    ],
    [
      'a folder where the store should be',
      () => {
        const folder = emptyStoreFolder();
        mkdirSync(folder.file);
        return folder.dir;
      },
    ],
  ];

  it.each(unusable)(
    'an unusable store (%s): nothing at all, exit 0, the store as it was',
    async (_, make) => {
      const dir = make();
      const before = snapshot(dir);
      expect(await complete(['profiles'], at(dir).env)).toEqual({ exitCode: 0, stdout: '', stderr: '' });
      expect(snapshot(dir)).toEqual(before);
    },
  );

  it('answers whatever the environment holds: a variable other commands refuse changes nothing', async () => {
    const { env } = storeFolder(STORED_WITH_PROFILES);
    const bad = { ...env, PAYORDER_TIMEOUT: 'soon', PAYORDER_NOW: 'yesterday', PAYORDER_DEBUG: 'yes' };
    expect((await runInProcess(['status'], { env: bad })).exitCode).toBe(2);
    expect(await complete(['profiles'], bad)).toEqual({
      exitCode: 0,
      stdout: 'default\nacme\nshop-b\n',
      stderr: '',
    });
  });

  it.each([[[]], [['orders']], [['profiles', 'sh', '--env', 'stage']]])(
    'a list it does not know, or words it does not expect (%j): nothing refused',
    async (args) => {
      const { env } = storeFolder(STORED_WITH_PROFILES);
      const result = await complete(args, env);
      expect(result.exitCode).toBe(0);
      expect(result.stderr).toBe('');
      expect(result.stdout).toBe(args[0] === 'profiles' ? 'default\nacme\nshop-b\n' : '');
    },
  );
});

describe('it is for the scripts, not for people', () => {
  it('is in neither the help nor the man page', async () => {
    for (const args of [['--help'], ['help'], ['man']]) {
      const result = await runInProcess(args);
      expect(result.exitCode).toBe(0);
      expect(result.stdout).not.toContain('__complete');
    }
  });

  it('is not among the commands the completions offer', () => {
    const models = buildModel(buildProgram(testContext().ctx));
    expect(models.map((m) => m.path)).not.toContainEqual(expect.stringContaining('__complete'));
    const root = models.find((m) => m.path === '')!;
    expect(root.subcommands.map((s) => s.name)).toEqual(
      expect.arrayContaining(['login', 'order', 'completion', 'man', 'sandbox']),
    );
    expect(root.subcommands.map((s) => s.name)).not.toContain('__complete');
  });
});
