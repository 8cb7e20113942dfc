/**
 * What the sandbox takes from a web browser: its own payment page's forms and navigations to a
 * payment link, nothing that another page makes the browser send (a foreign Origin, Sec-Fetch-Site
 * cross-site) and nothing addressed to a foreign name (DNS rebinding). Payment links name the
 * sandbox's own address, whatever Host a request gave.
 */
import { request } from 'node:http';
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { PATHS } from '../../src/contract/versions.js';
import { type Sandbox, type SandboxOptions, startSandbox } from '../../src/sandbox/server.js';
import { call, createOrder, orderBody, sandboxOrders, tokenFor, useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();

interface Sent {
  status: number;
  body: any;
  location: string | undefined;
}

/** A request with exactly these headers (node:http sends Host and Origin as given). */
function send(
  base: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<Sent> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const outgoing = request({ host: hostname, port, method, path, headers }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => {
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch {
          parsed = text;
        }
        resolve({ status: response.statusCode!, body: parsed, location: response.headers.location });
      });
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/** An HTTP/1.0 request without Host, as old tools send it; the whole answer as text. */
function withoutHost(base: string, head: string, body = ''): Promise<string> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () =>
      socket.write(`${head}\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`),
    );
    let received = '';
    socket.on('data', (chunk) => (received += chunk));
    socket.on('close', () => resolve(received));
    socket.on('error', reject);
  });
}

const EVIL = 'http://evil.example';
const hostOf = (base: string) => new URL(base).host;

describe('requests a web page makes the browser send are refused with 403', () => {
  it('a listener registered with text/plain from a foreign Origin', async () => {
    const reply = await send(
      sb.url,
      'POST',
      '/_sandbox/listeners',
      { 'content-type': 'text/plain', origin: EVIL },
      JSON.stringify({ url: 'http://127.0.0.1:9/hook' }),
    );
    expect([reply.status, reply.body]).toEqual([
      403,
      {
        statusCode: 403,
        error: 'Forbidden',
        message:
          'Origin http://evil.example is not this sandbox: a web page cannot drive it (see --public-url)',
      },
    ]);
    expect((await call(sb.url, 'GET', '/_sandbox/listeners')).body.listeners).toEqual([]);
  });

  it('a form that resets it, or pays an order', async () => {
    const order = await createOrder(sb.url, await tokenFor(sb.url));
    const form = { 'content-type': 'application/x-www-form-urlencoded', origin: EVIL };
    expect((await send(sb.url, 'POST', '/_sandbox/reset', form, 'x=1')).status).toBe(403);
    const pay = await send(sb.url, 'POST', `/pay/${order.uuid}/pay`, {
      ...form,
      'sec-fetch-site': 'cross-site',
    });
    expect([pay.status, pay.location]).toEqual([403, undefined]);
    expect((await sandboxOrders(sb.url)).map((o) => o.status)).toEqual(['PENDING']);
  });

  it.each([
    ['Sec-Fetch-Site cross-site without an Origin', { 'sec-fetch-site': 'cross-site' }],
    ['Sec-Fetch-Site same-site (another port of this machine)', { 'sec-fetch-site': 'same-site' }],
    ['the opaque Origin null', { origin: 'null' }],
    ['an Origin on another port of this address', { origin: 'http://127.0.0.1:1' }],
  ])('%s', async (_, headers) => {
    const reply = await send(sb.url, 'POST', '/_sandbox/clock', headers, '{"advance":60}');
    expect([reply.status, reply.body.error]).toEqual([403, 'Forbidden']);
    expect((await call(sb.url, 'GET', '/_sandbox/clock')).body.offset_seconds).toBe(0);
  });

  it('a request to a name that is not the sandbox’s (DNS rebinding), whatever its method', async () => {
    for (const method of ['GET', 'POST']) {
      const reply = await send(sb.url, method, '/_sandbox/orders', { host: 'attacker.example' });
      expect([reply.status, reply.body]).toEqual([
        403,
        {
          statusCode: 403,
          error: 'Forbidden',
          message:
            'Host attacker.example is not a name of this sandbox: use a loopback name, or start it with --allow-host attacker.example',
        },
      ]);
    }
  });
});

