import { describe, expect, it } from 'vitest';
import { freshCli } from '../../helpers/cli.js';

describe('payorder config get', () => {
  it('prints the value alone on stdout, as stored (no trailing slash), for $(…)', async () => {
    const cli = freshCli();
    await cli(['config', 'set', 'stage.v2.auth-url', 'https://auth.stage.example.com/']);
    const result = await cli(['config', 'get', 'stage.v2.auth-url']);
    expect(result).toEqual({ exitCode: 0, stdout: 'https://auth.stage.example.com\n', stderr: '' });
  });

  it('"test" is the other name of stage', async () => {
    const cli = freshCli();
    await cli(['config', 'set', 'test.v2.checkout-url', 'https://pay.stage.example.com']);
    expect((await cli(['config', 'get', 'stage.v2.checkout-url'])).stdout).toBe(
      'https://pay.stage.example.com\n',
    );
    expect((await cli(['config', 'get', 'test.v2.checkout-url'])).stdout).toBe(
      'https://pay.stage.example.com\n',
    );
  });

  it('a key that is not set is exit 2, with how to set it', async () => {
    const cli = freshCli();
    await cli(['config', 'set', 'stage.v2.auth-url', 'https://auth.stage.example.com']);
    const result = await cli(['config', 'get', 'stage.v1.auth-url']);
    expect(result).toEqual({
      exitCode: 2,
      stdout: '',
      stderr: 'error: stage.v1.auth-url is not set\nhint: payorder config set stage.v1.auth-url VALUE\n',
    });
  });

  it('an unknown key is exit 2, with the nearest key when there is one', async () => {
    const cli = freshCli();
    expect(await cli(['config', 'get', 'stage.v2.auth-ur'])).toEqual({
      exitCode: 2,
      stdout: '',
      stderr:
        'error: unknown config key "stage.v2.auth-ur"; did you mean stage.v2.auth-url?\n' +
        'hint: payorder config list --all shows every key\n',
    });
    expect(await cli(['config', 'get', 'nonsense.key.that.is.far'])).toEqual({
      exitCode: 2,
      stdout: '',
      stderr:
        'error: unknown config key "nonsense.key.that.is.far"\nhint: payorder config list --all shows every key\n',
    });
  });
});
