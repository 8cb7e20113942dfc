/**
 * The HTTP layer against servers of the test's own, for what the sandbox cannot do: echo the token
 * a request carried, cut a TLS handshake, reset a connection after reading the request. What a
 * trace or an error excerpt may show of an answer, and how each transport failure is classified:
 * certainly not sent ("network") or perhaps acted on ("outcome_unknown").
 */
import type { IncomingMessage, RequestListener } from 'node:http';
import { type AddressInfo, createServer as createTcpServer, type Socket } from 'node:net';
import { describe, expect, it, onTestFinished } from 'vitest';
import { type Exchange, type HttpOptions, send } from '../../src/api/http.js';
import { PATHS } from '../../src/contract/versions.js';
import { SECRET } from '../helpers/cli.js';
import { oneShotTransport } from '../helpers/http-options.js';
import { rejection } from '../helpers/refusal.js';
import { OPAQUE_TOKEN_ANSWER, serveHttp, OPAQUE_TOKEN as TOKEN, unusedPort } from '../helpers/servers.js';

/** An HTTP server of the test's own that keeps the requests it received. */
async function serve(handler: RequestListener): Promise<{ url: string; received: IncomingMessage[] }> {
  const received: IncomingMessage[] = [];
  const url = await serveHttp((request, response) => {
    received.push(request);
    handler(request, response);
  });
  return { url, received };
}

/** A plain TCP server (no HTTP, no TLS) on a free port, closed when the test ends. */
async function tcp(onConnection: (socket: Socket) => void): Promise<number> {
  const sockets = new Set<Socket>();
  const server = createTcpServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    onConnection(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(
    () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  );
  return (server.address() as AddressInfo).port;
}

const createOrder = (url: string): Exchange => ({
  method: 'POST',
  url: url + PATHS.checkout('v2'),
  headers: { authorization: `Bearer ${TOKEN}` },
  body: { amount: '100', description: 'Tea' },
  retryRefusals: true,
  createsSomething: true,
  issuesToken: false,
});

const lookup = (url: string): Exchange => ({
  method: 'GET',
  url: url + PATHS.lookup('v2', 'abc'),
  headers: { authorization: `Bearer ${TOKEN}` },
  retryRefusals: true,
  createsSomething: false,
  issuesToken: false,
});

/** Options with a trace that keeps its lines. */
function traced(extra: Partial<HttpOptions> = {}) {
  const lines: string[] = [];
  const options: HttpOptions = {
    timeoutMs: 5_000,
    secrets: [],
    refusalRetries: 0,
    trace: (line) => lines.push(line),
    transport: oneShotTransport(),
    ...extra,
  };
  return { options, lines };
}

describe('send: what a server echoes never shows', () => {
  it('a 502 text body that echoes the opaque bearer token: masked in the excerpt and the trace', async () => {
    const server = await serve((request, response) => {
      response.writeHead(502, { 'content-type': 'text/plain' });
      response.end(`bad gateway: upstream refused ${request.headers.authorization} (token ${TOKEN})`);
    });
    const { options, lines } = traced();
    const answer = await send(createOrder(server.url), options);
    expect(answer.status).toBe(502);
    // The token did reach the server, so the answer really carries it twice.
    expect(server.received[0]!.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(answer.text.split(TOKEN)).toHaveLength(3);
    expect(answer.excerpt).toBe('bad gateway: upstream refused Bearer *** (token ***)');
    const trace = lines.join('\n');
    expect(trace).not.toContain(TOKEN);
    expect(trace).toContain('→ authorization: Bearer ***');
    expect(trace).toContain('← bad gateway: upstream refused Bearer *** (token ***)');
  });

  it('a JSON error body with the token in any field, and the given secret: masked', async () => {
    const server = await serve((_request, response) => {
      response.writeHead(400, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({ message: `token ${TOKEN} refused`, echo: { token: TOKEN, secret: SECRET } }),
      );
    });
    const { options, lines } = traced({ secrets: [SECRET] });
    const answer = await send(lookup(server.url), options);
    expect(answer.status).toBe(400);
    for (const shown of [answer.excerpt, ...lines]) {
      expect(shown).not.toContain(TOKEN);
      expect(shown).not.toContain(SECRET);
    }
    expect(answer.excerpt).toContain('"message":"token *** refused"');
  });

  it('an access_token in a token answer is masked in the trace, though no one knew it beforehand', async () => {
    const server = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(OPAQUE_TOKEN_ANSWER));
    });
    const { options, lines } = traced({ secrets: [SECRET] });
    const answer = await send(
      {
        method: 'POST',
        url: server.url + PATHS.token('v2'),
        // The spec's field names, typed out: the trace masks the secret by its name on the wire.
        body: { username: 'u', client_id: 'c', client_secret_id: SECRET, grant_type: 'client_credentials' },
        retryRefusals: true,
        createsSomething: false,
        issuesToken: true,
      },
      options,
    );
    expect(JSON.parse(answer.text).access_token).toBe(TOKEN);
    const trace = lines.join('\n');
    expect(trace).not.toContain(TOKEN);
    expect(trace).not.toContain(SECRET);
    expect(trace).toContain('"client_secret_id":"***"');
    expect(trace).toContain('"access_token":"***"');
  });

  // The trace cuts a long body at 500 characters: the known secrets are masked before the cut, so a
  // token that straddles it never shows its first characters.
  it('a long text body cut in the trace: no part of the token shows where the cut falls', async () => {
    const body = `${'x'.repeat(490)} ${TOKEN} end`;
    const server = await serve((_request, response) => {
      response.writeHead(502, { 'content-type': 'text/plain' });
      response.end(body);
    });
    const { options, lines } = traced();
    await send(createOrder(server.url), options);
    // Cut first, it would show "opaque-to"; masked first, it is short enough to show whole.
    expect(lines.find((line) => line.startsWith('← x'))).toBe(`← ${'x'.repeat(490)} *** end`);
  });

  it('a long text body in the excerpt: masked first, then cut', async () => {
    const server = await serve((_request, response) => {
      response.writeHead(502, { 'content-type': 'text/plain' });
      response.end(`${'x'.repeat(75)} ${TOKEN} and more`);
    });
    const answer = await send(createOrder(server.url), traced().options);
    expect(answer.excerpt).toBe(`${'x'.repeat(75)} *** …`);
  });
});

