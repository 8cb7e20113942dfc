/**
 * `payorder sandbox pay|fail|refund` and `payorder sandbox orders` against a sandbox: what a person
 * sees, what changed in the sandbox, and where the address comes from.
 */
import { describe, expect, it } from 'vitest';
import { cliFor, tempDir } from '../../helpers/cli.js';
import { runInProcess } from '../../helpers/context.js';
import { call, createOrder, sandboxOrders, tokenFor, useSandbox } from '../../helpers/sandbox.js';
import { serveHttp, unusedPort } from '../../helpers/servers.js';

const sb = useSandbox({}, { beforeSunset: true });
const configDir = tempDir();
/** payorder with the sandbox's address as PAYORDER_CHECKOUT_URL, as every end-to-end test has it. */
const payorder = (args: string[], options: Parameters<ReturnType<typeof cliFor>>[1] = {}) =>
  cliFor({ configDir, url: sb.url })(args, options);

async function newOrder(version: 'v1' | 'v2' = 'v2', overrides: Record<string, unknown> = {}) {
  return createOrder(sb.url, await tokenFor(sb.url, version), version, overrides);
}

const statusOf = async (uuid: string) =>
  (await sandboxOrders(sb.url)).find((order) => order.uuid === uuid)?.status;

describe('payorder sandbox pay|fail|refund', () => {
  it('pay marks a pending order PAID and prints it in payorder’s order shape', async () => {
    const order = await newOrder();
    const result = await payorder(['sandbox', 'pay', order.uuid]);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({
      version: 'v2',
      uuid: order.uuid,
      status: 'PAID',
      amount: '12.50',
      amount_cents: '1250',
      links: { checkout: order.links.checkout_link },
    });
    expect(await statusOf(order.uuid)).toBe('PAID');
  });

  it('takes a uuid pasted in capitals', async () => {
    const order = await newOrder();
    const result = await payorder(['sandbox', 'pay', ` ${order.uuid.toUpperCase()} `, '--field', 'status']);
    expect(result).toEqual({ exitCode: 0, stdout: 'PAID\n', stderr: '' });
    expect(await statusOf(order.uuid)).toBe('PAID');
  });

  it('fail marks it FAILED; a v1 order is found by its id; --field prints one value', async () => {
    const order = await newOrder('v1');
    const result = await payorder(['sandbox', 'fail', order.id, '--field', 'status']);
    expect(result).toEqual({ exitCode: 0, stdout: 'FAILED\n', stderr: '' });
    expect(await statusOf(order.uuid)).toBe('FAILED');
  });

  it('refund needs a paid v2 order: an unpaid one and a v1 one are refused, nothing changes', async () => {
    const pending = await newOrder();
    const refused = await payorder(['sandbox', 'refund', pending.uuid]);
    expect(refused).toEqual({
      exitCode: 1,
      stdout: '',
      stderr: 'error: the sandbox refused: the order is PENDING, not PAID\n',
    });
    expect(await statusOf(pending.uuid)).toBe('PENDING');

    const v1 = await newOrder('v1');
    await payorder(['sandbox', 'pay', v1.uuid]);
    expect((await payorder(['sandbox', 'refund', v1.uuid])).stderr).toBe(
      'error: the sandbox refused: REFUNDED exists only in v2; this order was created on v1\n',
    );

    await payorder(['sandbox', 'pay', pending.uuid]);
    const refunded = await payorder(['sandbox', 'refund', pending.uuid, '--field', 'status']);
    expect(refunded.stdout).toBe('REFUNDED\n');
  });

  it('a paid order cannot be paid or failed again', async () => {
    const order = await newOrder();
    await payorder(['sandbox', 'pay', order.uuid]);
    const again = await payorder(['sandbox', 'fail', order.uuid]);
    expect(again.exitCode).toBe(1);
    expect(again.stderr).toBe('error: the sandbox refused: the order is PAID, not PENDING\n');
    expect(await statusOf(order.uuid)).toBe('PAID');
  });

  it('an unknown order is not found (exit 1); a value that is no order id is refused before sending', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect(await payorder(['sandbox', 'pay', unknown])).toEqual({
      exitCode: 1,
      stdout: '',
      stderr: `error: no order ${unknown} in the sandbox at ${sb.url}\nhint: payorder sandbox orders lists the orders it holds\n`,
    });
    const journalBefore = (await call(sb.url, 'GET', '/_sandbox/notifications')).body;
    expect(await payorder(['sandbox', 'pay', '../reset'])).toEqual({
      exitCode: 2,
      stdout: '',
      stderr:
        'error: "../reset" is not an order uuid or v1 id\n' +
        'hint: give the uuid of the order (a v1 order also by its id); payorder sandbox orders lists them\n',
    });
    expect((await call(sb.url, 'GET', '/_sandbox/notifications')).body).toEqual(journalBefore);
  });

  it('on a terminal it shows the order as field/value rows, not JSON', async () => {
    const order = await newOrder();
    const result = await runInProcess(['sandbox', 'pay', order.uuid], {
      stdoutIsTTY: true,
      columns: 100,
      env: { PAYORDER_CONFIG_DIR: configDir, HOME: configDir, PAYORDER_CHECKOUT_URL: sb.url, NO_COLOR: '1' },
    });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain(order.uuid);
    expect(result.stdout).toMatch(/status\s+PAID/);
    expect(result.stdout).not.toContain('{');
  });

  it('notifies the order’s notification_url, as the payment page does', async () => {
    const bodies: unknown[] = [];
    const hook = await serveHttp((request, response) => {
      let text = '';
      request.on('data', (chunk) => (text += chunk));
      request.on('end', () => {
        bodies.push(JSON.parse(text));
        response.end();
      });
    });
    const order = await newOrder('v2', { notification_url: `${hook}/hook` });
    await payorder(['sandbox', 'pay', order.uuid]);
    await expect.poll(() => bodies).toEqual([expect.objectContaining({ uuid: order.uuid, status: 'PAID' })]);
  });
});

