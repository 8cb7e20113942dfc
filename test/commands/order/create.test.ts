import { describe, expect, it } from 'vitest';
import { orderOutputSchema } from '../../../src/contract/schemas.js';
import { BIN, onTerminal, SECRET } from '../../helpers/cli.js';
import { loginArgs, useE2E } from '../../helpers/e2e.js';
import { call, journal } from '../../helpers/sandbox.js';

const e2e = useE2E();
const ORDER = [
  '--description',
  'Invoice 42',
  '--success',
  'https://shop.example/ok',
  '--fail',
  'https://shop.example/ko',
];
const create = (...args: string[]) => e2e.run(['order', 'create', '--env', 'sandbox', ...ORDER, ...args]);

async function login(...extra: string[]) {
  expect((await e2e.run(loginArgs('sandbox', ...extra), { input: SECRET })).exitCode).toBe(0);
  await call(e2e.sb.url, 'DELETE', '/_sandbox/journal');
}

describe('order create', () => {
  it('v2: sends cents and no userName, prints the documented JSON when piped', async () => {
    await login();
    const result = await create('--amount', '12.50', '--external-reference', 'INV-42');
    expect(result.exitCode, result.stderr).toBe(0);
    const order = orderOutputSchema.parse(JSON.parse(result.stdout));
    expect(order).toMatchObject({
      version: 'v2',
      amount: '12.50',
      amount_cents: '1250',
      status: 'PENDING',
      external_reference: 'INV-42',
      currency: null,
    });
    expect(order.links.checkout).toBe(`${e2e.sb.url}/pay/${order.uuid}`);
    const [sent] = await journal(e2e.sb.url, 'checkout');
    expect(sent.body).toEqual({
      amount: '1250',
      description: 'Invoice 42',
      callback_success: 'https://shop.example/ok',
      callback_fail: 'https://shop.example/ko',
      external_reference: 'INV-42',
    });
  });

  it('v1: sends the decimal and the login userName; same JSON shape', async () => {
    await login();
    const result = await create('--api', 'v1', '--amount', '92233720368547758.07');
    expect(result.exitCode, result.stderr).toBe(0);
    const order = orderOutputSchema.parse(JSON.parse(result.stdout));
    expect(order).toMatchObject({
      version: 'v1',
      amount: '92233720368547758.07',
      amount_cents: '9223372036854775807',
      external_reference: null,
    });
    expect(order.currency).toMatch(/^\d{3}$/);
    expect(order.order_number).toBeTruthy();
    const [sent] = await journal(e2e.sb.url, 'checkout');
    expect(sent.body).toMatchObject({ amount: '92233720368547758.07', userName: 'shop-owner' });
    expect(result.stderr).toContain('API v1 is deprecated');
  });

  it.each([
    [['--amount', '12.345'], '--amount: must have at most 2 decimals'],
    [['--amount', '1,000.00'], '--amount: must use a point for decimals and no thousands separators'],
    [['--amount', '0'], '--amount: must be greater than zero'],
    [['--amount', '1e3'], '--amount: must be written out in digits (no exponent)'],
    [['--amount', '5', '--success', 'ftp://x'], '--success: must be an absolute http(s) URL'],
    [
      ['--amount', '5', '--notification-url', 'not a url'],
      '--notification-url: must be an absolute http(s) URL',
    ],
    [
      ['--amount', '5', '--api', 'v1', '--external-reference', 'R'],
      '--external-reference: exists only in API v2',
    ],
    [['--amount', '5', '--description', ''], '--description: is required'],
  ])('%j → exit 2, one line naming the field and the rule, nothing sent', async (args, message) => {
    await login();
    const result = await create(...args);
    expect(result.exitCode).toBe(2);
    expect(result.stderr.split('\n').find((l) => l.startsWith('error:'))).toContain(message);
    expect(result.stdout).toBe('');
    expect(await journal(e2e.sb.url)).toHaveLength(0);
  });

  it('--dry-run prints the exact request with the token masked and sends nothing', async () => {
    await login();
    const result = await create('--amount', '7', '--dry-run', '--api', 'v1');
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      method: 'POST',
      url: `${e2e.sb.url}/1/checkout`,
      headers: { authorization: 'Bearer ***', 'content-type': 'application/json' },
      body: {
        amount: '7.00',
        description: 'Invoice 42',
        userName: 'shop-owner',
        callback_success: 'https://shop.example/ok',
        callback_fail: 'https://shop.example/ko',
      },
    });
    expect(await journal(e2e.sb.url)).toHaveLength(0);
  });

  it('--debug traces the order exchange with the Authorization header masked', async () => {
    await login();
    const result = await create('--amount', '1', '--debug');
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toContain(`[debug] → POST ${e2e.sb.url}/v2/api/checkout`);
    expect(result.stderr).toContain('[debug] → authorization: Bearer ***');
    expect(result.stderr).toContain('[debug] ← 200');
  });

  it('warns that v2 may ignore notification_url, and sends it', async () => {
    await login();
    const result = await create('--amount', '1', '--notification-url', 'https://shop.example/hook');
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toContain('warning: the spec does not show whether v2 accepts notification_url');
    expect((await journal(e2e.sb.url, 'checkout'))[0].body.notification_url).toBe(
      'https://shop.example/hook',
    );
  });
});

