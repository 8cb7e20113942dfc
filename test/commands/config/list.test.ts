import { describe, expect, it } from 'vitest';
import { CONFIG_KEYS } from '../../../src/session/config-keys.js';
import { cliEnv, cliFor, expectNoLeak, tempDir } from '../../helpers/cli.js';
import { runInProcess } from '../../helpers/context.js';

/** A config folder with two stage addresses set, and ways to run payorder on it. */
async function configured() {
  const configDir = tempDir();
  const cli = cliFor({ configDir });
  await cli(['config', 'set', 'stage.v2.auth-url', 'https://auth.stage.example.com']);
  await cli(['config', 'set', 'default-api', 'v1']);
  /** payorder with stdout on a terminal. */
  const onTerminal = async (args: string[]) => {
    const result = await runInProcess(args, { env: cliEnv({ configDir }), stdoutIsTTY: true });
    expectNoLeak(result);
    return result;
  };
  return { cli, onTerminal };
}

describe('payorder config list', () => {
  it('--json: the settings that are set, by key', async () => {
    const { cli } = await configured();
    expect(await cli(['config', 'list', '--json'])).toEqual({
      exitCode: 0,
      stdout: '{\n  "default-api": "v1",\n  "stage.v2.auth-url": "https://auth.stage.example.com"\n}\n',
      stderr: '',
    });
  });

  it('JSON without --json when stdout is not a terminal', async () => {
    const { cli } = await configured();
    expect((await cli(['config', 'list'])).stdout).toBe((await cli(['config', 'list', '--json'])).stdout);
  });

  it('a table on a terminal, keys aligned', async () => {
    const { onTerminal } = await configured();
    expect(await onTerminal(['config', 'list'])).toEqual({
      exitCode: 0,
      stdout: 'default-api        v1\nstage.v2.auth-url  https://auth.stage.example.com\n',
      stderr: '',
    });
  });

  it('nothing set: a hint for a person, an empty object for a script', async () => {
    const configDir = tempDir();
    expect(await runInProcess(['config', 'list'], { env: cliEnv({ configDir }), stdoutIsTTY: true })).toEqual(
      {
        exitCode: 0,
        stdout: '',
        stderr: 'nothing configured yet; payorder config list --all shows every key\n',
      },
    );
    expect(await cliFor({ configDir })(['config', 'list'])).toEqual({
      exitCode: 0,
      stdout: '{}\n',
      stderr: '',
    });
  });

  it('--all: every key, null where not set; on a terminal with what each does', async () => {
    const { cli, onTerminal } = await configured();
    const all = JSON.parse((await cli(['config', 'list', '--all', '--json'])).stdout);
    expect(Object.keys(all)).toEqual(CONFIG_KEYS.map((k) => k.key));
    expect(Object.keys(all)).toHaveLength(21);
    expect(Object.entries(all).filter(([, value]) => value !== null)).toEqual([
      ['default-api', 'v1'],
      ['stage.v2.auth-url', 'https://auth.stage.example.com'],
    ]);
    const table = (await onTerminal(['config', 'list', '--all'])).stdout.split('\n');
    expect(table).toHaveLength(22);
    expect(table.slice(0, 4)).toEqual([
      'default-env                 -  (environment used when neither --env nor PAYORDER_ENV is given (never production))',
      'default-api                 v1  (API version used when neither --api, PAYORDER_API nor the login chose one)',
      'default-output              -  (output format when neither --json nor -o is given)',
      'batch-window                -  (how long a batch run without --journal skips lines an earlier run created (default 24h; e.g. 1h, 90m))',
    ]);
    expect(table[4]).toBe(
      'default-success             -  (the success link of a batch line whose file has no success column (--success wins))',
    );
    expect(table[7]).toBe(
      'ledger                      -  (false: keep no order ledger (what order create sent and got, which order find searches); default true)',
    );
    expect(table[14]).toBe(
      'stage.v2.auth-url           https://auth.stage.example.com  (base address of the token service for stage v2 (payorder appends /v2/api))',
    );
    expect(table[20]).toBe(
      'allow-insecure-http         -  (true: production and stage may use http:// addresses (the secret and tokens unencrypted, warned each time))',
    );
    expect(table[21]).toBe('');
  });
});
