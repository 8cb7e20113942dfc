/**
 * Which HTTP client a command loads (src/api/transport.ts): a one-shot command sends through Node's
 * own fetch and never loads the undici package (dist/undici.cjs), which only a batch's agents, or a
 * proxy, need. Node says which files it loads under NODE_DEBUG=module.
 */
import { describe, expect, it } from 'vitest';
import { writeOrderLines } from '../helpers/batch.js';
import { orderFlags, tempDir } from '../helpers/cli.js';
import { useE2E } from '../helpers/e2e.js';
import { journal } from '../helpers/sandbox.js';

const e2e = useE2E();
const ORDER = orderFlags({ amount: '12.50' });
const DEBUG = { NODE_DEBUG: 'module' };
const loadsUndici = (stderr: string) => stderr.includes('undici.cjs');

describe('the HTTP client a command loads', () => {
  it("one order and its lookup go through Node's fetch: the undici package is not loaded", async () => {
    await e2e.loginAfresh();
    const created = await e2e.run(['order', 'create', '--env', 'sandbox', ...ORDER, '--field', 'uuid'], {
      spawn: true,
      env: DEBUG,
    });
    expect(created.exitCode, created.stderr).toBe(0);
    expect(loadsUndici(created.stderr)).toBe(false);
    const uuid = created.stdout.trim();
    const found = await e2e.run(['order', 'get', uuid, '--env', 'sandbox', '--json'], {
      spawn: true,
      env: DEBUG,
    });
    expect(found.exitCode, found.stderr).toBe(0);
    expect(loadsUndici(found.stderr)).toBe(false);
    expect((await journal(e2e.sb.url)).map((entry) => `${entry.method} ${entry.path}`)).toEqual([
      'POST /v2/api/checkout',
      `GET /v2/api/orders/${uuid}`,
    ]);
  });

  it("a batch sends through the undici package's agents", async () => {
    await e2e.loginAfresh();
    const file = writeOrderLines(tempDir(), 3);
    const batch = await e2e.run(
      ['order', 'create', '--env', 'sandbox', '--input', file, '--concurrency', '2', '-o', 'ndjson'],
      {
        spawn: true,
        env: DEBUG,
      },
    );
    expect(batch.exitCode, batch.stderr).toBe(0);
    expect(loadsUndici(batch.stderr)).toBe(true);
    expect(await journal(e2e.sb.url)).toHaveLength(3);
  });
});