describe('output modes', () => {
  it('--field, -o ndjson, -o tsv (with and without headers), --raw', async () => {
    await login();
    const field = await create('--amount', '1', '--field', 'links.checkout');
    expect(field.stdout).toMatch(new RegExp(`^${e2e.sb.url}/pay/[0-9a-f-]{36}\\n$`));
    const ndjson = await create('--amount', '1', '-o', 'ndjson');
    expect(ndjson.stdout.trim().split('\n')).toHaveLength(1);
    orderOutputSchema.parse(JSON.parse(ndjson.stdout));
    const tsv = await create('--amount', '1', '-o', 'tsv');
    const [header, row] = tsv.stdout.trim().split('\n');
    expect(header!.split('\t')).toEqual([
      'uuid',
      'id',
      'version',
      'status',
      'amount',
      'currency',
      'order_number',
      'ref_number',
      'external_reference',
      'links.checkout',
    ]);
    expect(row!.split('\t')[4]).toBe('1.00');
    const bare = await create('--amount', '1', '-o', 'tsv', '--no-headers');
    expect(bare.stdout.trim().split('\n')).toHaveLength(1);
    const raw = await create('--amount', '1', '--raw');
    expect(JSON.parse(raw.stdout).links.checkout_link).toContain('/pay/');
  });

  it('a table for a person on a terminal, the link on its own line, no colors with NO_COLOR', async () => {
    await login();
    const env = e2e.env({ NO_COLOR: '1' });
    const command = `"${process.execPath}" "${BIN}" order create --env sandbox --amount 12.5 ${ORDER.map((a) => `'${a}'`).join(' ')}`;
    const result = await onTerminal(command, env);
    const screen = result.stdout;
    expect(result.exitCode).toBe(0);
    expect(screen).toMatch(/status\s+PENDING/);
    expect(screen).toMatch(/amount\s+12\.50/);
    expect(screen).toMatch(new RegExp(`payment link\\n${e2e.sb.url}/pay/[0-9a-f-]{36}$`, 'm'));
    expect(screen).not.toContain('\u001b[');
  });
});

describe('service errors (spec §7.2)', () => {
  it.each([
    ['1001', 1, 'the service says a mandatory field is missing (1001)'],
    ['1003', 1, 'the service refused the amount format (1003)'],
    ['1004', 1, 'the service knows no user with the stored username on sandbox (1004)'],
    ['1002', 4, 'the stored username does not match the credentials of the token on sandbox (1002)'],
    ['unauthorized', 4, 'the service did not accept the access token on sandbox (401 Unauthorized)'],
    ['999', 1, 'the service failed (999); the order was not created'],
  ])('%s → exit %i with a clear line', async (id, exit, message) => {
    await login();
    await call(e2e.sb.url, 'POST', '/_sandbox/force', { route: 'checkout', error: id });
    const result = await create('--amount', '1');
    expect(result.exitCode).toBe(exit);
    expect(result.stderr).toContain(`error: ${message}`);
    expect(result.stdout).toBe('');
    expect(await journal(e2e.sb.url, 'checkout')).toHaveLength(1);
  });

  it('an HTML page from a proxy: status and excerpt, outcome unknown, not retried', async () => {
    await login();
    await call(e2e.sb.url, 'POST', '/_sandbox/force', { route: 'checkout', fault: 'html' });
    const result = await create('--amount', '1');
    expect(result.exitCode).toBe(5);
    expect(result.stderr).toContain(
      'outcome unknown: unexpected answer 502 to the order creation (text/html): <html><head><title>502 Bad Gateway',
    );
    expect(await journal(e2e.sb.url, 'checkout')).toHaveLength(1);
  });

  it.each([
    ['reset', 'outcome unknown: the request reached'],
    ['malformed', 'outcome unknown: the service answered 200 but the body is not an order'],
  ])('%s after the order was made: exit 5, never sent twice', async (fault, message) => {
    await login();
    await call(e2e.sb.url, 'POST', '/_sandbox/force', { route: 'checkout', fault });
    const result = await create('--amount', '1');
    expect(result.exitCode).toBe(5);
    expect(result.stderr).toContain(message);
    expect(await journal(e2e.sb.url, 'checkout')).toHaveLength(1);
    expect((await call(e2e.sb.url, 'GET', '/_sandbox/orders')).body.orders).toHaveLength(1);
  });

  it('a hang times out as outcome unknown (PAYORDER_TIMEOUT), sent once', async () => {
    await login();
    await call(e2e.sb.url, 'POST', '/_sandbox/force', { route: 'checkout', fault: 'hang' });
    const result = await e2e.run(['order', 'create', '--env', 'sandbox', ...ORDER, '--amount', '1'], {
      env: { PAYORDER_TIMEOUT: '1' },
    });
    expect(result.exitCode).toBe(5);
    expect(result.stderr).toContain('no answer within 1 s');
    expect(await journal(e2e.sb.url, 'checkout')).toHaveLength(1);
  });

  it('429 and 503 are retried honoring Retry-After, then succeed', async () => {
    await login();
    await call(e2e.sb.url, 'POST', '/_sandbox/force', {
      route: 'checkout',
      fault: 'rate-limit',
      retry_after: 1,
    });
    await call(e2e.sb.url, 'POST', '/_sandbox/force', { route: 'checkout', fault: 'unavailable' });
    const started = performance.now();
    const result = await create('--amount', '1');
    expect(result.exitCode, result.stderr).toBe(0);
    expect(performance.now() - started).toBeGreaterThan(1000);
    expect((await journal(e2e.sb.url, 'checkout')).map((e) => e.status)).toEqual([429, 503, 200]);
    expect((await call(e2e.sb.url, 'GET', '/_sandbox/orders')).body.orders).toHaveLength(1);
  });
});