describe('what stays allowed', () => {
  it('the payment page’s own form (same origin), and a navigation to a payment link from the shop', async () => {
    const order = await createOrder(sb.url, await tokenFor(sb.url));
    const page = await send(sb.url, 'GET', `/pay/${order.uuid}`, {
      'sec-fetch-site': 'cross-site',
      'sec-fetch-mode': 'navigate',
    });
    expect(page.status).toBe(200);
    const pay = await send(sb.url, 'POST', `/pay/${order.uuid}/pay`, {
      origin: sb.url,
      'sec-fetch-site': 'same-origin',
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect([pay.status, pay.location]).toEqual([303, 'https://shop.example/ok']);
  });

  it.each([
    ['localhost', 'localhost'],
    ['127.0.0.2', '127.0.0.2'],
    ['[::1]', '[::1]'],
  ])('the loopback name %s, with its own Origin', async (_, name) => {
    const host = `${name}:${new URL(sb.url).port}`;
    const reply = await send(
      sb.url,
      'POST',
      '/_sandbox/clock',
      { host, origin: `http://${host}`, 'sec-fetch-site': 'same-origin' },
      '{"advance":60}',
    );
    expect(reply.status).toBe(200);
  });

  it('curl -d and scripts: no Origin, any content type or none, no body', async () => {
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    expect((await send(sb.url, 'POST', '/_sandbox/clock', form, '{"advance":60}')).status).toBe(200);
    expect((await send(sb.url, 'POST', '/_sandbox/reset', {})).status).toBe(200);
    expect((await send(sb.url, 'POST', '/_sandbox/reset', { 'sec-fetch-site': 'none' })).status).toBe(200);
    expect(await withoutHost(sb.url, 'POST /_sandbox/reset HTTP/1.0')).toMatch(/^HTTP\/1\.1 200 /);
  });
});

describe('the sandbox’s names and its listeners', () => {
  const started: Sandbox[] = [];
  afterEach(async () => {
    await Promise.all(started.splice(0).map((sandbox) => sandbox.close()));
  });
  const start = async (options: SandboxOptions) => {
    const sandbox = await startSandbox({ port: 0, ...options });
    started.push(sandbox);
    return sandbox;
  };

  it('--allow-host admits a name (a CI service), and its origin', async () => {
    const sandbox = await start({ allowHosts: ['sandbox'] });
    const host = `sandbox:${sandbox.port}`;
    const headers = { host, origin: `http://${host}` };
    expect((await send(sandbox.url, 'POST', '/_sandbox/reset', headers)).status).toBe(200);
    expect((await send(sandbox.url, 'GET', '/_sandbox', { host: 'other' })).status).toBe(403);
  });

  it('listeners may be on this machine only, unless --allow-listener-host names another', async () => {
    const refused = await call(sb.url, 'POST', '/_sandbox/listeners', { url: 'http://hooks.example/n' });
    expect([refused.status, refused.body]).toEqual([
      403,
      {
        error:
          'url: a listener must be on this machine (localhost, 127.0.0.1, [::1]); start the sandbox with --allow-listener-host hooks.example for another host',
      },
    ]);
    for (const url of ['http://localhost:3000/n', 'http://127.0.0.1:3000/n', 'http://[::1]:3000/n'])
      expect((await call(sb.url, 'POST', '/_sandbox/listeners', { url })).status).toBe(201);
    const sandbox = await start({ allowListenerHosts: ['hooks.example'] });
    const taken = await call(sandbox.url, 'POST', '/_sandbox/listeners', { url: 'http://hooks.example/n' });
    expect(taken.status).toBe(201);
  });
});

describe('payment links name the sandbox’s own address', () => {
  it('whatever name the request used', async () => {
    const token = await tokenFor(sb.url);
    const reply = await send(
      sb.url,
      'POST',
      PATHS.checkout('v2'),
      { host: `localhost:${new URL(sb.url).port}`, authorization: `Bearer ${token}` },
      JSON.stringify(orderBody('v2')),
    );
    expect(reply.body.links.checkout_link).toBe(`${sb.url}/pay/${reply.body.uuid}`);
  });

  it('and when the request had no Host (HTTP/1.0)', async () => {
    const token = await tokenFor(sb.url);
    const answer = await withoutHost(
      sb.url,
      `POST ${PATHS.checkout('v2')} HTTP/1.0\r\nauthorization: Bearer ${token}`,
      JSON.stringify(orderBody('v2')),
    );
    const order = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));
    expect(order.links.checkout_link).toBe(`${sb.url}/pay/${order.uuid}`);
  });

  it('--public-url names it when it is reached under another name, and admits that name', async () => {
    const sandbox = await startSandbox({ port: 0, publicUrl: 'https://sandbox.ci.example/' });
    try {
      const token = await tokenFor(sandbox.url);
      const order = await createOrder(sandbox.url, token);
      expect(order.links.checkout_link).toBe(`https://sandbox.ci.example/pay/${order.uuid}`);
      const headers = { host: 'sandbox.ci.example', origin: 'https://sandbox.ci.example' };
      expect((await send(sandbox.url, 'POST', `/pay/${order.uuid}/pay`, headers)).status).toBe(303);
      const doc = (await call(sandbox.url, 'GET', '/_sandbox/openapi.json')).body;
      expect(doc.servers[0].url).toBe('https://sandbox.ci.example');
    } finally {
      await sandbox.close();
    }
  });

  it('a Host that is not the sandbox’s gives no link at all', async () => {
    const token = await tokenFor(sb.url);
    const reply = await send(
      sb.url,
      'POST',
      PATHS.checkout('v2'),
      { host: hostOf(EVIL), authorization: `Bearer ${token}` },
      JSON.stringify(orderBody('v2')),
    );
    expect(reply.status).toBe(403);
    expect(await sandboxOrders(sb.url)).toEqual([]);
  });
});
