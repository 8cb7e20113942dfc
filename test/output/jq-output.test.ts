/**
 * --jq EXPR on the commands that print JSON: the output filtered by jq itself, strings raw; a filter
 * that does not compile refused before anything is sent; the command's own outcome kept.
 */
import { describe, expect, it } from 'vitest';
import { orderFlags, SECRET, SHOP } from '../helpers/cli.js';
import { runInProcess } from '../helpers/context.js';
import { useE2E } from '../helpers/e2e.js';
import { createOrder, journal, tokenFor } from '../helpers/sandbox.js';

const e2e = useE2E();

async function order(overrides: Record<string, unknown> = {}) {
  await e2e.loginAfresh();
  return createOrder(e2e.sb.url, await tokenFor(e2e.sb.url, 'v2', SHOP), 'v2', overrides);
}

describe('--jq', () => {
  it('filters order get and prints strings raw, as gh does', async () => {
    const { uuid } = await order();
    const result = await e2e.run([
      'order',
      'get',
      uuid,
      '--env',
      'sandbox',
      '--jq',
      '.status, .amount_cents',
    ]);
    expect(result).toEqual({ exitCode: 0, stdout: 'PENDING\n1250\n', stderr: '' });
  });

  it('filters the whole output of a bulk lookup, and keeps its exit code', async () => {
    const { uuid } = await order();
    const missing = '00000000-0000-4000-8000-000000000000';
    const result = await e2e.run([
      'order',
      'get',
      uuid,
      missing,
      '--env',
      'sandbox',
      '--jq',
      '.[] | [.uuid // .input, .status // .outcome] | @tsv',
    ]);
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe(`${uuid}\tPENDING\n${missing}\tnot_found\n`);
  });

  it('on order create: the filtered order, created once', async () => {
    await e2e.loginAfresh();
    const result = await e2e.run([
      'order',
      'create',
      '--env',
      'sandbox',
      '--amount',
      '3',
      ...orderFlags(),
      '--jq',
      '.links.checkout',
    ]);
    expect(result.exitCode, result.stderr).toBe(0);
    const [created] = await e2e.orders();
    expect(result.stdout).toBe(`${created.links.checkout_link}\n`);
    expect(await journal(e2e.sb.url, 'checkout')).toHaveLength(1);
  });

  it('a filter that does not compile is refused before anything is sent: exit 2, stdout empty', async () => {
    await e2e.loginAfresh();
    const result = await e2e.run([
      'order',
      'create',
      '--env',
      'sandbox',
      '--amount',
      '3',
      ...orderFlags(),
      '--jq',
      '.links[',
    ]);
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(
      /^error: --jq: syntax error, unexpected end of file at <top-level>, line 1, column \d+\n$/,
    );
    expect(await journal(e2e.sb.url)).toEqual([]);
  });

  it("a filter that fails on the output is exit 2 with jq's message; other formats do not go with it", async () => {
    const { uuid } = await order();
    const failed = await e2e.run(['order', 'get', uuid, '--env', 'sandbox', '--jq', '.status | .[0]']);
    expect(failed.exitCode).toBe(2);
    expect(JSON.parse(failed.stderr).error.message).toMatch(/^--jq: .*Cannot index string with number/);
    for (const flags of [['-o', 'tsv'], ['--field', 'uuid'], ['--raw']]) {
      const refused = await e2e.run(['order', 'get', uuid, '--env', 'sandbox', ...flags, '--jq', '.']);
      expect(refused.exitCode).toBe(2);
      expect(refused.stderr).toContain('--jq filters the JSON output: drop -o, --field and --raw');
    }
  });

  it("jq's $ENV is its own, never payorder's environment: the secret does not reach it", async () => {
    const { uuid } = await order();
    const result = await e2e.run(['order', 'get', uuid, '--env', 'sandbox', '--jq', '$ENV | tostring'], {
      env: {
        PAYORDER_CLIENT_SECRET_ID: SECRET,
        PAYORDER_USERNAME: SHOP.username,
        PAYORDER_CLIENT_ID: SHOP.clientId,
      },
    });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).not.toContain(SECRET);
    expect(result.stdout).not.toContain('PAYORDER');
  });

  it('on a terminal, control characters in what it prints are escaped', async () => {
    await order({ description: 'Tea\u0007\u001b[31m' });
    const result = await runInProcess(['sandbox', 'orders', '--jq', '.[-1].description'], {
      env: e2e.env(),
      stdoutIsTTY: true,
    });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toBe('Tea\\u0007\\u001b[31m\n');
  });
});
