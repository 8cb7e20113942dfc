import { describe, expect, it } from 'vitest';
import { freshCli } from '../../helpers/cli.js';

describe('payorder config unset', () => {
  it('removes one setting, leaves the others, and says so on stderr', async () => {
    const cli = freshCli();
    await cli(['config', 'set', 'stage.v2.auth-url', 'https://auth.stage.example.com']);
    await cli(['config', 'set', 'stage.v2.checkout-url', 'https://pay.stage.example.com']);
    expect(await cli(['config', 'unset', 'stage.v2.auth-url'])).toEqual({
      exitCode: 0,
      stdout: '',
      stderr: 'stage.v2.auth-url unset\n',
    });
    const missing = await cli(['config', 'get', 'stage.v2.auth-url']);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toBe(
      'error: stage.v2.auth-url is not set\nhint: payorder config set stage.v2.auth-url VALUE\n',
    );
    expect(JSON.parse((await cli(['config', 'list', '--json'])).stdout)).toEqual({
      'stage.v2.checkout-url': 'https://pay.stage.example.com',
    });
  });

  it('the built-in default applies again', async () => {
    const cli = freshCli();
    await cli(['config', 'set', 'default-env', 'sandbox']);
    expect(JSON.parse((await cli(['status', '--json'])).stdout).current).toBe('sandbox');
    await cli(['config', 'unset', 'default-env']);
    expect(JSON.parse((await cli(['status', '--json'])).stdout).current).toBe('stage');
  });

  it('"test" names stage; a key that is not set unsets quietly (scripts may unset blindly)', async () => {
    const cli = freshCli();
    await cli(['config', 'set', 'stage.v1.auth-url', 'https://auth.stage.example.com']);
    expect((await cli(['config', 'unset', 'test.v1.auth-url'])).stderr).toBe('stage.v1.auth-url unset\n');
    expect((await cli(['config', 'list', '--json'])).stdout).toBe('{}\n');
    expect(await cli(['config', 'unset', 'test.v1.auth-url'])).toEqual({
      exitCode: 0,
      stdout: '',
      stderr: 'stage.v1.auth-url unset\n',
    });
  });

  it('an unknown key is exit 2 with the nearest key', async () => {
    expect(await freshCli()(['config', 'unset', 'default-ap'])).toEqual({
      exitCode: 2,
      stdout: '',
      stderr:
        'error: unknown config key "default-ap"; did you mean default-api?\n' +
        'hint: payorder config list --all shows every key\n',
    });
  });
});