describe('send: the answer', () => {
  it('a byte order mark before a JSON answer is not part of its text, as fetch reads it', async () => {
    const server = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('\uFEFF{"uuid":"u-1"}');
    });
    const answer = await send(createOrder(server.url), traced().options);
    expect(answer.text).toBe('{"uuid":"u-1"}');
  });
});

describe('send: transport failures', () => {
  it('connection refused on a closed port: network, "nothing was sent" for an order creation', async () => {
    const url = `http://127.0.0.1:${await unusedPort()}`;
    const creating = await rejection(() => send(createOrder(url), traced().options));
    expect([creating.kind, creating.exitCode]).toEqual(['network', 5]);
    expect(creating.message).toBe(`cannot reach ${url} (ECONNREFUSED); nothing was sent`);
    expect(creating.details.hint).toContain('nothing was changed');
    const looking = await rejection(() => send(lookup(url), traced().options));
    // A lookup was not sent either: the same words.
    expect([looking.kind, looking.message]).toEqual([
      'network',
      `cannot reach ${url} (ECONNREFUSED); nothing was sent`,
    ]);
  });

  it('https:// to a plain TCP server: a TLS failure is network, never outcome unknown', async () => {
    const port = await tcp((socket) => socket.end('220 plain text service ready\r\n'));
    const error = await rejection(() => send(createOrder(`https://127.0.0.1:${port}`), traced().options));
    expect(error.kind).toBe('network');
    expect(error.message).toMatch(
      new RegExp(
        `^cannot reach https://127\\.0\\.0\\.1:${port} \\((ERR_SSL|ERR_TLS)_[A-Z_]+\\); nothing was sent$`,
      ),
    );
  });

  // A peer that closes the connection during the TLS handshake fails with ECONNRESET ("…before secure
  // TLS connection was established"): the request is written only after the handshake, so it was not
  // sent, and a batch leaves that line to a rerun instead of marking it unknown.
  it('https:// to a server that drops the TLS handshake: network, nothing was sent', async () => {
    const port = await tcp((socket) => socket.destroy());
    const error = await rejection(() => send(createOrder(`https://127.0.0.1:${port}`), traced().options));
    expect(error.kind).toBe('network');
    expect(error.message).toContain('nothing was sent');
  });

  it('a reset after the request was read: outcome unknown for an order creation, network for a lookup', async () => {
    const requests: string[] = [];
    const port = await tcp((socket) =>
      socket.once('data', (chunk: Buffer) => {
        requests.push(chunk.toString('latin1').split('\r\n')[0]!);
        socket.resetAndDestroy();
      }),
    );
    const url = `http://127.0.0.1:${port}`;
    const creating = await rejection(() => send(createOrder(url), traced().options));
    expect([creating.kind, creating.exitCode]).toEqual(['outcome_unknown', 5]);
    expect(creating.message).toMatch(
      new RegExp(`^outcome unknown: the request reached ${url} but no answer came back \\(`),
    );
    expect(creating.details.hint).toContain('look it up');
    const looking = await rejection(() => send(lookup(url), traced().options));
    expect(looking.kind).toBe('network');
    expect(looking.message).not.toContain('nothing was sent');
    // Each request reached the server once: neither was retried.
    expect(requests).toEqual([
      `POST ${PATHS.checkout('v2')} HTTP/1.1`,
      `GET ${PATHS.lookup('v2', 'abc')} HTTP/1.1`,
    ]);
  });

  // The request waits for the handshake: a connection that never opens in time sent nothing.
  it('https:// to a server that never finishes the TLS handshake: no connection in time, nothing was sent', async () => {
    const port = await tcp(() => {});
    const url = `https://127.0.0.1:${port}`;
    const error = await rejection(() => send(createOrder(url), traced({ timeoutMs: 300 }).options));
    expect([error.kind, error.message]).toEqual([
      'network',
      `cannot reach ${url} (no connection within 0.3 s); nothing was sent`,
    ]);
  });

  it('a header that cannot go on the wire: network, nothing was sent', async () => {
    const server = await serve((_request, response) => response.end('{}'));
    const exchange = { ...createOrder(server.url), headers: { 'x-note': 'tea\r\nx-other: 1' } };
    const error = await rejection(() => send(exchange, traced().options));
    expect([error.kind, error.message]).toEqual([
      'network',
      `cannot reach ${server.url} (the x-note header holds a character HTTP does not allow); nothing was sent`,
    ]);
    expect(server.received).toHaveLength(0);
  });

  it('an answer with a status HTTP does not have: outcome unknown for an order creation', async () => {
    const port = await tcp((socket) =>
      socket.once('data', () => socket.end('HTTP/1.1 600 Odd\r\ncontent-length: 2\r\n\r\n{}')),
    );
    const url = `http://127.0.0.1:${port}`;
    const error = await rejection(() => send(createOrder(url), traced().options));
    expect([error.kind, error.message]).toEqual([
      'outcome_unknown',
      `outcome unknown: the request reached ${url} but no answer came back (an answer with status 600, which HTTP does not have)`,
    ]);
  });

  it('no answer in time: outcome unknown for an order creation, the timeout named', async () => {
    const server = await serve(() => {});
    const error = await rejection(() => send(createOrder(server.url), traced({ timeoutMs: 300 }).options));
    expect(error.kind).toBe('outcome_unknown');
    expect(error.message).toContain('(no answer within 0.3 s)');
    expect(server.received).toHaveLength(1);
  });
});
