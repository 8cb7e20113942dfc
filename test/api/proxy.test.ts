/**
 * The proxy requests go through (src/api/proxy.ts): the settings read from HTTP_PROXY, HTTPS_PROXY
 * and NO_PROXY, and requests through a proxy of the test's own: an http://
 * address asked of the proxy, an https:// one through a CONNECT tunnel (the proxy never sees the
 * token), an address on this machine reached directly, and a whole command through the proxy.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { agentTransport } from '../../src/api/agent-transport.js';
import { send } from '../../src/api/http.js';
import { proxySettings } from '../../src/api/proxy.js';
import { PATHS } from '../../src/contract/versions.js';
import { CliError } from '../../src/errors.js';
import { orderFlags } from '../helpers/cli.js';
import { useE2E } from '../helpers/e2e.js';
import { httpOptions } from '../helpers/http-options.js';
import { rejection } from '../helpers/refusal.js';
import { journal } from '../helpers/sandbox.js';
import { serveHttp } from '../helpers/servers.js';

/** The settings of `env`, or the error they give. */
function settingsOf(env: Record<string, string>) {
  try {
    return proxySettings(env);
  } catch (error) {
    return error as CliError;
  }
}

describe('the proxy settings', () => {
  it('none without HTTP_PROXY or HTTPS_PROXY', () => {
    expect(proxySettings({ NO_PROXY: 'example.com' })).toBeUndefined();
    expect(proxySettings({ HTTPS_PROXY: '' })).toBeUndefined();
  });

  it('each proxy for its own kind of address, and the hosts reached without one', () => {
    expect(proxySettings({ HTTPS_PROXY: 'http://proxy.example:3128' })).toEqual({
      httpsProxy: 'http://proxy.example:3128',
      noProxy: '',
    });
    expect(
      proxySettings({ HTTP_PROXY: 'http://p:1', HTTPS_PROXY: 'https://p:2', NO_PROXY: '.corp.example' }),
    ).toEqual({
      httpProxy: 'http://p:1',
      httpsProxy: 'https://p:2',
      noProxy: '.corp.example',
    });
  });

  it('the lower-case spelling wins, as in curl', () => {
    expect(
      proxySettings({
        https_proxy: 'http://lower:1',
        HTTPS_PROXY: 'http://upper:1',
        no_proxy: 'a',
        NO_PROXY: 'b',
      }),
    ).toEqual({ httpsProxy: 'http://lower:1', noProxy: 'a' });
  });

  it.each([
    ['HTTPS_PROXY', 'socks5://user:hunter2@proxy.example:1080'],
    ['https_proxy', 'not an address hunter2'],
    ['HTTP_PROXY', 'ftp://hunter2@proxy.example/'],
  ])(
    '%s that is not an http:// or https:// address: a config error naming it, not its value',
    (name, value) => {
      const error = settingsOf({ [name]: value }) as CliError;
      expect(error).toBeInstanceOf(CliError);
      expect([error.kind, error.message]).toEqual([
        'config',
        `${name}: must be the http:// or https:// address of a proxy`,
      ]);
      expect(JSON.stringify(error.toJSON())).not.toContain('hunter2');
    },
  );
});

/**
 * An HTTP proxy of the test's own: an absolute-form request (GET http://host:port/path) is sent on
 * to 127.0.0.1 at that port; a CONNECT is refused. What it was asked, and every byte it received,
 * are kept.
 */
async function proxy() {
  const asked: string[] = [];
  const bytes: Buffer[] = [];
  const url = await serveHttp(
    (request, response) => {
      asked.push(`${request.method} ${request.url}`);
      const target = new URL(request.url!);
      const forwarded = httpRequest(
        {
          host: '127.0.0.1',
          port: target.port,
          method: request.method,
          path: target.pathname + target.search,
          headers: request.headers,
        },
        (answer: IncomingMessage) => {
          response.writeHead(answer.statusCode!, answer.headers);
          answer.pipe(response);
        },
      );
      request.pipe(forwarded);
    },
    (server) => {
      server.on('connection', (socket: Socket) => socket.on('data', (chunk: Buffer) => bytes.push(chunk)));
      server.on('connect', (request: IncomingMessage, socket: Socket) => {
        asked.push(`CONNECT ${request.url}`);
        socket.end('HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\n\r\n');
      });
    },
  );
  return { url, asked, received: () => Buffer.concat(bytes).toString('latin1') };
}