describe('the sandbox’s address', () => {
  it('is sandbox.v2.checkout-url when configured, and PAYORDER_CHECKOUT_URL wins over it', async () => {
    const dir = tempDir();
    const env = { PAYORDER_CONFIG_DIR: dir, HOME: dir };
    const order = await newOrder();
    expect((await runInProcess(['config', 'set', 'sandbox.v2.checkout-url', sb.url], { env })).exitCode).toBe(
      0,
    );
    const viaConfig = await runInProcess(['sandbox', 'pay', order.uuid, '--field', 'status'], { env });
    expect(viaConfig).toEqual({ exitCode: 0, stdout: 'PAID\n', stderr: '' });

    const nowhere = `http://127.0.0.1:${await unusedPort()}`;
    const viaVariable = await runInProcess(['sandbox', 'orders'], {
      env: { ...env, PAYORDER_CHECKOUT_URL: nowhere },
    });
    expect(viaVariable.exitCode).toBe(5);
    expect(viaVariable.stderr).toBe(
      `error: cannot reach ${nowhere} (ECONNREFUSED); nothing was sent: is a sandbox running there?\n` +
        'hint: start one with: payorder sandbox (its address is sandbox.v2.checkout-url, or PAYORDER_CHECKOUT_URL for one run)\n',
    );
  });

  it('is refused when it is no sandbox (a server without the control API)', async () => {
    const other = await serveHttp((_request, response) => response.writeHead(404).end('<html>nope</html>'));
    const result = await payorder(['sandbox', 'orders'], { env: { PAYORDER_CHECKOUT_URL: other } });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain(
      `error: ${other} did not answer as a payorder sandbox does (404: <html>nope</html>)`,
    );
  });
});

describe('payorder sandbox orders', () => {
  it('lists every order of every account and version, oldest first, filtered by status', async () => {
    const first = await newOrder('v1');
    const second = await newOrder('v2');
    await payorder(['sandbox', 'pay', second.uuid]);
    const all = await payorder(['sandbox', 'orders', '-o', 'tsv', '--no-headers']);
    expect(all.exitCode).toBe(0);
    const rows = all.stdout.trim().split('\n');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toContain(first.uuid);
    expect(rows[1]).toContain(second.uuid);

    expect((await payorder(['sandbox', 'orders', '--status', 'paid', '--field', 'uuid'])).stdout).toBe(
      `${second.uuid}\n`,
    );
    expect(JSON.parse((await payorder(['sandbox', 'orders', '--owner', 'nobody'])).stdout)).toEqual([]);
  });

  it('refuses a status no order can have (exit 2, the states named) instead of answering []', async () => {
    await newOrder();
    expect(await payorder(['sandbox', 'orders', '--status', 'BOGUS'])).toEqual({
      exitCode: 2,
      stdout: '',
      stderr: 'error: --status: must be one of PENDING, REFUNDED, PAID, FAILED, got "BOGUS"\n',
    });
  });

  it('each order comes with its owner, description and created_at, in JSON and TSV', async () => {
    const order = await newOrder('v2', { description: 'Boots, size 42' });
    const listed = JSON.parse((await payorder(['sandbox', 'orders'])).stdout);
    expect(listed.find((o: { uuid: string }) => o.uuid === order.uuid)).toMatchObject({
      uuid: order.uuid,
      owner: 'sandbox-merchant',
      description: 'Boots, size 42',
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    const tsv = (await payorder(['sandbox', 'orders', '-o', 'tsv'])).stdout.trim().split('\n');
    expect(tsv[0]!.split('\t').slice(-3)).toEqual(['owner', 'description', 'created_at']);
    expect(
      tsv
        .find((row) => row.startsWith(order.uuid))!
        .split('\t')
        .slice(-3, -1),
    ).toEqual(['sandbox-merchant', 'Boots, size 42']);
  });

  it('--limit keeps the newest orders and --since the recent ones; bad values are refused', async () => {
    const orders = [await newOrder(), await newOrder(), await newOrder()];
    const newest = await payorder(['sandbox', 'orders', '--limit', '2', '--field', 'uuid']);
    expect(newest.stdout).toBe(`${orders[1]!.uuid}\n${orders[2]!.uuid}\n`);
    const now = (await call(sb.url, 'GET', '/_sandbox')).body.now as string;
    const env = { PAYORDER_NOW: now };
    expect(
      (await payorder(['sandbox', 'orders', '--since', '1h', '--limit', '1', '--field', 'uuid'], { env }))
        .stdout,
    ).toBe(`${orders[2]!.uuid}\n`);
    const later = new Date(Date.parse(now) + 60_000).toISOString();
    expect(JSON.parse((await payorder(['sandbox', 'orders', '--since', later], { env })).stdout)).toEqual([]);
    for (const [flag, value] of [
      ['--limit', '0'],
      ['--since', 'yesterday'],
    ]) {
      const refused = await payorder(['sandbox', 'orders', flag!, value!]);
      expect(refused.exitCode).toBe(2);
      expect(refused.stderr).toMatch(new RegExp(`^error: ${flag}: must be `));
    }
  });
});
