import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SECRET, SHOP } from '../helpers/cli.js';
import { loginArgs, useE2E } from '../helpers/e2e.js';
import { journal } from '../helpers/sandbox.js';

const e2e = useE2E({}, { beforeSunset: true });
const cached = e2e.cachedToken;

describe('payorder token', () => {
  it('prints the cached token for scripts, and a token of its own for each version', async () => {
    await e2e.login();
    const result = await e2e.run(['token', '--env', 'sandbox'], { printsToken: true });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toBe(`${cached('v2').accessToken}\n`);
    expect(result.stderr).toBe('');

    const v1 = await e2e.run(['token', '--env', 'sandbox', '--api', 'v1'], { printsToken: true });
    expect(v1.exitCode, v1.stderr).toBe(0);
    expect(v1.stdout).toBe(`${cached('v1').accessToken}\n`);
    expect(cached('v1').accessToken).not.toBe(cached('v2').accessToken);
    expect((await journal(e2e.sb.url, 'token')).map((t) => t.version)).toEqual(['v2', 'v1']);
  });

  it('the token it prints is one the service accepts', async () => {
    await e2e.login();
    const { stdout } = await e2e.run(['token', '--env', 'sandbox'], { printsToken: true });
    expect(await e2e.sb.sandbox.core.tokens.verify(stdout.trim())).toEqual({
      ok: true,
      claims: { sub: SHOP.username, client_id: SHOP.clientId, exp: expect.any(Number) },
    });
  });
});

describe('a cached token payorder could not send', () => {
  // An older payorder cached whatever the token service answered; such a token in an Authorization
  // header would make every command fail.
  it.each([
    ['a line break', (token: string) => `${token}\r\nX-Injected: 1`],
    ['a space', (token: string) => `${token} x`],
  ])('one with %s counts as none: a new token is requested, cached and used', async (_, spoil) => {
    await e2e.login();
    const data = e2e.store();
    const entry = Object.values(data.environments?.sandbox?.tokens ?? {})[0]!;
    entry.accessToken = spoil(entry.accessToken);
    writeFileSync(e2e.storeFile(), JSON.stringify(data), { mode: 0o600 });

    const result = await e2e.run(['token', '--env', 'sandbox'], { printsToken: true });
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe(`${cached('v2').accessToken}\n`);
    expect(await journal(e2e.sb.url, 'token')).toHaveLength(2);
  });
});

describe('the v1 sunset, by the clock', () => {
  it('counts the days left and refuses v1 from 2027-01-01 without sending anything', async () => {
    const before = await e2e.run(loginArgs('sandbox', '--api', 'v1'), {
      input: SECRET,
      env: { PAYORDER_NOW: '2026-12-01T09:00:00Z' },
    });
    expect(before.exitCode, before.stderr).toBe(0);
    expect(before.stderr).toContain('switched off on 2026-12-31 (30 days left)');
    const last = await e2e.run(['status', '--env', 'sandbox'], {
      env: { PAYORDER_NOW: '2026-12-31T09:00:00Z' },
    });
    expect(last.exitCode, last.stderr).toBe(0);
    expect(JSON.parse(last.stdout).environments[0].api).toBe('v1');
    const lastDay = await e2e.run(['token', '--env', 'sandbox', '--api', 'v1'], {
      env: { PAYORDER_NOW: '2026-12-31T09:00:00Z' },
      printsToken: true,
    });
    expect(lastDay.exitCode, lastDay.stderr).toBe(0);
    expect(lastDay.stderr).toContain('today is its last day');
    const sent = (await journal(e2e.sb.url)).length;
    const after = await e2e.run(['token', '--env', 'sandbox', '--api', 'v1'], {
      env: { PAYORDER_NOW: '2027-01-01T00:00:00Z' },
    });
    expect(after.exitCode).toBe(2);
    expect(after.stderr).toBe(
      'error: API v1 was switched off on 2026-12-31; use --api v2\nhint: payorder migrate-check shows what an integration must change for v2\n',
    );
    expect(await journal(e2e.sb.url)).toHaveLength(sent);
  });
});