const TOKEN = 'opaque-token-1234567890';
const createOrder = (url: string) => ({
  method: 'POST' as const,
  url: url + PATHS.checkout('v2'),
  headers: { authorization: `Bearer ${TOKEN}` },
  body: { amount: '100', description: 'Tea' },
  retryRefusals: true,
  createsSomething: true,
  issuesToken: false,
});

/** A service that answers every order with its uuid, on 127.0.0.1: its port. */
async function service() {
  const url = await serveHttp((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end('{"uuid":"u-1"}');
  });
  return Number(new URL(url).port);
}

describe('requests through a proxy', () => {
  it('an http:// address is asked of the proxy, whole', async () => {
    const [through, port] = await Promise.all([proxy(), service()]);
    const transport = agentTransport(undefined, proxySettings({ HTTP_PROXY: through.url }));
    const answer = await send(createOrder(`http://orders.payorder.test:${port}`), httpOptions(transport));
    expect([answer.status, answer.text]).toEqual([200, '{"uuid":"u-1"}']);
    expect(through.asked).toEqual([`POST http://orders.payorder.test:${port}${PATHS.checkout('v2')}`]);
  });

  it('an https:// address goes through a tunnel: the proxy never sees the token; refused, nothing was sent', async () => {
    const through = await proxy();
    const transport = agentTransport(undefined, proxySettings({ HTTPS_PROXY: through.url }));
    const error = await rejection(() =>
      send(createOrder('https://orders.payorder.test'), httpOptions(transport)),
    );
    expect(through.asked).toEqual(['CONNECT orders.payorder.test:443']);
    expect(error.kind).toBe('network');
    expect(error.message).toMatch(/^cannot reach https:\/\/orders\.payorder\.test \(.+\); nothing was sent$/);
    expect(through.received()).not.toContain(TOKEN);
  });

  it('an address on this machine is reached directly', async () => {
    const [through, port] = await Promise.all([proxy(), service()]);
    const transport = agentTransport(undefined, proxySettings({ HTTP_PROXY: through.url }));
    const answer = await send(createOrder(`http://127.0.0.1:${port}`), httpOptions(transport));
    expect(answer.status).toBe(200);
    expect(through.asked).toEqual([]);
  });
});

describe('a command through a proxy', () => {
  // The proxy reaches the sandbox under a name of its own, as a CI service is reached.
  const e2e = useE2E({ allowHosts: ['sandbox.payorder.test'] });

  it('logs in and creates an order through HTTP_PROXY', async () => {
    const through = await proxy();
    const base = `http://sandbox.payorder.test:${new URL(e2e.sb.url).port}`;
    const env = { HTTP_PROXY: through.url, PAYORDER_AUTH_URL: base, PAYORDER_CHECKOUT_URL: base };
    await e2e.login('sandbox', { env });
    const created = await e2e.run(
      ['order', 'create', '--env', 'sandbox', ...orderFlags({ amount: '2.50' })],
      {
        env,
      },
    );
    expect(created.exitCode, created.stderr).toBe(0);
    expect(through.asked.map((line) => line.replace(base, 'BASE'))).toEqual([
      `POST BASE${PATHS.token('v2')}`,
      `POST BASE${PATHS.checkout('v2')}`,
    ]);
    expect((await journal(e2e.sb.url, 'checkout')).length).toBe(1);
  });

  it('a proxy address that is not one: the command fails at once with a config error (exit 2), nothing sent', async () => {
    await e2e.login();
    const result = await e2e.run(['order', 'create', '--env', 'sandbox', ...orderFlags({ amount: '2.50' })], {
      env: { HTTP_PROXY: 'socks5://user:hunter2@proxy.example:1080' },
    });
    expect([result.exitCode, result.stderr.split('\n')[0]]).toEqual([
      2,
      'error: HTTP_PROXY: must be the http:// or https:// address of a proxy',
    ]);
    expect(result.stderr).not.toContain('hunter2');
    expect(await journal(e2e.sb.url, 'checkout')).toEqual([]);
  });
});
