import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RULES } from '../../src/migrate/rules.js';
import { cliFor, SECRET } from '../helpers/cli.js';
import { loginArgs, useE2E } from '../helpers/e2e.js';
import { call, journal, tokenFor } from '../helpers/sandbox.js';

const e2e = useE2E();
const FIXTURES = resolve(import.meta.dirname, '../fixtures/migrate');
/** Ten days before v1 is switched off. */
const NOW = { PAYORDER_NOW: '2026-12-21T10:00:00Z' };

/**
 * The findings of a text report, each as "FILE:LINE:COLUMN RULE" for source code, or "FILE ITEM
 * POINTER RULE" for bodies (the pointer alone for a single body): FILE is the heading of its group,
 * the path as the user gave it.
 */
function findingsOf(report: string): string[] {
  const found: string[] = [];
  let file = '';
  for (const line of report.split('\n')) {
    if (/^[^\s✓✗]/.test(line) && !line.startsWith('v1 ')) file = line;
    const finding = /^ {2}(\S.*?) {2,}(?:error|warning|info) +(PO\d{3}) /.exec(line);
    if (finding) found.push(`${file}${/^\d+:\d+$/.test(finding[1]!) ? ':' : ' '}${finding[1]} ${finding[2]}`);
  }
  return found;
}

