import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/server.js';
import { call, orderBody, tokenFor, useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();

const LIMIT = 65_536;

/** Sends `text` as it is on a fresh connection and returns everything the sandbox wrote back. */
function raw(url: string, text: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(text));
    let received = '';
    socket.on('data', (chunk) => (received += chunk));
    socket.on('close', () => resolve(received));
    socket.on('error', reject);
  });
}

/** A token request body of exactly `size` bytes: valid JSON, padded with a field of its own. */
function paddedBody(size: number): string {
  const shell = JSON.stringify({ pad: '' });
  return JSON.stringify({ pad: 'x'.repeat(size - shell.length) });
}

describe('routing', () => {
  it.each([
    ['GET', '/nope'],
    ['GET', '/v2/api/checkout'],
    ['POST', '/v2/api/checkout/'],
    ['OPTIONS', '/_sandbox'],
  ])('%s %s is a 404 naming the route', async (method, path) => {
    const reply = await call(sb.url, method, path);
    expect([reply.status, reply.headers.get('content-type')]).toEqual([
      404,
      'application/json; charset=utf-8',
    ]);
    expect(reply.text).toBe(
      JSON.stringify({ message: `Route ${method}:${path} not found`, error: 'Not Found', statusCode: 404 }),
    );
  });

  it('HEAD answers a GET route with its headers and no body', async () => {
    const get = await call(sb.url, 'GET', '/_sandbox/force');
    const head = await fetch(`${sb.url}/_sandbox/force`, { method: 'HEAD' });
    expect([head.status, head.headers.get('content-length'), await head.text()]).toEqual([
      200,
      String(Buffer.byteLength(get.text)),
      '',
    ]);
  });

  it('the query does not change the route, and the journal keeps it in the path', async () => {
    const token = await tokenFor(sb.url);
    const reply = await call(sb.url, 'POST', '/v2/api/checkout?trace=1', orderBody('v2'), token);
    expect(reply.status).toBe(200);
    const { entries } = (await call(sb.url, 'GET', '/_sandbox/journal?route=checkout')).body;
    expect(entries.map((e: { path: string }) => e.path)).toEqual(['/v2/api/checkout?trace=1']);
  });

  it('a path parameter that is not valid percent-encoding is a 400', async () => {
    const reply = await call(sb.url, 'GET', '/pay/%E0%A4%A');
    expect([reply.status, reply.body]).toEqual([
      400,
      { error: 'Bad Request', message: "'/pay/%E0%A4%A' is not a valid url component", statusCode: 400 },
    ]);
  });

  it('a request that is not HTTP gets a JSON 400 and the connection is closed', async () => {
    const answer = await raw(sb.url, 'HELLO\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(answer.slice(answer.indexOf('\r\n\r\n') + 4)).toBe(
      JSON.stringify({ error: 'Bad Request', message: 'Client Error', statusCode: 400 }),
    );
  });
});

describe('request bodies', () => {
  it('reads a body whatever its content type, so the token endpoint judges it', async () => {
    const reply = await fetch(`${sb.url}/v2/api/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: '{"username": ',
    });
    expect([reply.status, ((await reply.json()) as { code: string }).code]).toEqual([400, '3001']);
  });

  it('takes a body of exactly 64 KiB and refuses one byte more with 413, closing the connection', async () => {
    const taken = await call(sb.url, 'POST', '/v2/api/auth/token', paddedBody(LIMIT));
    expect([taken.status, taken.body.code]).toEqual([400, '3001']);
    const refused = await call(sb.url, 'POST', '/v2/api/auth/token', paddedBody(LIMIT + 1));
    expect([refused.status, refused.headers.get('connection')]).toEqual([413, 'close']);
    expect(refused.body).toEqual({
      statusCode: 413,
      error: 'Payload Too Large',
      message: 'Request body is too large',
    });
    // The refused request never reached the service.
    const { entries } = (await call(sb.url, 'GET', '/_sandbox/journal?route=token')).body;
    expect(entries).toHaveLength(1);
  });

  it('refuses a streamed body (no Content-Length) once it passes 64 KiB', async () => {
    const chunk = new Uint8Array(64 * 1024).fill(0x20);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        // Twice the limit at most, so the test ends even if the sandbox kept reading.
        if (sent >= 2 * LIMIT) return controller.close();
        sent += chunk.length;
        controller.enqueue(chunk);
      },
    });
    const reply = await fetch(`${sb.url}/v2/api/auth/token`, {
      method: 'POST',
      body,
      duplex: 'half',
    } as RequestInit).catch((error: Error) => error);
    // The sandbox answers 413 and closes; the client sees that answer or, mid-upload, the closed connection.
    if (reply instanceof Response) expect(reply.status).toBe(413);
    else expect(reply).toBeInstanceOf(Error);
    expect((await call(sb.url, 'GET', '/_sandbox/journal?route=token')).body.entries).toEqual([]);
  });
});

describe('answers', () => {
  it.each([
    ['a character outside ASCII', 'https://shop.example/merci-€', 'https://shop.example/merci-%E2%82%AC'],
    ['CR/LF', 'https://shop.example/ok\r\nSet-Cookie: a=b', 'https://shop.example/okSet-Cookie:%20a=b'],
    ['no address at all', 'merci €\r\nfin', 'merci%20%E2%82%AC%0D%0Afin'],
  ])(
    'a callback address with %s is sent encoded in the Location, after the order is paid',
    async (_, callback, location) => {
      const token = await tokenFor(sb.url);
      const order = (
        await call(sb.url, 'POST', '/v2/api/checkout', orderBody('v2', { callback_success: callback }), token)
      ).body;
      const pay = await call(sb.url, 'POST', `/pay/${order.uuid}/pay`);
      expect([pay.status, pay.headers.get('location'), pay.headers.get('set-cookie')]).toEqual([
        303,
        location,
        null,
      ]);
      const { orders } = (await call(sb.url, 'GET', '/_sandbox/orders')).body;
      expect(orders.map((o: { status: string }) => o.status)).toEqual(['PAID']);
    },
  );

  it('and so is the fail address', async () => {
    const token = await tokenFor(sb.url);
    const order = (
      await call(
        sb.url,
        'POST',
        '/v2/api/checkout',
        orderBody('v2', { callback_fail: 'https://shop.example/désolé' }),
        token,
      )
    ).body;
    const fail = await call(sb.url, 'POST', `/pay/${order.uuid}/fail`);
    expect([fail.status, fail.headers.get('location')]).toEqual([
      303,
      'https://shop.example/d%C3%A9sol%C3%A9',
    ]);
  });

  it('close() cuts a hung exchange instead of waiting for it', async () => {
    const sandbox = await startSandbox({ port: 0 });
    await call(sandbox.url, 'POST', '/_sandbox/force', { route: 'token', fault: 'hang' });
    const hung = fetch(`${sandbox.url}/v2/api/auth/token`, { method: 'POST', body: '{}' }).catch(
      (error: Error) => error,
    );
    await expect
      .poll(async () => (await call(sandbox.url, 'GET', '/_sandbox/journal')).body.entries.length)
      .toBe(1);
    const started = performance.now();
    await sandbox.close();
    expect(performance.now() - started).toBeLessThan(1000);
    expect(await hung).toBeInstanceOf(Error);
  });
});
