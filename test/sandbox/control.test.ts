import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { type CatalogId, catalogEntry, errorBody } from '../../src/contract/catalog.js';
import { PATHS } from '../../src/contract/versions.js';
import { TEST_ACCOUNT } from '../../src/sandbox/accounts.js';
import { startSandbox } from '../../src/sandbox/server.js';
import {
  call,
  createOrder,
  orderBody,
  sandboxOrders,
  TEST_CREDENTIALS,
  tokenBody,
  tokenFor,
  useSandbox,
} from '../helpers/sandbox.js';

const sb = useSandbox({ notifyAttempts: 4 }, { beforeSunset: true });

describe('GET /_sandbox', () => {
  it('lists the accounts without their secrets', async () => {
    const reply = await call(sb.url, 'GET', '/_sandbox');
    expect(reply.status).toBe(200);
    const { client_secret_id: _, ...listed } = TEST_CREDENTIALS;
    expect(reply.body.accounts).toEqual([listed]);
    expect(reply.text).not.toContain(TEST_ACCOUNT.clientSecretId);
    expect(reply.text).not.toContain('client_secret_id');
  });
});

describe('journal', () => {
  it('records what reached the service with secrets and tokens masked', async () => {
    const token = await tokenFor(sb.url);
    await createOrder(sb.url, token);
    const { entries } = (await call(sb.url, 'GET', '/_sandbox/journal')).body;
    expect(entries.map((e: any) => [e.route, e.version, e.status])).toEqual([
      ['token', 'v2', 200],
      ['checkout', 'v2', 200],
    ]);
    const text = JSON.stringify(entries);
    expect(text).not.toContain(TEST_ACCOUNT.clientSecretId);
    expect(text).not.toContain(token);
    expect(entries[0].body.client_secret_id).toBe('***');
    expect(entries[1].authorization).toBe('Bearer ***');
    expect((await call(sb.url, 'GET', '/_sandbox/journal?route=token')).body.entries).toHaveLength(1);
  });
});

describe('clock and token ttl', () => {
  it('a token lives exactly ttl seconds by the sandbox clock', async () => {
    const token = await tokenFor(sb.url);
    await call(sb.url, 'POST', '/_sandbox/clock', { advance: 86_300 });
    expect((await call(sb.url, 'POST', PATHS.checkout('v2'), orderBody('v2'), token)).status).toBe(200);
    await call(sb.url, 'POST', '/_sandbox/clock', { advance: 200 });
    expect((await call(sb.url, 'POST', PATHS.checkout('v2'), orderBody('v2'), token)).status).toBe(403);
  });

  it('--token-ttl sets the lifetime', async () => {
    const short = await startSandbox({ port: 0, tokenTtlSeconds: 60 });
    try {
      const reply = await call(short.url, 'POST', PATHS.token('v2'), tokenBody('v2'));
      expect(reply.body.expires_in).toBe(60);
      await call(short.url, 'POST', '/_sandbox/clock', { advance: 61 });
      expect(
        (await call(short.url, 'GET', PATHS.lookup('v2', 'x'), undefined, reply.body.access_token)).status,
      ).toBe(403);
    } finally {
      await short.close();
    }
  });

  it('rejects a clock change it cannot read', async () => {
    expect((await call(sb.url, 'POST', '/_sandbox/clock', { advance: 'soon' })).status).toBe(400);
  });

  it('refuses a move out of the range of dates and keeps answering', async () => {
    const before = (await call(sb.url, 'GET', '/_sandbox/clock')).body;
    for (const body of [{ advance: 1e308 }, { advance: -1e308 }, { now: '+300000-01-01T00:00:00Z' }]) {
      const reply = await call(sb.url, 'POST', '/_sandbox/clock', body);
      expect(reply.status).toBe(400);
      expect(reply.body.error).toContain('within the range of dates');
    }
    expect((await call(sb.url, 'GET', '/_sandbox/clock')).body.offset_seconds).toBe(before.offset_seconds);
    expect((await call(sb.url, 'POST', PATHS.token('v2'), tokenBody('v2'))).status).toBe(200);
  });
});

