import { describe, expect, it } from 'vitest';
import { cliFor, tempDir } from '../helpers/cli.js';

const run = () => cliFor({ configDir: tempDir() });

describe('payorder config', () => {
  it('sets, gets, lists and unsets', async () => {
    const cli = run();
    expect(
      (await cli(['config', 'set', 'stage.v2.auth-url', 'https://auth.stage.example.com/'])).exitCode,
    ).toBe(0);
    expect(
      (await cli(['config', 'set', 'test.v2.checkout-url', 'https://pay.stage.example.com'])).exitCode,
    ).toBe(0);
    expect((await cli(['config', 'get', 'stage.v2.auth-url'])).stdout).toBe(
      'https://auth.stage.example.com\n',
    );
    expect(JSON.parse((await cli(['config', 'list', '--json'])).stdout)).toEqual({
      'stage.v2.auth-url': 'https://auth.stage.example.com',
      'stage.v2.checkout-url': 'https://pay.stage.example.com',
    });
    expect((await cli(['config', 'unset', 'stage.v2.auth-url'])).exitCode).toBe(0);
    const missing = await cli(['config', 'get', 'stage.v2.auth-url']);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain('stage.v2.auth-url is not set');
  });

  it('checks values and suggests keys', async () => {
    const cli = run();
    const url = await cli(['config', 'set', 'stage.v1.auth-url', 'ftp://x']);
    expect([url.exitCode, url.stderr]).toEqual([
      2,
      'error: stage.v1.auth-url: must be an absolute http(s) URL, got a ftp URL\n',
    ]);
    const typo = await cli(['config', 'set', 'stage.v2.auth-ur', 'https://x']);
    expect(typo.stderr).toContain('did you mean stage.v2.auth-url?');
    const prod = await cli(['config', 'set', 'default-env', 'production']);
    expect(prod.exitCode).toBe(2);
    expect(prod.stderr).toContain('production is never a default');
    expect((await cli(['config', 'set', 'default-api', 'v3'])).stderr).toContain(
      'default-api: must be one of v1, v2',
    );
  });

  it('defaults apply: default-env and default-api', async () => {
    const cli = run();
    await cli(['config', 'set', 'default-env', 'sandbox']);
    await cli(['config', 'set', 'default-api', 'v1']);
    const status = JSON.parse((await cli(['status', '--json'])).stdout);
    expect(status.current).toBe('sandbox');
    expect(status.environments[0].api).toBe('v1');
  });
});
