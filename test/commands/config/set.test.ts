import { describe, expect, it } from 'vitest';
import { cliFor, tempDir } from '../../helpers/cli.js';

const freshCli = () => cliFor({ configDir: tempDir() });

describe('payorder config set', () => {
  it('stores the checked value and confirms it on stderr; "test" is stored as stage', async () => {
    const cli = freshCli();
    expect(await cli(['config', 'set', 'stage.v2.auth-url', 'https://auth.stage.example.com/'])).toEqual({
      exitCode: 0,
      stdout: '',
      stderr: 'stage.v2.auth-url = https://auth.stage.example.com\n',
    });
    expect(await cli(['config', 'set', 'test.v2.checkout-url', 'https://pay.stage.example.com'])).toEqual({
      exitCode: 0,
      stdout: '',
      stderr: 'stage.v2.checkout-url = https://pay.stage.example.com\n',
    });
    expect(JSON.parse((await cli(['config', 'list', '--json'])).stdout)).toEqual({
      'stage.v2.auth-url': 'https://auth.stage.example.com',
      'stage.v2.checkout-url': 'https://pay.stage.example.com',
    });
  });

  it('a new value replaces the old one', async () => {
    const cli = freshCli();
    await cli(['config', 'set', 'default-api', 'v1']);
    await cli(['config', 'set', 'default-api', 'v2']);
    expect((await cli(['config', 'get', 'default-api'])).stdout).toBe('v2\n');
  });

  it('choices are taken in any case and stored in lower case', async () => {
    const cli = freshCli();
    expect((await cli(['config', 'set', 'default-output', 'TSV'])).stderr).toBe('default-output = tsv\n');
    expect((await cli(['config', 'set', 'default-env', 'Test'])).stderr).toBe('default-env = stage\n');
    expect(JSON.parse((await cli(['config', 'list', '--json'])).stdout)).toEqual({
      'default-env': 'stage',
      'default-output': 'tsv',
    });
  });

  it('checks values and suggests keys; a refused value is not stored', async () => {
    const cli = freshCli();
    expect(await cli(['config', 'set', 'stage.v1.auth-url', 'ftp://x'])).toEqual({
      exitCode: 2,
      stdout: '',
      stderr: 'error: stage.v1.auth-url: must be an absolute http(s) URL, got a ftp URL\n',
    });
    expect(await cli(['config', 'set', 'stage.v2.auth-ur', 'https://x'])).toEqual({
      exitCode: 2,
      stdout: '',
      stderr:
        'error: unknown config key "stage.v2.auth-ur"; did you mean stage.v2.auth-url?\n' +
        'hint: payorder config list --all shows every key\n',
    });
    expect(await cli(['config', 'set', 'default-env', 'production'])).toEqual({
      exitCode: 2,
      stdout: '',
      stderr: 'error: default-env: production is never a default; name it with --env production each time\n',
    });
    expect(await cli(['config', 'set', 'default-api', 'v3'])).toEqual({
      exitCode: 2,
      stdout: '',
      stderr: 'error: default-api: must be one of v1, v2, got "v3"\n',
    });
    expect((await cli(['config', 'list', '--json'])).stdout).toBe('{}\n');
  });

  it('needs a key and a value', async () => {
    const cli = freshCli();
    const none = await cli(['config', 'set']);
    expect(none.exitCode).toBe(2);
    expect(none.stderr).toBe("error: missing required argument 'key'\n(run with --help for usage)\n");
    const noValue = await cli(['config', 'set', 'default-api']);
    expect(noValue.exitCode).toBe(2);
    expect(noValue.stderr).toBe("error: missing required argument 'value'\n(run with --help for usage)\n");
  });

  it('defaults apply: default-env and default-api', async () => {
    const cli = freshCli();
    await cli(['config', 'set', 'default-env', 'sandbox']);
    await cli(['config', 'set', 'default-api', 'v1']);
    const status = JSON.parse((await cli(['status', '--json'])).stdout);
    expect(status.current).toBe('sandbox');
    expect(status.environments.map((e: any) => [e.env, e.api])).toEqual([['sandbox', 'v1']]);
  });
});
