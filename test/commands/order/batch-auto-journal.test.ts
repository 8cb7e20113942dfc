/**
 * `order create --input` without --journal: payorder keeps a journal in its data folder, so the same
 * file run twice creates its orders once, for batch-window (24 hours by default); --again creates
 * them anew; past the window the same file is a new batch. The date is set with PAYORDER_NOW.
 */
import { chmodSync, existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { recordsOf } from '../../helpers/batch.js';
import { runInProcess } from '../../helpers/context.js';
import { useE2E } from '../../helpers/e2e.js';
import { call, journal } from '../../helpers/sandbox.js';

const e2e = useE2E();

const START = Date.parse('2026-06-01T12:00:00Z');
const HOUR = 3600_000;
/** The environment of a run `hours` after the first one. */
const at = (hours: number) => ({ PAYORDER_NOW: new Date(START + hours * HOUR).toISOString() });

/** Two orders of a shop's CSV, each with its own reference. */
function ordersCsv(name = 'orders.csv'): string {
  const file = join(e2e.dir, name);
  writeFileSync(
    file,
    'amount,description,success,fail,external_reference\n' +
      '19.99,"T-shirt, blue",https://shop.example/thanks,https://shop.example/cart,WEB-1\n' +
      '5,Gift wrap,https://shop.example/thanks,https://shop.example/cart,WEB-2\n',
  );
  return file;
}

const batch = (file: string, hours: number, ...args: string[]) =>
  e2e.run(['order', 'create', '--env', 'sandbox', '--input', file, '-o', 'ndjson', ...args], {
    env: at(hours),
  });

const checkouts = async () => (await journal(e2e.sb.url, 'checkout')).length;
const dataDir = () => `${e2e.dir}.data`;
const runFiles = () => readdirSync(join(dataDir(), 'batches')).sort();

describe('order create --input without --journal', () => {
  it('the same CSV run twice creates each order once: the rerun skips them and says how to force', async () => {
    await e2e.loginAfresh();
    const file = ordersCsv();
    const first = await batch(file, 0);
    expect(first.exitCode, first.stderr).toBe(0);
    expect(first.stderr).toContain('2 created, 0 already created, 0 failed, 0 outcome unknown\n');

    const second = await batch(file, 1);
    expect(second.exitCode, second.stderr).toBe(0);
    expect(second.stderr).toContain(
      '0 created, 2 already created, 0 failed, 0 outcome unknown; the 2 already created were created by an earlier batch of the same lines within 24h (--again creates them anew)',
    );
    const created = recordsOf(first.stdout).map((r) => r.order.uuid);
    expect(recordsOf(second.stdout).map((r) => [r.outcome, r.order.uuid])).toEqual(
      created.map((uuid) => ['skipped', uuid]),
    );
    expect(await checkouts()).toBe(2);
    const orders = await e2e.orders();
    // Sent together: the service may create them in either order.
    expect(orders.map((o) => o.external_reference).sort()).toEqual(['WEB-1', 'WEB-2']);
  });

  it('--again creates every line anew, and its orders are the ones a later rerun skips', async () => {
    await e2e.loginAfresh();
    const file = ordersCsv();
    expect((await batch(file, 0)).exitCode).toBe(0);
    // The references are those of the first run's orders, which are PENDING: the ledger would refuse them.
    const again = await batch(file, 1, '--again', '--allow-duplicate-reference');
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stderr).toContain('2 created, 0 already created');
    const third = await batch(file, 2);
    expect(third.stderr).toContain('0 created, 2 already created');
    expect(recordsOf(third.stdout).map((r) => r.order.uuid)).toEqual(
      recordsOf(again.stdout).map((r) => r.order.uuid),
    );
    expect(await checkouts()).toBe(4);
  });

  it('inside the window a line is skipped; past it the same file is a new batch; expired runs are removed', async () => {
    await e2e.loginAfresh();
    const file = ordersCsv();
    expect((await batch(file, 0)).exitCode).toBe(0);
    expect((await batch(file, 23.5)).stderr).toContain('0 created, 2 already created');
    expect(await checkouts()).toBe(2);

    const monthly = await batch(file, 24.5, '--allow-duplicate-reference');
    expect(monthly.exitCode, monthly.stderr).toBe(0);
    expect(monthly.stderr).toContain('2 created, 0 already created');
    expect(await checkouts()).toBe(4);
    // A run's file stays while a record of its is inside the window, and goes as a later batch starts.
    const stamps = () => runFiles().map((name) => /-(\d{8}T\d{6}Z)-/.exec(name)?.[1]);
    expect(stamps()).toEqual(['20260602T113000Z', '20260602T123000Z']);
    expect((await batch(file, 48)).stderr).toContain('0 created, 2 already created');
    expect(stamps()).toEqual(['20260602T123000Z', '20260603T120000Z']);
  });

  it('config batch-window sets the window; a value that is not a duration is refused', async () => {
    await e2e.loginAfresh();
    const file = ordersCsv();
    expect((await e2e.run(['config', 'set', 'batch-window', '2h'])).exitCode).toBe(0);
    expect((await e2e.run(['config', 'get', 'batch-window'])).stdout).toBe('2h\n');
    expect((await batch(file, 0)).exitCode).toBe(0);
    expect((await batch(file, 1.5)).stderr).toContain('0 created, 2 already created');
    expect((await batch(file, 1.5)).stderr).toContain('within 2h (--again creates them anew)');
    expect((await batch(file, 4, '--allow-duplicate-reference')).stderr).toContain(
      '2 created, 0 already created',
    );

    const bad = await e2e.run(['config', 'set', 'batch-window', 'tomorrow']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('batch-window: must be a duration like 30s, 10m or 1h30m, got "tomorrow"');
  });

  it('a line whose outcome an earlier run left unknown is reported unknown and not sent, unless --retry-unknown', async () => {
    await e2e.loginAfresh();
    const file = ordersCsv();
    // Line 1's answer is lost: the order exists, the journal says "unknown".
    await call(e2e.sb.url, 'POST', '/_sandbox/force', { route: 'checkout', fault: 'reset' });
    const first = await batch(file, 0, '--concurrency', '1');
    expect(first.exitCode).toBe(5);
    await call(e2e.sb.url, 'DELETE', '/_sandbox/journal');

    const second = await batch(file, 1);
    expect(second.exitCode).toBe(5);
    expect(recordsOf(second.stdout).map((r) => r.outcome)).toEqual(['unknown', 'skipped']);
    expect(second.stdout).toContain('outcome unknown from an earlier run');
    expect(await checkouts()).toBe(0);

    const retried = await batch(file, 2, '--retry-unknown');
    expect(retried.exitCode, retried.stderr).toBe(0);
    expect(recordsOf(retried.stdout).map((r) => r.outcome)).toEqual(['created', 'skipped']);
    expect(await checkouts()).toBe(1);
  });

  it('batches in parallel to the same target each keep a whole journal', async () => {
    await e2e.loginAfresh();
    const files = [0, 1, 2].map((n) => {
      const file = join(e2e.dir, `orders-${n}.ndjson`);
      const lines = Array.from({ length: 40 }, (_, i) =>
        JSON.stringify({
          amount: `${n + 1}.${String(i).padStart(2, '0')}`,
          description: `file ${n} line ${i + 1}`,
          success: 'https://shop.example/ok',
          fail: 'https://shop.example/ko',
        }),
      );
      writeFileSync(file, `${lines.join('\n')}\n`);
      return file;
    });
    const runs = await Promise.all(files.map((file) => batch(file, 0, '--concurrency', '8')));
    for (const run of runs) expect(run.exitCode, run.stderr).toBe(0);
    expect(await checkouts()).toBe(120);
    const reruns = await Promise.all(files.map((file) => batch(file, 1)));
    for (const run of reruns) expect(run.stderr).toContain('0 created, 40 already created');
    expect(await checkouts()).toBe(120);
  });

  it('keeps its journals 0600 in a 0700 folder, at $XDG_DATA_HOME/payorder when PAYORDER_DATA_DIR is not set', async () => {
    await e2e.loginAfresh();
    const xdg = join(e2e.dir, 'xdg-data');
    const env = e2e.env({ PAYORDER_DATA_DIR: undefined, XDG_DATA_HOME: xdg, ...at(0) });
    const args = ['order', 'create', '--env', 'sandbox', '--input', ordersCsv(), '-o', 'ndjson'];
    expect((await runInProcess(args, { env })).exitCode).toBe(0);
    const folder = join(xdg, 'payorder', 'batches');
    const mode = (path: string) => (statSync(path).mode & 0o777).toString(8);
    expect([mode(join(xdg, 'payorder')), mode(folder)]).toEqual(['700', '700']);
    const [file, ...others] = readdirSync(folder);
    expect(others).toEqual([]);
    expect(mode(join(folder, file!))).toBe('600');
    expect(existsSync(dataDir())).toBe(false);
  });

  it('refuses a data folder others can write to: exit 2 naming it and the rule, nothing sent', async () => {
    await e2e.loginAfresh();
    const shared = join(e2e.dir, 'shared');
    expect((await batch(ordersCsv(), 0, '--again')).exitCode).toBe(0);
    await call(e2e.sb.url, 'DELETE', '/_sandbox/journal');
    const env = e2e.env({ PAYORDER_DATA_DIR: shared, ...at(0) });
    const args = ['order', 'create', '--env', 'sandbox', '--input', ordersCsv()];
    expect((await runInProcess(args, { env })).exitCode).toBe(0);
    chmodSync(shared, 0o777);
    await call(e2e.sb.url, 'DELETE', '/_sandbox/journal');
    const refused = await runInProcess(args, { env });
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain(
      `error: refusing the payorder data folder ${shared}: it is writable by others (mode 0777)`,
    );
    expect(await checkouts()).toBe(0);
  });
});
