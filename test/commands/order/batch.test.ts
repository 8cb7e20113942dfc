import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { orderOutputSchema } from '../../../src/contract/schemas.js';
import { BIN, expectNoLeak, onTerminal, SECRET } from '../../helpers/cli.js';
import { loginArgs, useE2E } from '../../helpers/e2e.js';
import { call, journal } from '../../helpers/sandbox.js';

const e2e = useE2E();
const line = (n: number, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    amount: `${n}.${String(n % 100).padStart(2, '0')}`,
    description: `line ${n}`,
    success: 'https://shop.example/ok',
    fail: 'https://shop.example/ko',
    ...extra,
  });

async function login() {
  expect((await e2e.run(loginArgs(), { input: SECRET })).exitCode).toBe(0);
  await call(e2e.sb.url, 'DELETE', '/_sandbox/journal');
}

const sandboxOrders = async () => (await call(e2e.sb.url, 'GET', '/_sandbox/orders')).body.orders as any[];
const batch = (file: string, ...args: string[]) =>
  e2e.run(['order', 'create', '--env', 'sandbox', '--input', file, ...args], { timeout: 60_000 });

describe('order create --input', () => {
  it('1,000 NDJSON lines with bad ones mixed in: one result per line in input order, bad lines reported, the rest created', async () => {
    await login();
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
    const records = result.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
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
    const orders = await sandboxOrders();
    expect(orders).toHaveLength(996);
    expect(new Set(orders.map((o) => o.uuid)).size).toBe(996);
  });

  it('CSV with a header, quoted commas, API column names and v2 cents', async () => {
    await login();
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
      [4, 'created'],
      [5, 'failed'],
    ]);
    expect(records[0].order).toMatchObject({ amount: '12.50', external_reference: 'INV-1' });
    expect(records[2].error.message).toBe('line 5: has 3 columns, the header has 5');
    expect((await journal(e2e.sb.url, 'checkout')).map((e) => e.body.description)).toEqual([
      'Tea, green',
      'Two\nlines',
    ]);
  });

  it('--journal: a rerun skips created lines and creates only the rest', async () => {
    await login();
    const file = join(e2e.dir, 'orders.ndjson');
    const journalFile = join(e2e.dir, 'orders.journal');
    writeFileSync(file, Array.from({ length: 10 }, (_, i) => line(i + 1)).join('\n'));
    await call(e2e.sb.url, 'POST', '/_sandbox/force', { route: 'checkout', error: '999', times: 3 });
    const first = await batch(file, '--journal', journalFile, '--concurrency', '1');
    expect(first.exitCode).toBe(1);
    expect(first.stderr).toContain('7 created, 0 already created, 3 failed');
    const second = await batch(file, '--journal', journalFile);
    expect(second.exitCode, second.stderr).toBe(0);
    expect(second.stderr).toContain('3 created, 7 already created, 0 failed');
    const records = second.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(records.filter((r) => r.outcome === 'skipped').every((r) => r.order.uuid)).toBe(true);
    const orders = await sandboxOrders();
    expect(orders).toHaveLength(10);
    expect(new Set(orders.map((o) => o.uuid)).size).toBe(10);
  });

  it('a line whose answer was lost is "outcome unknown", never retried, the others go on', async () => {
    await login();
    const file = join(e2e.dir, 'orders.ndjson');
    writeFileSync(file, [line(1), line(2), line(3)].join('\n'));
    await call(e2e.sb.url, 'POST', '/_sandbox/force', { route: 'checkout', fault: 'reset' });
    const result = await batch(file, '--concurrency', '1', '--journal', join(e2e.dir, 'j'));
    expect(result.exitCode).toBe(5);
    const records = result.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(records.map((r) => r.outcome)).toEqual(['unknown', 'created', 'created']);
    expect(await journal(e2e.sb.url, 'checkout')).toHaveLength(3);
    const again = await batch(file, '--journal', join(e2e.dir, 'j'));
    expect(again.exitCode).toBe(5);
    expect(again.stdout).toContain('outcome unknown from an earlier run');
    expect(await journal(e2e.sb.url, 'checkout')).toHaveLength(3);
  });

  it('429 with Retry-After is retried inside a batch', async () => {
    await login();
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

  /** Starts a slow batch of `count` lines with a journal, and sends `signal` once `after` orders exist. */
  async function interruptedBatch(count: number, signal: NodeJS.Signals, after: number) {
    await login();
    const file = join(e2e.dir, 'orders.ndjson');
    const journalFile = join(e2e.dir, 'orders.journal');
    writeFileSync(file, Array.from({ length: count }, (_, i) => line(i + 1)).join('\n'));
    await call(e2e.sb.url, 'POST', '/_sandbox/force', {
      route: 'checkout',
      fault: 'latency',
      ms: 20,
      times: 10_000,
    });
    const child = execa(
      process.execPath,
      [BIN, 'order', 'create', '--env', 'sandbox', '--input', file, '--journal', journalFile, '-o', 'ndjson'],
      { env: e2e.env(), extendEnv: false, reject: false },
    );
    await expect
      .poll(async () => (await sandboxOrders()).length, { timeout: 15_000, interval: 20 })
      .toBeGreaterThan(after);
    child.kill(signal);
    const result = await child;
    await call(e2e.sb.url, 'DELETE', '/_sandbox/force');
    return { file, journalFile, result };
  }

  it('resumes after kill -9 mid-batch with zero duplicates and zero lost orders', async () => {
    const count = 200;
    const { file, journalFile } = await interruptedBatch(count, 'SIGKILL', 40);

    const resumed = await batch(file, '--journal', journalFile, '--concurrency', '8');
    expect([0, 5]).toContain(resumed.exitCode);
    const records = resumed.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(records).toHaveLength(count);
    const unknown = records.filter((r) => r.outcome === 'unknown');
    // Only lines in flight when the process died can be unknown (4 at the default concurrency).
    expect(unknown.length).toBeLessThanOrEqual(4);

    const orders = await sandboxOrders();
    const existing = new Set(orders.map((o) => o.uuid));
    const sent = new Map<string, number>();
    for (const entry of await journal(e2e.sb.url, 'checkout'))
      sent.set(entry.body.description, (sent.get(entry.body.description) ?? 0) + 1);
    // Zero duplicates: no input line reached the service twice, and no order exists twice.
    expect([...sent.values()].every((n) => n === 1)).toBe(true);
    expect(orders.length).toBe(sent.size);
    // Zero lost: every line is created or already created with its order, or reported unknown.
    const known = records.filter((r) => r.order).map((r) => r.order.uuid);
    expect(new Set(known).size).toBe(known.length);
    for (const uuid of known) expect(existing.has(uuid)).toBe(true);
    expect(known.length + unknown.length).toBe(count);
  });

  it('Ctrl-C stops taking lines, finishes those in flight, writes the journal and exits 130', async () => {
    const { file, journalFile, result } = await interruptedBatch(300, 'SIGINT', 20);
    expectNoLeak({
      exitCode: result.exitCode ?? -1,
      stdout: String(result.stdout),
      stderr: String(result.stderr),
    });
    expect(result.exitCode).toBe(130);
    expect(String(result.stderr)).toContain('interrupted after');
    const events = readFileSync(journalFile, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const last = new Map(events.map((e) => [e.key, e.event]));
    expect([...last.values()].every((event) => event === 'created')).toBe(true);
    expect((await sandboxOrders()).length).toBe(last.size);

    const resumed = await batch(file, '--journal', journalFile, '--concurrency', '8');
    expect(resumed.exitCode, resumed.stderr).toBe(0);
    expect(await sandboxOrders()).toHaveLength(300);
  });

  it('on a terminal: a line per result and progress, and it finishes', async () => {
    await login();
    const file = join(e2e.dir, 'orders.ndjson');
    writeFileSync(file, [line(1), line(2), '{"amount": "x"}'].join('\n'));
    const env = e2e.env();
    for (const size of ['stty cols 120 rows 40; ', '']) {
      const command = `${size}"${process.execPath}" "${BIN}" order create --env sandbox --input "${file}"`;
      const result = await onTerminal(command, env);
      const screen = result.stdout.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '');
      expect(result.exitCode).toBe(1);
      expect(screen).toMatch(/line 1 {2}✓ {2}1\.01 {2}PENDING {2}http:/);
      expect(screen).toContain('line 3  ✗  line 3: amount: must contain only digits and a single point');
      if (size)
        expect(screen).toMatch(/\d+ lines: \d+ created, 0 skipped, \d+ failed, 0 unknown \([\d.]+\/s\)/);
    }
  });

  it('refuses flags that do not go together', async () => {
    await login();
    const both = await e2e.run(['order', 'create', '--env', 'sandbox', '--input', 'x', '--amount', '1']);
    expect(both.exitCode).toBe(2);
    expect(both.stderr).toContain('--input takes every field from the file; drop --amount');
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
});