/** Where the fixture shops have their v1 markers (line:column), by rule. */
const SHOP_JS = ['2:7 PO101', '8:28 PO102', '14:48 PO101', '18:26 PO104', '20:6 PO103', '23:7 PO108'].concat([
  '27:30 PO105',
  '27:57 PO110',
  '31:48 PO101',
  '31:50 PO106',
  '33:24 PO107',
]);
const SHOP_PHP = ['5:55 PO101', '9:46 PO102', '15:25 PO104', '17:13 PO103', '21:61 PO101'].concat([
  '22:23 PO105',
  '27:59 PO101',
  '27:61 PO106',
  '29:18 PO107',
]);

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
      env: NOW,
    });
    expect(result.exitCode).toBe(1);
    const js = join(e2e.dir, 'shop-js/src/checkout.js');
    const php = join(e2e.dir, 'shop-php/Checkout.php');
    expect(findingsOf(result.stdout)).toEqual([
      ...SHOP_JS.map((finding) => `${js}:${finding}`),
      ...SHOP_PHP.map((finding) => `${php}:${finding}`),
    ]);
    expect(result.stdout).toContain(
      '\n  2:7    error   PO101  a v1 address (the /1 version prefix)\n' +
        '                        fix: use the v2 base address and the /v2/api prefix\n' +
        "                        → const AUTH_URL = 'https://auth.stage.example.com/v2/api';\n",
    );
    expect(result.stdout.split('\n').slice(-3)).toEqual([
      '✗ not ready for v2: 16 errors, 4 warnings, 0 info in 2 of 3 files read',
      'v1 is switched off on 2026-12-31: 10 days left.',
      '',
    ]);
    for (const file of [...planted, 'logo.png']) expect(result.stdout).not.toContain(file);
    expect(result.stderr).toBe('');
  });

  it('reports a path relative to where it runs as it was given', async () => {
    const shop = relative(process.cwd(), join(FIXTURES, 'shop-php'));
    const result = await e2e.run(['migrate-check', shop], { env: NOW });
    expect(result.exitCode).toBe(1);
    expect(findingsOf(result.stdout)).toEqual(
      SHOP_PHP.map((finding) => `${join(shop, 'Checkout.php')}:${finding}`),
    );
  });

  it('--json: stable shape with rule, severity, location and fix', async () => {
    const file = join(FIXTURES, 'bodies/orders-v1.ndjson');
    const result = await e2e.run(['migrate-check', file, '--json'], { env: NOW });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toBe('');
    const { findings, ...summary } = JSON.parse(result.stdout);
    expect(summary).toEqual({
      ready: false,
      files: 1,
      counts: { error: 9, warning: 1, info: 1 },
      sunset: { date: '2026-12-31', days_left: 10 },
    });
    expect(findings).toContainEqual({
      rule: 'PO104',
      severity: 'error',
      message: 'decimal amount "149.90"',
      fix: 'amount "149.90" → "14990"',
      location: { file, item: 'line 1', pointer: '/amount' },
    });
    expect(
      findings.map((f: any) => `${f.location.file} ${f.location.item} ${f.location.pointer} ${f.rule}`),
    ).toEqual(findingsOf((await e2e.run(['migrate-check', file], { env: NOW })).stdout));
  });

  it('a ready integration exits 0', async () => {
    const result = await e2e.run(
      ['migrate-check', join(FIXTURES, 'near-miss'), join(FIXTURES, 'bodies/orders-v2.json')],
      { env: NOW },
    );
    expect(result.exitCode, result.stdout).toBe(0);
    expect(result.stdout).toBe(
      '✓ ready for v2 (0 errors, 0 warnings, 0 info; 2 files read)\nv1 is switched off on 2026-12-31: 10 days left.\n',
    );
  });

  it('--format sarif on a HAR capture', async () => {
    const har = join(FIXTURES, 'bodies/checkout.har');
    const result = await e2e.run(['migrate-check', har, '--format', 'sarif']);
    expect(result.exitCode).toBe(1);
    const log = JSON.parse(result.stdout);
    expect(log.version).toBe('2.1.0');
    const results = log.runs[0].results;
    expect(results.map((r: any) => r.ruleId)).toEqual([
      'PO101',
      'PO102',
      'PO101',
      'PO103',
      'PO104',
      'PO109',
      'PO105',
      'PO110',
    ]);
    expect(results[4]).toMatchObject({
      level: 'error',
      locations: [
        {
          physicalLocation: { artifactLocation: { uri: har } },
          logicalLocations: [{ fullyQualifiedName: 'entry 1 /log/entries/1/request/postData/text/amount' }],
        },
      ],
    });
  });

  it('--fix output is accepted by the sandbox, with exact amounts', async () => {
    expect((await e2e.run(loginArgs(), { input: SECRET })).exitCode).toBe(0);
    const file = join(FIXTURES, 'bodies/orders-v1.ndjson');
    const result = await e2e.run(['migrate-check', file, '--fix']);
    expect(result.exitCode).toBe(1);
    // The report goes to stderr after that note: stdout holds only the converted bodies.
    expect(result.stderr.split('\n').slice(0, 2)).toEqual([
      `${file}: 2 items could not be converted (see the findings); left out`,
      file,
    ]);
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
    const written = join(e2e.dir, 'bodies/checkout.v2.json');
    const first = await e2e.run(['migrate-check', har, '--fix', '--write']);
    expect(first.exitCode).toBe(1);
    expect(first.stderr).toBe(`wrote ${written}\n`);
    // With --write the report is the data on stdout.
    expect(findingsOf(first.stdout)).toHaveLength(8);
    const text = readFileSync(written, 'utf8');
    const records = JSON.parse(text);
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
    writeFileSync(written, 'edited by hand\n');
    const again = await e2e.run(['migrate-check', har, '--fix', '--write']);
    expect(again.exitCode).toBe(2);
    expect(again.stderr).toBe(
      `error: --write: ${written} already exists; payorder never writes over a file\n`,
    );
    expect(readFileSync(written, 'utf8')).toBe('edited by hand\n');
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
    expect(result.exitCode).toBe(1);
    expect(findingsOf(result.stderr)).toEqual(['<stdin> /user_name PO102']);
  });

  it('--config: environments you are logged into need v2 addresses; --live makes a real v2 token request', async () => {
    expect((await e2e.run(loginArgs('sandbox', '--api', 'v1'), { input: SECRET })).exitCode).toBe(0);
    // Without the sandbox's address in the environment: the stored addresses are what is checked.
    const run = cliFor({ configDir: e2e.dir });
    await run(['config', 'set', 'stage.v1.auth-url', 'https://a.example.com']);
    const config = await run(['migrate-check', '--config', '--json']);
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
    expect(rules.exitCode).toBe(0);
    const lines = rules.stdout.trim().split('\n');
    expect(lines).toHaveLength(15);
    expect(lines.map((line) => line.split(' ')[0])).toEqual(RULES.map((r) => r.id));
    const missing = await e2e.run(['migrate-check', join(e2e.dir, 'nope')]);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toBe(`error: cannot read ${join(e2e.dir, 'nope')} (ENOENT)\n`);
    const none = await e2e.run(['migrate-check']);
    expect(none.exitCode).toBe(2);
    expect(none.stderr).toBe(
      'error: give files or folders to check (- for stdin), --config or --live ENV\nhint: payorder migrate-check src/ --config\n',
    );
  });
});
