import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { orderOutputSchema } from '../../../src/contract/schemas.js';
import {
  batchCommand,
  journalRecords,
  lastEvents,
  orderLine as line,
  recordsOf,
  sentEvents,
  writeOrderLines,
} from '../../helpers/batch.js';
import { BIN, expectNoLeak, onTerminal, SHOP } from '../../helpers/cli.js';
import { runInProcess } from '../../helpers/context.js';
import { useE2E } from '../../helpers/e2e.js';
import { call, journal, slowCheckouts } from '../../helpers/sandbox.js';
import { unusedPort } from '../../helpers/servers.js';

const e2e = useE2E({}, { beforeSunset: true });

const batch = (file: string, ...args: string[]) =>
  e2e.run(['order', 'create', '--env', 'sandbox', '--input', file, ...args]);

describe('order create --input', () => {
  it('1,000 NDJSON lines with bad ones mixed in: one result per line in input order, bad lines reported, the rest created', async () => {
    await e2e.loginAfresh();
    const bad = new Map<number, string>([
      [
        10,
        '{"amount": "1.234", "description": "x", "success": "https://s.example", "fail": "https://s.example"}',
      ],
      [200, 'this is not json'],
      [512, line(512, { success: 'nope' })],
      [999, line(999, { description: '' })],
    ]);
    const lines = Array.from({ length: 1000 }, (_, i) => bad.get(i + 1) ?? line(i + 1));
    const file = join(e2e.dir, 'orders.ndjson');
    writeFileSync(file, `${lines.join('\n')}\n`);
    const result = await batch(file, '--concurrency', '8');
    expect(result.exitCode).toBe(1);
    const records = recordsOf(result.stdout);
    expect(records.map((r) => r.line)).toEqual(Array.from({ length: 1000 }, (_, i) => i + 1));
    const failed = records.filter((r) => r.outcome === 'failed');
    expect(failed.map((r) => r.line)).toEqual([10, 200, 512, 999]);
    expect(failed[0].error.message).toBe(
      'line 10: amount: must have at most 2 decimals (got "1.234"; e.g. 12.50)',
    );
    expect(failed[1].error.message).toBe('line 200: not valid JSON');
    expect(failed[2].error.message).toContain('line 512: success: must be an absolute http(s) URL');
    expect(failed[3].error.message).toBe('line 999: description: is required');
    for (const record of records.filter((r) => r.outcome === 'created')) {
      orderOutputSchema.parse(record.order);
      expect(record.order.amount).toBe(`${record.line}.${String(record.line % 100).padStart(2, '0')}`);
    }
    expect(result.stderr).toContain('1000 lines in');
    expect(result.stderr).toContain('996 created, 0 already created, 4 failed, 0 outcome unknown');
    const orders = await e2e.orders();
    expect(orders).toHaveLength(996);
    expect(new Set(orders.map((o) => o.uuid)).size).toBe(996);
  });

  it('CSV with a header, quoted commas, API column names and v2 cents', async () => {
    await e2e.loginAfresh();
    const file = join(e2e.dir, 'orders.csv');
    writeFileSync(
      file,
      'amount_cents,description,callback_success,callback_fail,external_reference\n' +
        '1250,"Tea, green",https://s.example/ok,https://s.example/ko,INV-1\n' +
        '99,"Two\nlines",https://s.example/ok,https://s.example/ko,\n' +
        '5,too,few\n',
    );
    const result = await batch(file, '-o', 'json');
    expect(result.exitCode).toBe(1);
    const records = JSON.parse(result.stdout);
    expect(records.map((r: any) => [r.line, r.outcome])).toEqual([
      [2, 'created'],
      // A CSV record over several lines has the number of the line it starts on.
      [3, 'created'],
      [5, 'failed'],
    ]);
    expect(records[0].order).toMatchObject({ amount: '12.50', external_reference: 'INV-1' });
    expect(records[2].error.message).toBe('line 5: has 3 columns, the header has 5');
    // Two lines in flight at once reach the sandbox in either order.
    expect((await journal(e2e.sb.url, 'checkout')).map((e) => e.body.description).sort()).toEqual([
      'Tea, green',
      'Two\nlines',
    ]);
  });

  it('--journal: a rerun skips created lines and creates only the rest', async () => {
    await e2e.loginAfresh();
    const file = join(e2e.dir, 'orders.ndjson');
    const journalFile = join(e2e.dir, 'orders.journal');
    writeFileSync(file, Array.from({ length: 10 }, (_, i) => line(i + 1)).join('\n'));
    await call(e2e.sb.url, 'POST', '/_sandbox/force', { route: 'checkout', error: '1001', times: 3 });
    const first = await batch(file, '--journal', journalFile, '--concurrency', '1');
    expect(first.exitCode).toBe(1);
    expect(first.stderr).toContain('7 created, 0 already created, 3 failed');
    const second = await batch(file, '--journal', journalFile);
    expect(second.exitCode, second.stderr).toBe(0);
    expect(second.stderr).toContain('3 created, 7 already created, 0 failed');
    const records = recordsOf(second.stdout);
    const orders = await e2e.orders();
    expect(orders).toHaveLength(10);
    expect(new Set(orders.map((o) => o.uuid)).size).toBe(10);
    // Every line shows its order; those the first run created are skipped, with that order.
    const createdFirst = new Set(
      recordsOf(first.stdout)
        .filter((r) => r.outcome === 'created')
        .map((r) => r.line),
    );
    expect(createdFirst.size).toBe(7);
    const uuidOf = new Map(orders.map((o) => [o.description, o.uuid]));
    expect(records.map((r) => [r.line, r.outcome, r.order.uuid])).toEqual(
      Array.from({ length: 10 }, (_, i) => [
        i + 1,
        createdFirst.has(i + 1) ? 'skipped' : 'created',
        uuidOf.get(`line ${i + 1}`),
      ]),
    );
  });

  it('a line whose answer was lost is "outcome unknown", never retried, the others go on', async () => {
    await e2e.loginAfresh();
    const file = join(e2e.dir, 'orders.ndjson');
    writeFileSync(file, [line(1), line(2), line(3)].join('\n'));
    await call(e2e.sb.url, 'POST', '/_sandbox/force', { route: 'checkout', fault: 'reset' });
    const result = await batch(file, '--concurrency', '1', '--journal', join(e2e.dir, 'j'));
    expect(result.exitCode).toBe(5);
    const records = recordsOf(result.stdout);
    expect(records.map((r) => r.outcome)).toEqual(['unknown', 'created', 'created']);
    expect(await journal(e2e.sb.url, 'checkout')).toHaveLength(3);
    const again = await batch(file, '--journal', join(e2e.dir, 'j'));
    expect(again.exitCode).toBe(5);
    expect(again.stdout).toContain('outcome unknown from an earlier run');
    expect(await journal(e2e.sb.url, 'checkout')).toHaveLength(3);
  });

  it('429 with Retry-After is retried inside a batch', async () => {
    await e2e.loginAfresh();
    const file = join(e2e.dir, 'orders.ndjson');
    writeFileSync(file, [line(1), line(2)].join('\n'));
    await call(e2e.sb.url, 'POST', '/_sandbox/force', {
      route: 'checkout',
      fault: 'rate-limit',
      retry_after: 1,
    });
    const result = await batch(file, '--concurrency', '1');
    expect(result.exitCode, result.stderr).toBe(0);
    expect((await journal(e2e.sb.url, 'checkout')).map((e) => e.status)).toEqual([429, 200, 200]);
  });

  // "Something bad happened. Please try again" does not say the order was not made: a rerun must not
  // send it again unless asked to.
  it('999 on a line: outcome unknown, recorded so, and not resent by a rerun unless --retry-unknown', async () => {
    await e2e.loginAfresh();
    const file = join(e2e.dir, 'orders.ndjson');
    const journalFile = join(e2e.dir, 'orders.journal');
    writeFileSync(file, [line(1), line(2)].join('\n'));
    await call(e2e.sb.url, 'POST', '/_sandbox/force', { route: 'checkout', error: '999' });
    const first = await batch(file, '--concurrency', '1', '--journal', journalFile);
    expect(first.exitCode).toBe(5);
    expect(recordsOf(first.stdout).map((r) => r.outcome)).toEqual(['unknown', 'created']);
    expect([...lastEvents(journalFile).values()]).toEqual(['unknown', 'created']);
    for (let rerun = 0; rerun < 3; rerun++) {
      const again = await batch(file, '--journal', journalFile);
      expect(again.exitCode).toBe(5);
    }
    expect(await journal(e2e.sb.url, 'checkout')).toHaveLength(2);
    const retried = await batch(file, '--journal', journalFile, '--retry-unknown');
    expect(retried.exitCode, retried.stderr).toBe(0);
    expect(await journal(e2e.sb.url, 'checkout')).toHaveLength(3);
  });

  // 429 and 503 say the service did not act: once the retries run out the line failed, and may be resent.
  it.each(['rate-limit', 'unavailable'])(
    '%s past the retries: the line failed (exit 1, not created), a rerun sends it',
    async (fault) => {
      await e2e.loginAfresh();
      const file = join(e2e.dir, 'orders.ndjson');
      const journalFile = join(e2e.dir, 'orders.journal');
      writeFileSync(file, line(1));
      await call(e2e.sb.url, 'POST', '/_sandbox/force', {
        route: 'checkout',
        fault,
        retry_after: 0,
        times: 5,
      });
      const first = await batch(file, '--journal', journalFile);
      expect(first.exitCode).toBe(1);
      expect(recordsOf(first.stdout)[0]).toMatchObject({ outcome: 'failed' });
      expect(first.stdout).toContain('the order was not created');
      expect([...lastEvents(journalFile).values()]).toEqual(['failed']);
      const again = await batch(file, '--journal', journalFile);
      expect(again.exitCode, again.stderr).toBe(0);
      expect((await journal(e2e.sb.url, 'checkout')).map((e) => e.status)).toEqual([
        ...Array(5).fill(fault === 'rate-limit' ? 429 : 503),
        200,
      ]);
    },
  );

  // The one batch killed for real: a process that dies mid-batch leaves only what its journal says.
  it('resumes after kill -9 mid-batch with zero duplicates and zero lost orders', async () => {
    const count = 200;
    await e2e.loginAfresh();
    const file = writeLines(count);
    const journalFile = join(e2e.dir, 'orders.journal');
    await slowCheckouts(e2e.sb.url, 20);
    const child = execa(
      process.execPath,
      [BIN, 'order', 'create', '--env', 'sandbox', '--input', file, '--journal', journalFile, '-o', 'ndjson'],
      { env: e2e.env(), extendEnv: false, reject: false },
    );
    await expect
      .poll(async () => (await e2e.orders()).length, { timeout: 15_000, interval: 20 })
      .toBeGreaterThan(40);
    child.kill('SIGKILL');
    await child;
    await call(e2e.sb.url, 'DELETE', '/_sandbox/force');

    const resumed = await batch(file, '--journal', journalFile, '--concurrency', '8');
    const records = recordsOf(resumed.stdout);
    expect(records).toHaveLength(count);
    const unknown = records.filter((r) => r.outcome === 'unknown');
    // Exit 5 exactly when some line's outcome is unknown; every other line succeeded.
    expect(resumed.exitCode, resumed.stderr).toBe(unknown.length > 0 ? 5 : 0);
    // Only lines in flight when the process died can be unknown (4 at the default concurrency).
    expect(unknown.length).toBeLessThanOrEqual(4);

    const orders = await e2e.orders();
    const existing = new Set(orders.map((o) => o.uuid));
    const sent = new Map<string, number>();
    for (const entry of await journal(e2e.sb.url, 'checkout'))
      sent.set(entry.body.description, (sent.get(entry.body.description) ?? 0) + 1);
    // Zero duplicates: no input line reached the service twice, and no order exists twice.
    expect([...sent].filter(([, times]) => times !== 1)).toEqual([]);
    expect(orders.length).toBe(sent.size);
    // Zero lost: every line is created or already created with its order, or reported unknown.
    const known = records.filter((r) => r.order).map((r) => r.order.uuid);
    expect(new Set(known).size).toBe(known.length);
    expect(known.filter((uuid) => !existing.has(uuid))).toEqual([]);
    expect(known.length + unknown.length).toBe(count);
  });

  it('on a terminal: a line per result and progress, and it finishes', async () => {
    await e2e.loginAfresh();
    const file = join(e2e.dir, 'orders.ndjson');
    writeFileSync(file, [line(1), line(2), '{"amount": "x"}'].join('\n'));
    const env = e2e.env();
    for (const size of ['stty cols 120 rows 40; ', '']) {
      // --again: the second run creates the lines anew rather than skip them as the first run's.
      const command = `${size}"${process.execPath}" "${BIN}" order create --env sandbox --input "${file}" --again`;
      const result = await onTerminal(command, env);
      const screen = result.stdout.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '');
      expect(result.exitCode).toBe(1);
      // The payment link beside its line where it fits (120 columns), else whole on the next line.
      expect(screen).toMatch(
        size ? /line 1 +✓ created +1\.01 {2}PENDING +http:/ : /line 1 +✓ created +1\.01 {2}PENDING\nhttp:/,
      );
      // A failed line shows what it asked for (here only the amount), then, below, why it failed.
      expect(screen).toMatch(/line 3 +✗ failed +x\n/);
      expect(screen).toContain('\n           line 3: amount: must contain only digits and a single point');
      if (size)
        expect(screen).toMatch(/\d+ lines: \d+ created, 0 skipped, \d+ failed, 0 unknown \([\d.]+\/s\)/);
    }
  });

  it('refuses flags that do not go together', async () => {
    await e2e.loginAfresh();
    const both = await e2e.run(['order', 'create', '--env', 'sandbox', '--input', 'x', '--amount', '1']);
    expect(both.exitCode).toBe(2);
    expect(both.stderr).toContain('--input takes the amount and the references from the file; drop --amount');
    expect(
      (await e2e.run(['order', 'create', '--env', 'sandbox', '--input', 'x', '--concurrency', '0'])).stderr,
    ).toContain('--concurrency: must be a whole number from 1 to 64');
    const missing = await e2e.run([
      'order',
      'create',
      '--env',
      'sandbox',
      '--input',
      join(e2e.dir, 'nope.ndjson'),
    ]);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain('--input: cannot read');
  });

  it.each([
    ['a ; CSV', 'amount;description;success;fail\n1;Tea;https://s.example/ok;https://s.example/ko\n'],
    ['a header typo', 'ammount,description,success,fail\n1,Tea,https://s.example/ok,https://s.example/ko\n'],
  ])(
    '%s is refused before sending: exit 2, nothing on stdout in any format (no TSV header, no [])',
    async (_, csv) => {
      await e2e.loginAfresh();
      const file = join(e2e.dir, 'orders.csv');
      writeFileSync(file, csv);
      for (const format of ['tsv', 'json', 'ndjson']) {
        const result = await e2e.run(['order', 'create', '--env', 'sandbox', '--input', file, '-o', format]);
        expect(result.exitCode).toBe(2);
        expect(result.stdout).toBe('');
        expect(result.stderr).toContain('--input: ');
      }
      expect(await journal(e2e.sb.url, 'checkout')).toEqual([]);
    },
  );
});

