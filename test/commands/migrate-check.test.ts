import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RULES } from '../../src/migrate/rules.js';
import { cliFor, SECRET } from '../helpers/cli.js';
import { loginArgs, useE2E } from '../helpers/e2e.js';
import { call, journal, tokenFor } from '../helpers/sandbox.js';

const e2e = useE2E({}, { beforeSunset: true });

/** A port on the loopback that nothing listens on: taken from the system, then let go. */
function closedPort(): Promise<number> {
  return new Promise((resolvePort) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolvePort(port));
    });
  });
}
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
// Each at the v1 marker itself: the /1, or the field name inside its quotes. 6:35 and 9:35 are uses
// of a v1 base constant; their fix is where the constant is defined.
const SHOP_JS = [
  '2:49 PO101',
  '6:35 PO101',
  '8:28 PO102',
  '14:48 PO101',
  '18:26 PO104',
  '20:7 PO103',
  '23:7 PO108',
  '27:30 PO105',
  '27:58 PO110',
  '31:48 PO101',
  '31:50 PO106',
  '33:24 PO107',
];
const SHOP_PHP = [
  '5:55 PO101',
  '9:35 PO101',
  '9:46 PO102',
  '15:25 PO104',
  '17:14 PO103',
  '21:61 PO101',
  '22:34 PO105',
  '27:59 PO101',
  '27:61 PO106',
  '29:18 PO107',
];

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
      '\n  2:49   error   PO101  a v1 address (the /1 version prefix)\n' +
        '                        fix: use the v2 base address and the /v2/api prefix\n' +
        "                        → const AUTH_URL = 'https://auth.stage.example.com/v2/api';\n",
    );
    expect(result.stdout.split('\n').slice(-3)).toEqual([
      '✗ not ready for v2: 18 errors, 4 warnings, 0 info in 2 of 3 files read, 2 talking to the service',
      'v1 is switched off on 2026-12-31: 10 days left.',
      '',
    ]);
    for (const file of [...planted, 'logo.png']) expect(result.stdout).not.toContain(file);
    expect(result.stderr).toBe('');
  });

  it('a folder leaves out files over 2 MB, minified and source-map files, and files with a NUL byte in their first 8 KB; a file named is read whatever its size', async () => {
    const dir = join(e2e.dir, 'walked');
    mkdirSync(dir, { recursive: true });
    const v1 = "const AUTH = 'https://auth.example.com/1/auth/token';\n";
    const files: Record<string, string> = {
      'big.js': v1 + ' '.repeat(2 * 1024 * 1024),
      'app.min.js': v1,
      'app.js.map': v1,
      'early-nul.js': `${v1}\0`,
      'late-nul.js': `${v1}${' '.repeat(8192)}\0`,
      'small.js': v1,
    };
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    const walked = await e2e.run(['migrate-check', dir, '--json'], { env: NOW });
    const report = JSON.parse(walked.stdout);
    expect(report.files).toBe(2);
    expect([...new Set(report.findings.map((f: { location: { file: string } }) => f.location.file))]).toEqual(
      [join(dir, 'late-nul.js'), join(dir, 'small.js')],
    );
    const named = await e2e.run(['migrate-check', join(dir, 'big.js'), '--json'], { env: NOW });
    expect(JSON.parse(named.stdout)).toMatchObject({ files: 1, counts: { error: 1 } });
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
      files_with_findings: 1,
      service_files: 1,
      suppressed: 0,
      excluded: 0,
      baselined: 0,
      setup_findings: 0,
      counts: { error: 8, warning: 2, info: 1 },
      sunset: { date: '2026-12-31', days_left: 10 },
      not_checked: [],
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
      '✓ ready for v2 (0 errors, 0 warnings, 0 info; 2 files read, 2 talking to the service)\nv1 is switched off on 2026-12-31: 10 days left.\n',
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

  it('--fix output is accepted by the sandbox, with exact amounts; NDJSON keeps its lines, what cannot be converted stays and is told', async () => {
    expect((await e2e.run(loginArgs(), { input: SECRET })).exitCode).toBe(0);
    const file = join(e2e.dir, 'orders.ndjson');
    const original = [
      ...readFileSync(join(FIXTURES, 'bodies/orders-v1.ndjson'), 'utf8').trimEnd().split('\n'),
      '{"amount": "45", "description": "Cap", "userName": "u", "callback_success": "https://s/ok", "callback_fail": "https://s/ko"}',
    ];
    writeFileSync(file, `${original.join('\n')}\n`);
    const result = await e2e.run(['migrate-check', file, '--fix']);
    expect(result.exitCode).toBe(1);
    // Notes first, then the report, on stderr: stdout holds only the converted bodies.
    expect(result.stderr.split('\n').slice(0, 4)).toEqual([
      `${file} line 2: kept as it was: it cannot be converted (see its findings)`,
      `${file} line 4: kept as it was: it cannot be converted (see its findings)`,
      `${file} line 5: amount "45" → "4500": confirm "45" is whole units (v1), not already cents`,
      file,
    ]);
    expect(result.stderr).toContain(
      'warning PO104  amount "45" in a v1 body has no decimal point: whole units on v1, or already cents?',
    );
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(original.length);
    expect([lines[1], lines[3]]).toEqual([original[1], original[3]]);
    const bodies = [lines[0], lines[2], lines[4]].map((line) => JSON.parse(line!));
    expect(bodies.map((b) => b.amount)).toEqual(['14990', '9223372036854775807', '4500']);
    const token = await tokenFor(e2e.sb.url);
    for (const body of bodies)
      expect((await call(e2e.sb.url, 'POST', '/v2/api/checkout', body, token)).status).toBe(200);
    const created = (await call(e2e.sb.url, 'GET', '/_sandbox/orders')).body.orders.map((o: any) => o.amount);
    expect(created).toEqual(['14990', '9223372036854775807', '4500']);
  });

  it('NDJSON: a line that is not JSON is a finding on that line; the other lines are still checked', async () => {
    const file = join(e2e.dir, 'orders.ndjson');
    writeFileSync(
      file,
      [
        '{"amount": "10.00", "description": "A", "userName": "u", "callback_success": "https://s/ok", "callback_fail": "https://s/ko"}',
        '{"amount": "12.50", "description": "B", ',
        'not json at all',
        '{"user_name": "u", "client_id": "c", "client_secret_id": "s", "grant_type": "client_credentials"}',
        '',
      ].join('\n'),
    );
    const result = await e2e.run(['migrate-check', file, '--json']);
    expect(result.exitCode).toBe(1);
    const findings = JSON.parse(result.stdout).findings.map((f: any) => `${f.location.item} ${f.rule}`);
    expect(findings).toEqual([
      'line 1 PO103',
      'line 1 PO104',
      'line 1 PO109',
      'line 2 PO201',
      'line 3 PO202',
      'line 4 PO102',
    ]);
    const fixed = await e2e.run(['migrate-check', file, '--fix']);
    expect(fixed.stdout.split('\n').slice(1, 3)).toEqual([
      '{"amount": "12.50", "description": "B", ',
      'not json at all',
    ]);
  });

  it("--fix --write on a HAR writes NAME.v2.har with only the service's own requests rewritten, never over a file", async () => {
    cpSync(join(FIXTURES, 'bodies'), join(e2e.dir, 'bodies'), { recursive: true });
    const har = join(e2e.dir, 'bodies/shop.har');
    const written = join(e2e.dir, 'bodies/shop.v2.har');
    const first = await e2e.run(['migrate-check', har, '--fix', '--write']);
    expect(first.exitCode).toBe(1);
    expect(first.stderr).toBe(
      `${har} entry 4: kept as it was: v2 looks an order up by its uuid (GET /v2/api/orders/:uuid); "abc" is a v1 id, so there is no v2 request to write: use the order's uuid\n` +
        `${har}: 2 requests now use /v2/api; the addresses keep their v1 domains, replace them with your v2 ones\n` +
        `wrote ${written}\n`,
    );
    const original = JSON.parse(readFileSync(har, 'utf8')).log.entries;
    const entries = JSON.parse(readFileSync(written, 'utf8')).log.entries;
    expect(entries).toHaveLength(original.length);
    expect(entries[0].request.url).toBe('https://auth.stage.example.com/v2/api/auth/token');
    expect(JSON.parse(entries[0].request.postData.text)).toMatchObject({ username: 'shop' });
    // The shop's own page and an analytics beacon whose body looks like an order: untouched.
    expect(entries[1]).toEqual(original[1]);
    expect(entries[2]).toEqual(original[2]);
    expect(entries[3].request.url).toBe('https://pay.stage.example.com/v2/api/checkout');
    const body = JSON.parse(entries[3].request.postData.text);
    expect(body).toMatchObject({ amount: '1999' });
    expect(body).not.toHaveProperty('userName');
    expect(entries[3].request.headers).toContainEqual({
      name: 'Content-Length',
      value: String(Buffer.byteLength(entries[3].request.postData.text)),
    });
    // The lookup by v1 id is not turned into /orders/<v1 id>.
    expect(entries[4]).toEqual(original[4]);
    // Nor is the beacon's look-alike body checked.
    expect(findingsOf(first.stdout).filter((f) => f.includes('entry 2'))).toEqual([]);
    writeFileSync(written, 'edited by hand\n');
    const again = await e2e.run(['migrate-check', har, '--fix', '--write']);
    expect(again.exitCode).toBe(2);
    expect(again.stderr).toBe(
      `error: --write: ${written} already exists; payorder never writes over a file\n`,
    );
    expect(readFileSync(written, 'utf8')).toBe('edited by hand\n');
  });

  it('--fix --write on a Postman collection writes NAME.v2.json, checked clean of errors, and leaves the collection as it was', async () => {
    const folder = join(e2e.dir, 'postman');
    cpSync(join(FIXTURES, 'corpus/postman/v1'), folder, { recursive: true });
    const collection = join(folder, 'PayOrder.postman_collection.json');
    const written = join(folder, 'PayOrder.postman_collection.v2.json');
    const before = readFileSync(collection, 'utf8');
    const first = await e2e.run(['migrate-check', collection, '--fix', '--write']);
    expect(first.stderr).toContain(`wrote ${written}\n`);
    expect(readFileSync(collection, 'utf8')).toBe(before);
    const again = await e2e.run(['migrate-check', written]);
    expect(findingsOf(again.stdout).filter((line) => / error /.test(line))).toEqual([]);
    expect(again.exitCode).toBe(0);
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

  it('--config reports default-api v1 (PO302), even before any login', async () => {
    const run = cliFor({ configDir: e2e.dir });
    expect((await run(['config', 'set', 'default-api', 'v1'])).exitCode).toBe(0);
    const config = await run(['migrate-check', '--config', '--json']);
    expect(config.exitCode).toBe(0);
    expect(JSON.parse(config.stdout).findings).toEqual([
      expect.objectContaining({
        rule: 'PO302',
        severity: 'warning',
        location: expect.objectContaining({ pointer: '/defaults/api' }),
      }),
    ]);
  });

  it('--live with the service unreachable: exit 5, "could not check", the files counted right', async () => {
    expect((await e2e.run(loginArgs(), { input: SECRET })).exitCode).toBe(0);
    // A port that was free a moment ago: nothing listens there, the token request cannot be made.
    const port = await closedPort();
    const down = {
      PAYORDER_AUTH_URL: `http://127.0.0.1:${port}`,
      PAYORDER_CHECKOUT_URL: `http://127.0.0.1:${port}`,
    };
    const ready = join(FIXTURES, 'bodies/orders-v2.json');
    const text = await e2e.run(['migrate-check', ready, '--live', 'sandbox'], { env: { ...NOW, ...down } });
    expect(text.exitCode).toBe(5);
    expect(text.stdout.split('\n').slice(-3)).toEqual([
      expect.stringMatching(
        new RegExp(
          `^\\? could not check: --live sandbox: cannot reach http://127\\.0\\.0\\.1:${port} .+ \\(0 errors, 0 warnings, 0 info; 1 file read, 1 talking to the service\\)$`,
        ),
      ),
      'v1 is switched off on 2026-12-31: 10 days left.',
      '',
    ]);
    const json = await e2e.run(['migrate-check', ready, '--live', 'sandbox', '--json'], { env: down });
    expect(json.exitCode).toBe(5);
    expect(JSON.parse(json.stdout)).toMatchObject({
      ready: null,
      files: 1,
      not_checked: [expect.stringContaining('cannot reach')],
    });
    // With errors found the verdict stands: not ready (exit 1), and what was not checked is said.
    const v1 = await e2e.run(['migrate-check', join(FIXTURES, 'bodies/token-v1.json'), '--live', 'sandbox'], {
      env: { ...NOW, ...down },
    });
    expect(v1.exitCode).toBe(1);
    expect(v1.stdout).toContain(
      '✗ not ready for v2: 1 error, 0 warnings, 0 info in 1 of 1 file read, 1 talking to the service\n? not checked: --live sandbox',
    );
  });

  it('--rules lists every rule; bad input is exit 2 naming it', async () => {
    const rules = await e2e.run(['migrate-check', '--rules']);
    expect(rules.exitCode).toBe(0);
    const blocks = rules.stdout.trim().split('\n\n');
    expect(blocks.map((block) => block.split(' ')[0])).toEqual(RULES.map((r) => r.id));
    expect(blocks[0]).toBe(
      [
        'PO101  error    v1-address (spec §9.3: Replace the base addresses)',
        '       A v1 address: the /1 version prefix on an auth or checkout address',
        '       bad:  AUTH_URL=https://auth.example.com/1',
        '       good: AUTH_URL=https://auth.v2.example.com/v2/api',
      ].join('\n'),
    );
    const json = JSON.parse((await e2e.run(['migrate-check', '--rules', '--json'])).stdout);
    expect(json).toHaveLength(RULES.length);
    for (const rule of json) {
      expect(Object.keys(rule)).toEqual(['id', 'name', 'severity', 'step', 'summary', 'help', 'bad', 'good']);
      expect(rule.bad).not.toBe(rule.good);
    }
    expect(json.find((r: any) => r.id === 'PO302').step).toBeNull();

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
