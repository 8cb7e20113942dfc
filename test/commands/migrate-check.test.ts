import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SECRET } from '../helpers/cli.js';
import { loginArgs, useE2E } from '../helpers/e2e.js';
import { call, journal, tokenFor } from '../helpers/sandbox.js';

const e2e = useE2E();
const FIXTURES = resolve(import.meta.dirname, '../fixtures/migrate');

describe('payorder migrate-check', () => {
  it('a sample shop in two languages: grouped findings, the sunset, exit 1; dependencies, build output, ignored and binary files left out', async () => {
    cpSync(join(FIXTURES, 'shop-js'), join(e2e.dir, 'shop-js'), { recursive: true });
    cpSync(join(FIXTURES, 'shop-php'), join(e2e.dir, 'shop-php'), { recursive: true });
    // What a real checkout has beside its code; each holds a v1 marker that must not be reported.
    const planted = [
      'shop-js/node_modules/some-lib/index.js',
      'shop-js/generated/client.js',
      'shop-js/build/bundle.js',
      'shop-php/vendor/acme/Client.php',
    ];
    for (const file of planted) {
      mkdirSync(join(e2e.dir, file, '..'), { recursive: true });
      writeFileSync(join(e2e.dir, file), "const body = { user_name: 'x' };\n");
    }
    writeFileSync(join(e2e.dir, 'shop-js/.gitignore'), 'generated/\n');
    const result = await e2e.run(['migrate-check', join(e2e.dir, 'shop-js'), join(e2e.dir, 'shop-php')], {
      env: { PAYORDER_NOW: '2026-12-21T10:00:00Z' },
    });
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toContain(join(e2e.dir, 'shop-js/src/checkout.js'));
    expect(result.stdout).toContain(join(e2e.dir, 'shop-php/Checkout.php'));
    for (const rule of ['PO101', 'PO102', 'PO103', 'PO104', 'PO105', 'PO106', 'PO107', 'PO108'])
      expect(result.stdout).toContain(rule);
    expect(result.stdout).toContain('v1 is switched off on 2026-12-31: 10 days left.');
    for (const file of [...planted, 'logo.png']) expect(result.stdout).not.toContain(file);
  });

  it('--json: stable shape with rule, severity, location and fix', async () => {
    const result = await e2e.run(['migrate-check', join(FIXTURES, 'bodies/orders-v1.ndjson'), '--json']);
    const report = JSON.parse(result.stdout);
    expect(report).toMatchObject({ ready: false, files: 1, sunset: { date: '2026-12-31' } });
    expect(report.findings).toContainEqual({
      rule: 'PO104',
      severity: 'error',
      message: 'decimal amount "149.90"',
      fix: 'amount "149.90" → "14990"',
      location: { file: join(FIXTURES, 'bodies/orders-v1.ndjson'), item: 'line 1', pointer: '/amount' },
    });
  });

  it('a ready integration exits 0', async () => {
    const result = await e2e.run([
      'migrate-check',
      join(FIXTURES, 'near-miss'),
      join(FIXTURES, 'bodies/orders-v2.json'),
    ]);
    expect(result.exitCode, result.stdout).toBe(0);
    expect(result.stdout).toContain('✓ ready for v2');
  });

  it('--format sarif on a HAR capture', async () => {
    const result = await e2e.run([
      'migrate-check',
      join(FIXTURES, 'bodies/checkout.har'),
      '--format',
      'sarif',
    ]);
    expect(result.exitCode).toBe(1);
    const log = JSON.parse(result.stdout);
    expect(log.version).toBe('2.1.0');
    expect(log.runs[0].results.map((r: any) => r.ruleId)).toEqual(
      expect.arrayContaining(['PO101', 'PO102', 'PO103', 'PO104', 'PO105']),
    );
  });

  it('--fix output is accepted by the sandbox, with exact amounts', async () => {
    expect((await e2e.run(loginArgs(), { input: SECRET })).exitCode).toBe(0);
    const result = await e2e.run(['migrate-check', join(FIXTURES, 'bodies/orders-v1.ndjson'), '--fix']);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('2 items could not be converted');
    const bodies = result.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(bodies.map((b) => b.amount)).toEqual(['14990', '9223372036854775807']);
    const token = await tokenFor(e2e.sb.url);
    for (const body of bodies)
      expect((await call(e2e.sb.url, 'POST', '/v2/api/checkout', body, token)).status).toBe(200);
    const created = (await call(e2e.sb.url, 'GET', '/_sandbox/orders')).body.orders.map((o: any) => o.amount);
    expect(created).toEqual(['14990', '9223372036854775807']);
  });

  it('--fix --write writes NAME.v2.EXT next to the source, never over a file', async () => {
    cpSync(join(FIXTURES, 'bodies'), join(e2e.dir, 'bodies'), { recursive: true });
    const har = join(e2e.dir, 'bodies/checkout.har');
    const first = await e2e.run(['migrate-check', har, '--fix', '--write']);
    expect(first.stderr).toContain(`wrote ${join(e2e.dir, 'bodies/checkout.v2.json')}`);
    const records = JSON.parse(readFileSync(join(e2e.dir, 'bodies/checkout.v2.json'), 'utf8'));
    expect(records[0]).toMatchObject({
      method: 'POST',
      url: 'https://auth.stage.example.com/v2/api/auth/token',
      body: { username: 'shop' },
    });
    expect(records[1]).toMatchObject({
      url: 'https://pay.stage.example.com/v2/api/checkout',
      body: { amount: '1999' },
    });
    expect(records[1].body).not.toHaveProperty('userName');
    const again = await e2e.run(['migrate-check', har, '--fix', '--write']);
    expect(again.exitCode).toBe(2);
    expect(again.stderr).toContain('already exists');
    expect(existsSync(har)).toBe(true);
  });

  it('stdin: one body in, one body out', async () => {
    const result = await e2e.run(['migrate-check', '-', '--fix'], {
      input: readFileSync(join(FIXTURES, 'bodies/token-v1.json'), 'utf8'),
    });
    expect(JSON.parse(result.stdout)).toEqual({
      username: 'shop',
      client_id: 'cid',
      client_secret_id: 'secret',
      grant_type: 'client_credentials',
    });
  });

  it('--config: environments you are logged into need v2 addresses; --live makes a real v2 token request', async () => {
    expect((await e2e.run(loginArgs('sandbox', '--api', 'v1'), { input: SECRET })).exitCode).toBe(0);
    const run = (await import('../helpers/cli.js')).cliFor({ configDir: e2e.dir });
    await run(['config', 'set', 'stage.v1.auth-url', 'https://a.example.com'], {});
    const config = await run(['migrate-check', '--config', '--json'], {});
    expect(JSON.parse(config.stdout).findings.map((f: any) => f.rule)).toEqual(['PO302']);
    await call(e2e.sb.url, 'DELETE', '/_sandbox/journal');
    const live = await e2e.run(['migrate-check', '--live', 'sandbox', '--json']);
    expect(live.exitCode).toBe(0);
    expect(JSON.parse(live.stdout).findings[0]).toMatchObject({ rule: 'PO303', severity: 'info' });
    expect((await journal(e2e.sb.url, 'token'))[0].path).toBe('/v2/api/auth/token');
    await call(e2e.sb.url, 'POST', '/_sandbox/force', { route: 'token', error: '3006' });
    const refused = await e2e.run(['migrate-check', '--live', 'sandbox']);
    expect(refused.exitCode).toBe(1);
    expect(refused.stdout).toContain('a v2 token request on sandbox failed: the secret does not match');
  });

  it('--rules lists every rule; bad input is exit 2 naming it', async () => {
    const rules = await e2e.run(['migrate-check', '--rules']);
    expect(rules.stdout.trim().split('\n')).toHaveLength(15);
    const missing = await e2e.run(['migrate-check', join(e2e.dir, 'nope')]);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain(`cannot read ${join(e2e.dir, 'nope')} (ENOENT)`);
    const none = await e2e.run(['migrate-check']);
    expect(none.exitCode).toBe(2);
  });
});