/** Writes lines 1 to `count` (line n with the external reference REF-n) to the test's folder. */
const writeLines = (count: number) => writeOrderLines(e2e.dir, count);

/** Every line in the journal ended failed (sent and refused, or recorded and not sent): `tried` of them at least. */
function expectAllFailed(journalFile: string, tried: number) {
  const events = [...lastEvents(journalFile).values()];
  expect(new Set(events)).toEqual(new Set(['failed']));
  expect(events.length).toBeGreaterThanOrEqual(tried);
}

const checkoutCount = async () => (await journal(e2e.sb.url, 'checkout')).length;

/** The service back at an address that was down: forwards every request on `port` to the sandbox. */
async function forwarder(port: number, to: string): Promise<{ close(): Promise<void> }> {
  const target = new URL(to);
  const server = createHttpServer((request, response) => {
    const upstream = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        method: request.method,
        path: request.url,
        headers: request.headers,
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    upstream.on('error', () => response.destroy());
    request.pipe(upstream);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const SUMMARY =
  /(\d+) lines in [\d.]+ s: (\d+) created, (\d+) already created, (\d+) failed, (\d+) outcome unknown/;

describe('order create --input: the service refuses the token', () => {
  it('refused even after one renewal: stops sending, finishes the lines in flight, prints the summary, exit 4', async () => {
    await e2e.loginAfresh();
    const file = writeLines(40);
    const journalFile = join(e2e.dir, 'orders.journal');
    await call(e2e.sb.url, 'POST', '/_sandbox/force', {
      route: 'checkout',
      error: 'unauthorized',
      times: 1000,
    });
    const result = await batch(file, '--concurrency', '4', '--journal', journalFile);

    expect(result.exitCode, result.stderr).toBe(4);
    const records = recordsOf(result.stdout);
    // Only the lines already in flight when the first refusal came (one per slot) have a result.
    expect(records.length).toBeGreaterThan(0);
    expect(records.length).toBeLessThanOrEqual(4);
    expect(records.map((r) => r.line)).toEqual(records.map((_, i) => i + 1));
    for (const record of records)
      expect(record).toMatchObject({ outcome: 'failed', order: null, error: { kind: 'auth', status: 401 } });
    expect(result.stderr).toMatch(
      /error: stopped: the service did not accept the access token on sandbox \(401 Unauthorized\); \d+ lines in/,
    );
    expect(SUMMARY.exec(result.stderr)?.slice(1)).toEqual([
      `${records.length}`,
      '0',
      '0',
      `${records.length}`,
      '0',
    ]);
    expect(result.stderr).toContain('hint: log in again: payorder login --env sandbox');

    // Each of those lines was tried with the token, then once more after one renewal; no other line was sent.
    const checkouts = await journal(e2e.sb.url, 'checkout');
    expect(checkouts.map((e) => e.status)).toEqual(Array(records.length * 2).fill(401));
    expect(new Set(checkouts.map((e) => e.body.description))).toEqual(
      new Set(records.map((r) => r.input.description)),
    );
    const renewals = await journal(e2e.sb.url, 'token');
    expect(renewals.length).toBeGreaterThanOrEqual(1);
    expect(renewals.length).toBeLessThanOrEqual(records.length);
    expect(await e2e.orders()).toHaveLength(0);
    // Refused lines are failed, not unknown: a rerun after a new login sends them. So are the lines
    // recorded while those were in flight, and not sent.
    expectAllFailed(journalFile, records.length);
  });

  it('a single 401 on a line: the token is renewed once and the line is created', async () => {
    await e2e.loginAfresh();
    const file = writeLines(5);
    await call(e2e.sb.url, 'POST', '/_sandbox/force', { route: 'checkout', error: 'unauthorized' });
    const result = await batch(file, '--concurrency', '1');

    expect(result.exitCode, result.stderr).toBe(0);
    expect(recordsOf(result.stdout).map((r) => [r.line, r.outcome])).toEqual(
      [1, 2, 3, 4, 5].map((n) => [n, 'created']),
    );
    expect(result.stderr).toContain('5 created, 0 already created, 0 failed, 0 outcome unknown');
    const checkouts = await journal(e2e.sb.url, 'checkout');
    expect(checkouts.map((e) => [e.status, e.body.description])).toEqual([
      [401, 'line 1'],
      [200, 'line 1'],
      ...[2, 3, 4, 5].map((n) => [200, `line ${n}`]),
    ]);
    expect(await journal(e2e.sb.url, 'token')).toHaveLength(1);
    expect(await e2e.orders()).toHaveLength(5);
  });
});

describe('order create: the service cannot be reached', () => {
  const createArgs = [
    'order',
    'create',
    '--env',
    'sandbox',
    '--amount',
    '1',
    '--description',
    'x',
    '--success',
    'https://s.example/ok',
    '--fail',
    'https://s.example/ko',
  ];

  it.each([
    [
      'the auth and checkout addresses',
      (url: string): Record<string, string> => ({ PAYORDER_AUTH_URL: url, PAYORDER_CHECKOUT_URL: url }),
    ],
    [
      'the checkout address (auth works)',
      (url: string): Record<string, string> => ({ PAYORDER_CHECKOUT_URL: url }),
    ],
  ])(
    'a batch with nothing listening at %s: exit 5, nothing sent, lines not unknown; once the service is back the same journal creates every line',
    async (_, addresses) => {
      await e2e.loginAfresh();
      const port = await unusedPort();
      const url = `http://127.0.0.1:${port}`;
      const env = addresses(url);
      const file = writeLines(10);
      const journalFile = join(e2e.dir, 'orders.journal');
      const run = () =>
        e2e.run(['order', 'create', '--env', 'sandbox', '--input', file, '--journal', journalFile], { env });

      const first = await run();
      expect(first.exitCode, first.stderr).toBe(5);
      const records = recordsOf(first.stdout);
      expect(records.length).toBeGreaterThan(0);
      expect(records.length).toBeLessThanOrEqual(4);
      for (const record of records)
        expect(record).toMatchObject({ outcome: 'failed', error: { kind: 'network' } });
      expect(first.stderr).toContain(`error: stopped: cannot reach ${url} (ECONNREFUSED)`);
      expect(first.stderr).not.toContain('outcome unknown:');
      expect(first.stderr).toContain(
        `hint: nothing more was sent; the lines not sent are resumable: rerun with --journal ${journalFile}`,
      );
      if (!env.PAYORDER_AUTH_URL)
        expect(first.stderr).toContain(`cannot reach ${url} (ECONNREFUSED); nothing was sent`);
      expect(await checkoutCount()).toBe(0);
      // What the journal says of the lines tried, or recorded and not sent: failed, never unknown or left "sending".
      expectAllFailed(journalFile, records.length);

      const service = await forwarder(port, e2e.sb.url);
      try {
        const second = await run();
        expect(second.exitCode, second.stderr).toBe(0);
        expect(second.stderr).toContain('10 created, 0 already created, 0 failed, 0 outcome unknown');
        expect(recordsOf(second.stdout).map((r) => r.outcome)).toEqual(Array(10).fill('created'));
      } finally {
        await service.close();
      }
      const sent = (await journal(e2e.sb.url, 'checkout')).map((e) => e.body.description);
      expect(new Set(sent)).toEqual(new Set(Array.from({ length: 10 }, (_, i) => `line ${i + 1}`)));
      expect(sent).toHaveLength(10);
      expect(await e2e.orders()).toHaveLength(10);
    },
  );

  it('one order with nothing listening at the checkout address: exit 5, "nothing was sent", never "outcome unknown"', async () => {
    await e2e.loginAfresh();
    const url = `http://127.0.0.1:${await unusedPort()}`;
    const result = await e2e.run(createArgs, { env: { PAYORDER_CHECKOUT_URL: url } });
    expect(result.exitCode).toBe(5);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`error: cannot reach ${url} (ECONNREFUSED); nothing was sent\n`);
    expect(result.stderr).not.toContain('outcome unknown');
    expect(await checkoutCount()).toBe(0);
  });

  it('one order with nothing listening at either address: exit 5, "cannot reach", never "outcome unknown"', async () => {
    await e2e.loginAfresh();
    const url = `http://127.0.0.1:${await unusedPort()}`;
    const result = await e2e.run(createArgs, { env: { PAYORDER_AUTH_URL: url, PAYORDER_CHECKOUT_URL: url } });
    expect(result.exitCode).toBe(5);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`error: cannot reach ${url} (ECONNREFUSED)`);
    expect(result.stderr).not.toContain('outcome unknown');
    expect(await journal(e2e.sb.url)).toHaveLength(0);
  });

  // An unreachable token service says so too: the order was never sent either.
  it('one order with nothing listening at the auth address: the error says nothing was sent', async () => {
    await e2e.loginAfresh();
    const url = `http://127.0.0.1:${await unusedPort()}`;
    const result = await e2e.run(createArgs, { env: { PAYORDER_AUTH_URL: url, PAYORDER_CHECKOUT_URL: url } });
    expect(result.exitCode).toBe(5);
    expect(result.stderr).toContain(`error: cannot reach ${url} (ECONNREFUSED); nothing was sent`);
  });

  it('a batch with nothing listening at the auth address: the error says nothing was sent', async () => {
    await e2e.loginAfresh();
    const url = `http://127.0.0.1:${await unusedPort()}`;
    const result = await e2e.run(['order', 'create', '--env', 'sandbox', '--input', writeLines(3)], {
      env: { PAYORDER_AUTH_URL: url, PAYORDER_CHECKOUT_URL: url },
    });
    expect(result.exitCode).toBe(5);
    expect(result.stderr).toContain(`error: stopped: cannot reach ${url} (ECONNREFUSED); nothing was sent`);
  });
});

describe('order create --input: an unknown line shows what it asked for', () => {
  /** Loses the answer to line 2's checkout: line 1 takes the first forced entry, line 2 the reset. */
  async function loseLine2() {
    await call(e2e.sb.url, 'POST', '/_sandbox/force', { route: 'checkout', fault: 'latency', ms: 0 });
    await call(e2e.sb.url, 'POST', '/_sandbox/force', { route: 'checkout', fault: 'reset' });
  }
  // --again: each run sends every line, the unknown one of the run before included; their external
  // references are those of the run before's orders, which the ledger would refuse.
  const args = (file: string, ...more: string[]) =>
    batchCommand(file, '--concurrency', '1', '--again', '--allow-duplicate-reference', ...more);

  it('-o ndjson, -o tsv and the table: the unknown row has its line, amount, description and reference', async () => {
    await e2e.loginAfresh();
    const file = writeLines(3);

    await loseLine2();
    const ndjson = await e2e.run(args(file, '-o', 'ndjson'));
    expect(ndjson.exitCode, ndjson.stderr).toBe(5);
    const records = recordsOf(ndjson.stdout);
    expect(records.map((r) => r.outcome)).toEqual(['created', 'unknown', 'created']);
    expect(records[1]).toMatchObject({
      line: 2,
      outcome: 'unknown',
      order: null,
      input: { amount: '2.02', description: 'line 2', external_reference: 'REF-2' },
      error: { kind: 'outcome_unknown' },
    });
    expect(ndjson.stderr).toContain('1 outcome unknown');

    await loseLine2();
    const tsv = await e2e.run(args(file, '-o', 'tsv'));
    expect(tsv.exitCode, tsv.stderr).toBe(5);
    const [header, ...rows] = tsv.stdout
      .trimEnd()
      .split('\n')
      .map((l) => l.split('\t'));
    const cell = (row: string[], column: string) => row[header!.indexOf(column)];
    expect(rows).toHaveLength(3);
    const unknown = rows[1]!;
    expect(
      ['line', 'outcome', 'uuid', 'amount', 'description', 'external_reference'].map((c) => cell(unknown, c)),
    ).toEqual(['2', 'unknown', '', '2.02', 'line 2', 'REF-2']);
    expect(cell(unknown, 'error')).toContain('line 2: outcome unknown: the request reached');

    await loseLine2();
    const table = await runInProcess(args(file), { env: e2e.env({ NO_COLOR: '1' }), stdoutIsTTY: true });
    expect(table.exitCode, table.stderr).toBe(5);
    const lines = table.stdout.split('\n');
    const row = lines.findIndex((l) => l.startsWith('line 2'));
    // The error is on the lines below, wrapped to the terminal's width.
    expect(lines[row]).toMatch(/^line 2 +\? unknown +2\.02 +"line 2" REF-2$/);
    expect(lines[row + 1]).toMatch(/^ +line 2: outcome unknown: the request reached/);

    // The request was carried out each time (only its answer was lost), and never sent again.
    const sent = (await journal(e2e.sb.url, 'checkout')).map((e) => e.body.description);
    expect(sent).toEqual(Array(3).fill(['line 1', 'line 2', 'line 3']).flat());
    expect(await e2e.orders()).toHaveLength(9);
  });

  // On a terminal too, an unknown line can be found by the merchant's own reference.
  it('the table row of an unknown line shows its external reference', async () => {
    await e2e.loginAfresh();
    await loseLine2();
    const table = await runInProcess(args(writeLines(3)), {
      env: e2e.env({ NO_COLOR: '1' }),
      stdoutIsTTY: true,
    });
    expect(table.exitCode).toBe(5);
    expect(table.stdout.split('\n').find((l) => l.startsWith('line 2'))).toContain('REF-2');
  });
});

describe('order create --input: a journal belongs to its target', () => {
  it('a v2 journal resumed with --api v1 is refused naming both targets, exit 2, and nothing is sent', async () => {
    await e2e.loginAfresh();
    const file = writeLines(3);
    const journalFile = join(e2e.dir, 'orders.journal');
    const first = await batch(file, '--journal', journalFile);
    expect(first.exitCode, first.stderr).toBe(0);
    await call(e2e.sb.url, 'DELETE', '/_sandbox/journal');
    const before = readFileSync(journalFile, 'utf8');

    const again = await batch(file, '--journal', journalFile, '--api', 'v1');
    expect(again.exitCode).toBe(2);
    expect(again.stdout).toBe('');
    const url = e2e.sb.url;
    const target = (api: string) =>
      `sandbox ${api} (auth ${url}, checkout ${url}, client id ${SHOP.clientId})`;
    expect(again.stderr).toContain(
      `error: --journal: ${journalFile} belongs to a batch for ${target('v2')}, not ${target('v1')}`,
    );
    expect(again.stderr).toContain('hint: resuming it against another target would create every order again');
    expect(await journal(e2e.sb.url)).toEqual([]);
    expect(readFileSync(journalFile, 'utf8')).toBe(before);
    expect(await e2e.orders()).toHaveLength(3);
  });
});

describe('order create --input: Ctrl-C in process', () => {
  it('after the stop no new line is sent, those in flight finish, the summary is printed, exit 130; a rerun creates the rest', async () => {
    await e2e.loginAfresh();
    const file = writeLines(200);
    const journalFile = join(e2e.dir, 'orders.journal');
    await slowCheckouts(e2e.sb.url, 100);
    const ctrlC = new AbortController();
    const running = runInProcess(batchCommand(file, '--journal', journalFile, '--concurrency', '4'), {
      env: e2e.env(),
      signal: ctrlC.signal,
    });
    await expect.poll(checkoutCount, { timeout: 15_000, interval: 10 }).toBeGreaterThanOrEqual(8);
    ctrlC.abort('SIGINT');
    // Read after the stop: it counts at least every answer given before it.
    const answeredAtStop = await checkoutCount();
    const result = await running;
    await call(e2e.sb.url, 'DELETE', '/_sandbox/force');

    expectNoLeak(result);
    expect(result.exitCode, result.stderr).toBe(130);
    const inFlight = Number(
      /stopping: no new line is sent; finishing (\d+) requests? in flight \(Ctrl-C again to abort at once\)/.exec(
        result.stderr,
      )?.[1],
    );
    // Requests on their way to the sandbox; a line still waiting for its journal record to be synced
    // is not one of them: it is not sent now.
    expect(inFlight).toBeGreaterThanOrEqual(0);
    expect(inFlight).toBeLessThanOrEqual(4);
    const final = await checkoutCount();
    // Lines sent before the stop were answered by then or in flight: nothing was sent after it.
    expect(final).toBeLessThanOrEqual(answeredAtStop + inFlight);
    expect(final).toBeLessThan(200);
    const records = recordsOf(result.stdout);
    expect(records.map((r) => [r.line, r.outcome])).toEqual(
      Array.from({ length: final }, (_, i) => [i + 1, 'created']),
    );
    expect(result.stderr).toMatch(
      new RegExp(`error: interrupted after ${final} lines in [\\d.]+ s: ${final} created`),
    );
    expect(result.stderr).toContain(`rerun with --journal ${journalFile} to resume`);
    expect(await e2e.orders()).toHaveLength(final);
    expect(sentEvents(journalFile)).toEqual(Array(final).fill('created'));

    // The journal resumes the batch: the rest is created, none of it twice.
    const resumed = await batch(file, '--journal', journalFile, '--concurrency', '8');
    expect(resumed.exitCode, resumed.stderr).toBe(0);
    expect(resumed.stderr).toContain(`${200 - final} created, ${final} already created, 0 failed`);
    expect(await e2e.orders()).toHaveLength(200);
  });
});

describe('order create --input: a torn journal', () => {
  it('a journal whose last record is half written is resumed, and the run after that too', async () => {
    await e2e.loginAfresh();
    const journalFile = join(e2e.dir, 'orders.journal');
    const first = await batch(writeLines(5), '--journal', journalFile);
    expect(first.exitCode, first.stderr).toBe(0);
    // A crash (or a full disk) cut the next record in the middle.
    const [{ key }] = journalRecords(journalFile);
    appendFileSync(journalFile, `{"key":"${key}","line":1,"event":"fail`);
    await call(e2e.sb.url, 'DELETE', '/_sandbox/journal');

    const file = writeLines(7);
    const second = await batch(file, '--journal', journalFile);
    expect(second.exitCode, second.stderr).toBe(0);
    expect(second.stderr).toContain('2 created, 5 already created, 0 failed, 0 outcome unknown');
    expect(recordsOf(second.stdout).map((r) => r.outcome)).toEqual([
      ...Array(5).fill('skipped'),
      'created',
      'created',
    ]);
    expect((await journal(e2e.sb.url, 'checkout')).map((e) => e.body.description)).toEqual([
      'line 6',
      'line 7',
    ]);

    await call(e2e.sb.url, 'DELETE', '/_sandbox/journal');
    const third = await batch(file, '--journal', journalFile);
    expect(third.exitCode, third.stderr).toBe(0);
    expect(third.stderr).toContain('0 created, 7 already created, 0 failed, 0 outcome unknown');
    expect(await journal(e2e.sb.url, 'checkout')).toEqual([]);
    expect(await e2e.orders()).toHaveLength(7);
  });
});