describe('order status', () => {
  it('REFUNDED only on v2 orders', async () => {
    const token = await tokenFor(sb.url);
    const v1 = await createOrder(sb.url, token, 'v1');
    const v2 = await createOrder(sb.url, token, 'v2');
    expect(
      (await call(sb.url, 'POST', `/_sandbox/orders/${v1.uuid}/status`, { status: 'REFUNDED' })).status,
    ).toBe(409);
    expect(
      (await call(sb.url, 'POST', `/_sandbox/orders/${v2.uuid}/status`, { status: 'REFUNDED' })).body.status,
    ).toBe('REFUNDED');
    expect((await call(sb.url, 'GET', PATHS.lookup('v2', v2.uuid), undefined, token)).body.status).toBe(
      'REFUNDED',
    );
    expect(
      (await call(sb.url, 'POST', `/_sandbox/orders/${v2.uuid}/status`, { status: 'refunded!' })).status,
    ).toBe(400);
    expect((await call(sb.url, 'POST', '/_sandbox/orders/nope/status', { status: 'PAID' })).status).toBe(404);
  });
});

describe('payment page and notifications', () => {
  let receiver: Server | undefined;
  afterEach(() => new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve())));

  it('Pay marks the order paid, redirects to callback_success and notifies, retrying failures', async () => {
    const received: any[] = [];
    let calls = 0;
    receiver = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        calls++;
        // The first delivery fails: the sandbox must retry.
        response.statusCode = calls === 1 ? 500 : 204;
        if (calls > 1) received.push(JSON.parse(body));
        response.end();
      });
    });
    await new Promise<void>((resolve) => receiver!.listen(0, '127.0.0.1', resolve));
    const port = (receiver.address() as { port: number }).port;
    const token = await tokenFor(sb.url, 'v1');
    const order = await createOrder(sb.url, token, 'v1', {
      notification_url: `http://127.0.0.1:${port}/hook`,
    });

    const page = await call(sb.url, 'GET', new URL(order.links.checkoutLink).pathname);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.text).toContain('12.50');
    expect(page.text).toContain('id="pay"');

    const pay = await call(sb.url, 'POST', `/pay/${order.uuid}/pay`);
    expect(pay.status).toBe(303);
    expect(pay.headers.get('location')).toBe('https://shop.example/ok');
    expect((await call(sb.url, 'GET', PATHS.lookup('v1', order.uuid), undefined, token)).body.status).toBe(
      'PAID',
    );
    expect((await call(sb.url, 'POST', `/pay/${order.uuid}/fail`)).status).toBe(409);

    await expect.poll(() => received.length, { timeout: 5000 }).toBe(1);
    expect(received[0]).toMatchObject({ uuid: order.uuid, status: 'PAID' });
    const { attempts } = (await call(sb.url, 'GET', '/_sandbox/notifications')).body;
    expect(attempts.map((a: any) => a.outcome)).toEqual([500, 204]);
  });

  it('the page shows a v1 order by its order number and a v2 order, which has none, by its uuid', async () => {
    const token = await tokenFor(sb.url);
    const orderRow = (html: string) => /<th>Order<\/th><td>([^<]*)<\/td>/.exec(html)?.[1];
    const v1 = await createOrder(sb.url, token, 'v1');
    const v2 = await createOrder(sb.url, token, 'v2');
    expect(orderRow((await call(sb.url, 'GET', `/pay/${v1.uuid}`)).text)).toBe(v1.orderNumber);
    const page = (await call(sb.url, 'GET', `/pay/${v2.uuid}`)).text;
    expect(orderRow(page)).toBe(v2.uuid);
    // The number the v2 order would have had, were it a v1 order, appears nowhere.
    expect(page).not.toContain(String(Number(v1.orderNumber) + 1));
  });

  it('Fail redirects to callback_fail', async () => {
    const token = await tokenFor(sb.url);
    const order = await createOrder(sb.url, token);
    const fail = await call(sb.url, 'POST', `/pay/${order.uuid}/fail`);
    expect(fail.headers.get('location')).toBe('https://shop.example/ko');
    expect((await call(sb.url, 'GET', PATHS.lookup('v2', order.uuid), undefined, token)).body.status).toBe(
      'FAILED',
    );
    expect((await call(sb.url, 'GET', '/pay/unknown')).status).toBe(404);
  });
});

