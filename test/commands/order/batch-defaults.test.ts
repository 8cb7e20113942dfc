/**
 * Batch files without the links or the description, which come from --success, --fail and
 * --description (or config's default-success, default-fail, default-description); and
 * `--input FILE --dry-run`, which checks the whole file and shows each request, sending nothing.
 */
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { batchCommand, recordsOf } from '../../helpers/batch.js';
import { useE2E } from '../../helpers/e2e.js';
import { journal } from '../../helpers/sandbox.js';

const e2e = useE2E();

const csv = (text: string) => {
  const file = join(e2e.dir, 'orders.csv');
  writeFileSync(file, text);
  return file;
};
const OK = 'https://shop.example/ok';
const KO = 'https://shop.example/ko';

describe('batch lines without links or description', () => {
  it('take them from --success, --fail and --description; a line that has its own keeps it', async () => {
    await e2e.loginAfresh();
    const file = join(e2e.dir, 'orders.ndjson');
    writeFileSync(
      file,
      '{"amount":"1.50"}\n{"amount":"2.50","description":"Cake","success":"https://other.example/ok"}\n',
    );
    const result = await e2e.run(batchCommand(file, '--success', OK, '--fail', KO, '--description', 'Tea'));
    expect(result.exitCode, result.stderr).toBe(0);
    // Two lines in flight at once reach the sandbox in either order.
    const bodies = (await journal(e2e.sb.url, 'checkout')).map((e) => e.body);
    expect(bodies.sort((a, b) => a.amount.localeCompare(b.amount))).toEqual([
      { amount: '150', description: 'Tea', callback_success: OK, callback_fail: KO },
      { amount: '250', description: 'Cake', callback_success: 'https://other.example/ok', callback_fail: KO },
    ]);
  });

  it('else from config default-success, default-fail, default-description; a flag wins over them', async () => {
    await e2e.loginAfresh();
    for (const [key, value] of [
      ['default-success', OK],
      ['default-fail', KO],
      ['default-description', 'From config'],
    ])
      expect((await e2e.run(['config', 'set', key!, value!])).exitCode).toBe(0);
    const file = csv('amount\n3\n');
    const result = await e2e.run(batchCommand(file, '--fail', 'https://flag.example/ko'));
    expect(result.exitCode, result.stderr).toBe(0);
    expect((await journal(e2e.sb.url, 'checkout'))[0].body).toEqual({
      amount: '300',
      description: 'From config',
      callback_success: OK,
      callback_fail: 'https://flag.example/ko',
    });
    const bad = await e2e.run(['config', 'set', 'default-success', 'shop.example/ok']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('default-success: must be an absolute http(s) URL');
  });

  it('a bad --success is refused before any line is read; --amount still does not go with --input', async () => {
    await e2e.loginAfresh();
    const file = csv('amount\n3\n');
    const bad = await e2e.run(batchCommand(file, '--success', 'ftp://x', '--fail', KO, '--description', 'x'));
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('--success: must be an absolute http(s) URL');
    const amount = await e2e.run(['order', 'create', '--env', 'sandbox', '--input', file, '--amount', '1']);
    expect(amount.exitCode).toBe(2);
    expect(amount.stderr).toContain('drop --amount');
    expect(await journal(e2e.sb.url, 'checkout')).toEqual([]);
  });
});

describe('--input with --dry-run', () => {
  it('checks every line and prints each request, the token masked; nothing is sent or journaled', async () => {
    await e2e.loginAfresh();
    const file = csv(`amount,description,success,fail\n1.50,Tea,${OK},${KO}\n2,Cake,${OK},${KO}\n`);
    const result = await e2e.run(['order', 'create', '--env', 'sandbox', '--input', file, '--dry-run']);
    expect(result.exitCode, result.stderr).toBe(0);
    const lines = recordsOf(result.stdout);
    expect(lines.map((l) => [l.line, l.request.method, l.request.body])).toEqual([
      [2, 'POST', { amount: '150', description: 'Tea', callback_success: OK, callback_fail: KO }],
      [3, 'POST', { amount: '200', description: 'Cake', callback_success: OK, callback_fail: KO }],
    ]);
    expect(lines[0].request.headers.authorization).toBe('Bearer ***');
    expect(result.stderr).toContain('dry run: 2 lines, each would be sent as shown; nothing was sent');
    expect(await journal(e2e.sb.url)).toEqual([]);
    const batches = join(`${e2e.dir}.data`, 'batches');
    expect(existsSync(batches) ? readdirSync(batches) : []).toEqual([]);
  });

  it('a bad line anywhere in the file: exit 2 naming it, the other lines shown, nothing sent', async () => {
    await e2e.loginAfresh();
    const file = csv(`amount,description,success,fail\n1.50,Tea,${OK},${KO}\n1.999,Cake,${OK},${KO}\n`);
    const result = await e2e.run(['order', 'create', '--env', 'sandbox', '--input', file, '--dry-run']);
    expect(result.exitCode).toBe(2);
    const lines = recordsOf(result.stdout);
    expect(lines[0]).toMatchObject({ line: 2, request: { method: 'POST' } });
    expect(lines[1]).toMatchObject({ line: 3, error: { kind: 'usage' } });
    expect(lines[1].error.message).toContain('amount');
    expect(result.stderr).toContain(
      'error: dry run: 1 of 2 lines would not be sent (line 3); nothing was sent',
    );
    expect(await journal(e2e.sb.url)).toEqual([]);
  });
});
