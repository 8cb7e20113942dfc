import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { agentTransport } from '../../src/api/agent-transport.js';
import { type Exchange, send } from '../../src/api/http.js';
import type { Transport } from '../../src/api/transport.js';
import { PATHS } from '../../src/contract/versions.js';
import { httpOptions, oneShotTransport } from '../helpers/http-options.js';
import { rejection } from '../helpers/refusal.js';
import { serveHttp, unusedPort } from '../helpers/servers.js';

const TRANSPORTS: Array<[string, () => Transport]> = [
  ["Node's fetch, for one-shot commands", oneShotTransport],
  ['an agent of as many connections as needed', () => agentTransport()],
  ['an agent of one connection', () => agentTransport(1)],
];

const createOrder = (url: string): Exchange => ({
  method: 'POST',
  url: url + PATHS.checkout('v2'),
  headers: { authorization: 'Bearer opaque-token-1234567890' },
  body: { amount: '100', description: 'Tea' },
  retryRefusals: true,
  createsSomething: true,
  issuesToken: false,
});

/**
 * A server that keeps what it received (method, path, body, and the Authorization header when there
 * is one) and answers with `answer`.
 */
async function serve(answer: (request: IncomingMessage, response: ServerResponse, count: number) => void) {
  const received: string[] = [];
  const url = await serveHttp((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => {
      body += chunk;
    });
    request.on('end', () => {
      const { authorization } = request.headers;
      received.push(`${request.method} ${request.url} ${body}${authorization ? ` [${authorization}]` : ''}`);
      answer(request, response, received.length);
    });
  });
  return { url, received };
}

/** A server that redirects with `status` to `to` (made from its own address) and answers there. */
async function redirecting(status: number, to: (url: string) => string) {
  const server = await serve((request, response) => {
    if (request.url === PATHS.checkout('v2')) {
      response.writeHead(status, { location: to(server.url) });
      response.end('moved');
    } else {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{"uuid":"u-3"}');
    }
  });
  return server;
}

const BEARER = '[Bearer opaque-token-1234567890]';
const BODY = '{"amount":"100","description":"Tea"}';

