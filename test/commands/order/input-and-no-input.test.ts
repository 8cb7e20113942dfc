/**
 * `--input FILE` (order create, order get) and `--no-input` (never prompt) share commander's name
 * for what they set: given together, in either order, each keeps its meaning.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from '../../../src/main.js';
import { recordsOf, writeOrderLines } from '../../helpers/batch.js';
import { testContext } from '../../helpers/context.js';
import { useE2E } from '../../helpers/e2e.js';

const e2e = useE2E();

describe('--input FILE with --no-input', () => {
  it.each([
    ['--input first', (file: string) => ['--input', file, '--no-input']],
    ['--no-input first', (file: string) => ['--no-input', '--input', file]],
  ])('%s: order create reads the file, order get reads its ids', async (_name, flags) => {
    await e2e.login();
    const orders = writeOrderLines(e2e.dir, 2);
    const created = await e2e.run(['order', 'create', '--env', 'sandbox', ...flags(orders), '-o', 'ndjson']);
    expect(created.exitCode, created.stderr).toBe(0);
    const uuids = recordsOf(created.stdout).map((record) => record.order.uuid);
    expect(uuids).toHaveLength(2);
    const ids = join(e2e.dir, 'ids.txt');
    writeFileSync(ids, uuids.map((uuid) => `${uuid}\n`).join(''));
    const looked = await e2e.run(['order', 'get', '--env', 'sandbox', ...flags(ids), '-o', 'ndjson']);
    expect(looked.exitCode, looked.stderr).toBe(0);
    expect(recordsOf(looked.stdout).map((record) => record.order?.uuid ?? record.uuid)).toEqual(uuids);
  });

  it.each([
    ['--input first', (file: string) => ['--input', file, '--no-input']],
    ['--no-input first', (file: string) => ['--no-input', '--input', file]],
  ])('%s on a terminal: no prompt either way', async (_name, flags) => {
    await e2e.login();
    const { ctx } = testContext({ env: e2e.env(), stdinIsTTY: true, stderrIsTTY: true });
    const args = [
      'order',
      'create',
      '--env',
      'sandbox',
      ...flags(writeOrderLines(e2e.dir, 1)),
      '-o',
      'ndjson',
    ];
    expect(await run(['node', 'payorder', ...args], ctx)).toBe(0);
    expect(ctx.flags.interactive).toBe(false);
  });
});
