import { describe, expect, it } from 'vitest';
import { freshCli } from '../../helpers/cli.js';

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

describe('payorder config set: base addresses', () => {
  it.each([
    [
      'https://auth.example/v2/api',
      'error: stage.v2.auth-url: give the base address without "/v2/api" or a path after it; payorder appends /v2/api/… itself (got "https://auth.example/v2/api")\n',
    ],
    [
      'https://auth.example/1/auth/token',
      'error: stage.v2.auth-url: give the base address without "/1" or a path after it; payorder appends /1/… itself (got "https://auth.example/1/auth/token")\n',
    ],
    [
      'https://auth.example/auth/token',
      'error: stage.v2.auth-url: give the base address, not an endpoint; payorder appends the path itself (got "https://auth.example/auth/token")\n',
    ],
    ['auth.example', 'error: stage.v2.auth-url: must be an absolute http(s) URL, got "auth.example"\n'],
  ])('%s → exit 2 naming the key and the rule; nothing stored', async (value, stderr) => {
    const cli = freshCli();
    expect(await cli(['config', 'set', 'stage.v2.auth-url', value])).toEqual({
      exitCode: 2,
      stdout: '',
      stderr,
    });
    expect((await cli(['config', 'list', '--json'])).stdout).toBe('{}\n');
  });

  it('a user name and password in the address are refused, and the password is never shown', async () => {
    const cli = freshCli();
    for (const value of ['https://user:pw-9f2c@auth.example', 'https://:pw-9f2c@auth.example/base']) {
      const result = await cli(['config', 'set', 'stage.v2.auth-url', value]);
      expect(result).toEqual({
        exitCode: 2,
        stdout: '',
        stderr:
          'error: stage.v2.auth-url: must not contain a user name or password; payorder sends credentials itself\n',
      });
      const json = await cli(['config', 'set', 'stage.v2.auth-url', value, '--json']);
      expect(json.exitCode).toBe(2);
      expect(json.stdout + json.stderr).not.toContain('pw-9f2c');
    }
    expect((await cli(['config', 'list', '--json'])).stdout).toBe('{}\n');
  });

  // An address with a password that also breaks another rule (a trailing space from a copy and
  // paste, an invalid port) is refused without printing the password.
  it('an address with a password and a trailing space: refused without showing the password', async () => {
    const result = await freshCli()([
      'config',
      'set',
      'stage.v2.auth-url',
      'https://user:pw-9f2c@auth.example ',
    ]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).not.toContain('pw-9f2c');
  });
});