describe.each(TRANSPORTS)('send through %s', (_name, transportOf) => {
  it('sends the headers and the JSON body, and returns the answer whole', async () => {
    const server = await serve((request, response) => {
      response.writeHead(200, {
        'content-type': 'application/json',
        'x-seen': String(request.headers.accept),
      });
      response.end('{"uuid":"u-1"}');
    });
    const answer = await send(createOrder(server.url), httpOptions(transportOf()));
    expect([answer.status, answer.text, answer.headers.get('x-seen')]).toEqual([
      200,
      '{"uuid":"u-1"}',
      'application/json',
    ]);
    expect(server.received).toEqual([`POST ${PATHS.checkout('v2')} ${BODY} ${BEARER}`]);
  });

  it('reads an answer in pieces as UTF-8, a character split between two of them included', async () => {
    const euro = Buffer.from('{"description":"Tee für 5 €"}');
    const split = euro.indexOf(0xe2) + 1;
    const server = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      // Sent apart, so the client reads them apart; then bytes that are no UTF-8 at all.
      response.write(euro.subarray(0, split));
      setTimeout(() => response.end(Buffer.concat([euro.subarray(split), Buffer.from([0xff])])), 20);
    });
    const answer = await send(createOrder(server.url), httpOptions(transportOf()));
    expect(answer.text).toBe('{"description":"Tee für 5 €"}\ufffd');
  });

  it('a refusal that outlasts the retries is the last answer, body and all, sent 1 + retries times', async () => {
    const server = await serve((_request, response) => {
      response.writeHead(503, { 'content-type': 'application/json', 'retry-after': '0' });
      response.end('{"message":"try later"}');
    });
    const answer = await send(createOrder(server.url), httpOptions(transportOf()));
    expect([answer.status, answer.text]).toEqual([503, '{"message":"try later"}']);
    expect(server.received).toHaveLength(3);
  });

  it('a refusal then an answer: the answer, the order sent twice with the same body', async () => {
    const server = await serve((_request, response, count) => {
      response.writeHead(count === 1 ? 429 : 200, { 'content-type': 'application/json', 'retry-after': '0' });
      response.end(count === 1 ? '{}' : '{"uuid":"u-2"}');
    });
    const answer = await send(createOrder(server.url), httpOptions(transportOf()));
    expect([answer.status, answer.text]).toEqual([200, '{"uuid":"u-2"}']);
    expect(new Set(server.received).size).toBe(1);
    expect(server.received).toHaveLength(2);
  });

  it('connection refused: network, nothing was sent', async () => {
    const url = `http://127.0.0.1:${await unusedPort()}`;
    const error = await rejection(() => send(createOrder(url), httpOptions(transportOf())));
    expect([error.kind, error.message]).toEqual([
      'network',
      `cannot reach ${url} (ECONNREFUSED); nothing was sent`,
    ]);
  });

  it('a connection cut after the request was read: outcome unknown for an order creation', async () => {
    const server = await serve((request) => request.socket.destroy());
    const error = await rejection(() => send(createOrder(server.url), httpOptions(transportOf())));
    expect(error.kind).toBe('outcome_unknown');
    expect(server.received).toHaveLength(1);
  });

  it.each([301, 302, 303])(
    'a POST redirected with %i is followed as a GET without its body',
    async (status) => {
      const server = await redirecting(status, () => '/moved');
      const answer = await send(createOrder(server.url), httpOptions(transportOf()));
      expect([answer.status, answer.text]).toEqual([200, '{"uuid":"u-3"}']);
      expect(server.received).toEqual([
        `POST ${PATHS.checkout('v2')} ${BODY} ${BEARER}`,
        `GET /moved  ${BEARER}`,
      ]);
    },
  );

  it.each([307, 308])('a POST redirected with %i is sent again as it was', async (status) => {
    const server = await redirecting(status, () => '/moved');
    await send(createOrder(server.url), httpOptions(transportOf()));
    expect(server.received).toEqual([
      `POST ${PATHS.checkout('v2')} ${BODY} ${BEARER}`,
      `POST /moved ${BODY} ${BEARER}`,
    ]);
  });

  it('endless redirects stop after 20: outcome unknown for an order creation', async () => {
    const server = await redirecting(307, (url) => url + PATHS.checkout('v2'));
    const error = await rejection(() => send(createOrder(server.url), httpOptions(transportOf())));
    expect(error.kind).toBe('outcome_unknown');
    expect(server.received).toHaveLength(21);
  });

  // The order was sent with the first request: whatever stops the redirect after it, its outcome is unknown.
  it.each([
    ['an address that is not HTTP', () => 'ftp://127.0.0.1/orders'],
    ['an address that does not parse', () => 'http://[::1'],
  ])('a redirect to %s after the order was sent: outcome unknown', async (_name, to) => {
    const server = await redirecting(307, to);
    const error = await rejection(() => send(createOrder(server.url), httpOptions(transportOf())));
    expect([error.kind, error.message]).toEqual([
      'outcome_unknown',
      `outcome unknown: the request reached ${server.url} but no answer came back (a redirect to an address that is not HTTP)`,
    ]);
    expect(server.received).toHaveLength(1);
  });

  it('a redirect whose next request is cut after the order was sent: outcome unknown', async () => {
    const server = await serve((request, response) => {
      if (request.url === '/moved') return request.socket.destroy();
      response.writeHead(307, { location: '/moved' });
      response.end();
    });
    const error = await rejection(() => send(createOrder(server.url), httpOptions(transportOf())));
    expect(error.kind).toBe('outcome_unknown');
    expect(error.message).toMatch(
      new RegExp(`^outcome unknown: the request reached ${server.url} but no answer came back`),
    );
    expect(server.received).toHaveLength(2);
  });

  // Node's server closes an idle connection after its Keep-Alive timeout: a request written on it as
  // it closes is lost after it left (outcome unknown). payorder's agents let it go a second before
  // the hint, Node's fetch two seconds before it.
  it("an idle connection is not used past the service's Keep-Alive hint", async () => {
    let connections = 0;
    const url = await serveHttp(
      (_request, response) => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end('{"uuid":"u-6"}');
      },
      (server) => {
        server.keepAliveTimeout = 3_000;
        server.on('connection', () => connections++);
      },
    );
    const transport = transportOf();
    await send(createOrder(url), httpOptions(transport));
    // undici takes a connection back into its pool a turn of the event loop after its answer ends.
    await new Promise((resolve) => setImmediate(resolve));
    await send(createOrder(url), httpOptions(transport));
    expect(connections).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 2_300));
    await send(createOrder(url), httpOptions(transport));
    expect(connections).toBe(2);
  });

  it('Ctrl-C while the answer is awaited: the request is given up at once', async () => {
    const server = await serve(() => {});
    const controller = new AbortController();
    const started = performance.now();
    setTimeout(() => controller.abort(), 100);
    const error = await rejection(() =>
      send(createOrder(server.url), httpOptions(transportOf(), { signal: controller.signal })),
    );
    expect(error.kind).toBe('interrupted');
    expect(performance.now() - started).toBeLessThan(4_000);
  });

  it('more requests than connections: the next waits for a free connection and is sent on it', async () => {
    const server = await serve((_request, response, count) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(`{"uuid":"u-${count}"}`);
    });
    const transport = transportOf();
    const answers = await Promise.all(
      [1, 2, 3].map(() => send(createOrder(server.url), httpOptions(transport, { timeoutMs: 2_000 }))),
    );
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    expect(server.received).toHaveLength(3);
  });

  it('no answer in time: outcome unknown, the timeout named', async () => {
    const server = await serve(() => {});
    const error = await rejection(() =>
      send(createOrder(server.url), httpOptions(transportOf(), { timeoutMs: 300 })),
    );
    expect(error.kind).toBe('outcome_unknown');
    expect(error.message).toContain('(no answer within 0.3 s)');
  });
});

// fetch refuses the Fetch standard's "bad ports" (6000, 6665–6669, 10080…) before connecting: an
// address on one of them (a sandbox started with --port 6000, say) is reached through an agent. Nothing
// listens there in this test, so what comes back is the agent's refused connection.
it("a one-shot command's address on a port fetch refuses goes through an agent", async () => {
  for (const port of [6000, 10080]) {
    const url = `http://127.0.0.1:${port}`;
    const error = await rejection(() => send(createOrder(url), httpOptions(oneShotTransport())));
    expect([error.kind, error.message]).toEqual([
      'network',
      `cannot reach ${url} (ECONNREFUSED); nothing was sent`,
    ]);
  }
});

// ky cancels its Request's body once an exchange is done; an agent sends the body it is given as it
// is, so that body is still unread then, and the cancel is not a refusal built for every request.
it("an agent sends the body it is given, leaving ky's Request unread", async () => {
  const server = await serve((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end('{"uuid":"u-1"}');
  });
  const request = new Request(server.url + PATHS.checkout('v2'), {
    method: 'POST',
    body: '{"amount":"100"}',
  });
  const answer = await agentTransport().fetchFor({ sent: false }, '{"amount":"100"}')(request);
  expect(answer.status).toBe(200);
  expect(server.received).toEqual([`POST ${PATHS.checkout('v2')} {"amount":"100"}`]);
  expect(request.bodyUsed).toBe(false);
  await expect(request.body?.cancel()).resolves.toBeUndefined();
});