describe('forced errors and faults', () => {
  // What each forced answer holds is checked against the spec in service.test.ts; here, that the
  // catalog row asked for is the one that comes, once.
  it.each<CatalogId>(['1001', '1003', '1004', '1002', 'unauthorized', 'expired', '999'])(
    'forces %s on the next checkout only',
    async (id) => {
      const token = await tokenFor(sb.url);
      await call(sb.url, 'POST', '/_sandbox/force', { route: 'checkout', error: id });
      const forced = await call(sb.url, 'POST', PATHS.checkout('v2'), orderBody('v2'), token);
      const entry = catalogEntry(id);
      expect([forced.status, forced.body]).toEqual([entry.status, errorBody(entry)]);
      expect((await call(sb.url, 'POST', PATHS.checkout('v2'), orderBody('v2'), token)).status).toBe(200);
    },
  );

  it.each<CatalogId>(['3001', '3002', '3003', '3005', '3006'])('forces token error %s', async (id) => {
    await call(sb.url, 'POST', '/_sandbox/force', { route: 'token', error: id });
    const reply = await call(sb.url, 'POST', PATHS.token('v2'), tokenBody('v2'));
    const entry = catalogEntry(id);
    expect([reply.status, reply.body]).toEqual([entry.status, errorBody(entry)]);
  });

  it('times counts the requests it applies to', async () => {
    await call(sb.url, 'POST', '/_sandbox/force', { route: 'lookup', fault: 'unavailable', times: 2 });
    const token = await tokenFor(sb.url);
    expect((await call(sb.url, 'GET', PATHS.lookup('v2', 'x'), undefined, token)).status).toBe(503);
    expect((await call(sb.url, 'GET', PATHS.lookup('v2', 'x'), undefined, token)).status).toBe(503);
    expect((await call(sb.url, 'GET', PATHS.lookup('v2', 'x'), undefined, token)).status).toBe(404);
  });

  it('429 carries Retry-After; html is a 502 page; malformed is truncated JSON', async () => {
    const token = await tokenFor(sb.url);
    await call(sb.url, 'POST', '/_sandbox/force', { route: 'checkout', fault: 'rate-limit', retry_after: 7 });
    const limited = await call(sb.url, 'POST', PATHS.checkout('v2'), orderBody('v2'), token);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('7');
    await call(sb.url, 'POST', '/_sandbox/force', { route: 'checkout', fault: 'html' });
    const html = await call(sb.url, 'POST', PATHS.checkout('v2'), orderBody('v2'), token);
    expect([html.status, html.headers.get('content-type')]).toEqual([502, 'text/html']);
    await call(sb.url, 'POST', '/_sandbox/force', { route: 'checkout', fault: 'malformed' });
    const malformed = await call(sb.url, 'POST', PATHS.checkout('v2'), orderBody('v2'), token);
    expect(malformed.status).toBe(200);
    expect(malformed.body).toBeUndefined();
  });

  it('reset and hang cut the exchange after the order was made (a lost answer)', async () => {
    const token = await tokenFor(sb.url);
    await call(sb.url, 'POST', '/_sandbox/force', { route: 'checkout', fault: 'reset' });
    await expect(call(sb.url, 'POST', PATHS.checkout('v2'), orderBody('v2'), token)).rejects.toThrow();
    await call(sb.url, 'POST', '/_sandbox/force', { route: 'checkout', fault: 'hang' });
    await expect(
      fetch(sb.url + PATHS.checkout('v2'), {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        body: JSON.stringify(orderBody('v2')),
        signal: AbortSignal.timeout(300),
      }),
    ).rejects.toThrow();
    expect(await sandboxOrders(sb.url)).toHaveLength(2);
  });

  it('latency delays the answer', async () => {
    await call(sb.url, 'POST', '/_sandbox/force', { route: 'token', fault: 'latency', ms: 300 });
    const started = performance.now();
    expect((await call(sb.url, 'POST', PATHS.token('v2'), {})).status).toBe(400);
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
  });

  it('refuses a force it cannot read', async () => {
    expect((await call(sb.url, 'POST', '/_sandbox/force', { route: 'nope', error: '999' })).status).toBe(400);
    expect((await call(sb.url, 'POST', '/_sandbox/force', { error: '12345' })).status).toBe(400);
    expect((await call(sb.url, 'POST', '/_sandbox/force', { fault: 'fire' })).status).toBe(400);
  });

  it('--fail-rate 1 fails every service request with the server error; --latency delays all', async () => {
    const flaky = await startSandbox({ port: 0, failRate: 1, latencyMs: 100 });
    try {
      const started = performance.now();
      const reply = await call(flaky.url, 'POST', PATHS.token('v2'), {});
      expect(reply.status).toBe(500);
      expect(performance.now() - started).toBeGreaterThanOrEqual(95);
    } finally {
      await flaky.close();
    }
  });
});
