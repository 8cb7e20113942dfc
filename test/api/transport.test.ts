/**
 * Both transports ky sends through (the built-in fetch of one-shot commands, the keep-alive agent of
 * batches) against servers of the test's own: the same answers, the same refusals retried, the same
 * failures classified the same way, whichever one a command uses.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { type Exchange, send } from '../../src/api/http.js';
import { keepAliveTransport } from '../../src/api/keep-alive.js';
import { fetchTransport, type Transport } from '../../src/api/transport.js';
import { PATHS } from '../../src/contract/versions.js';
import { httpOptions } from '../helpers/http-options.js';
import { rejection } from '../helpers/refusal.js';
import { serveHttp, unusedPort } from '../helpers/servers.js';

const TRANSPORTS: Array<[string, () => Transport]> = [
  ['the built-in fetch', () => fetchTransport],
  ['the keep-alive agent', () => keepAliveTransport(2)],
];

const createOrder = (url: string): Exchange => ({
  method: 'POST',
  url: url + PATHS.checkout('v2'),
  headers: { authorization: 'Bearer opaque-token-1234567890' },
  body: { amount: '100', description: 'Tea' },
  retryRefusals: true,
  createsSomething: true,
});

/** A server that keeps what it received (method, path, body) and answers with `answer`. */
async function serve(answer: (request: IncomingMessage, response: ServerResponse, count: number) => void) {
  const received: string[] = [];
  const url = await serveHttp((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => {
      body += chunk;
    });
    request.on('end', () => {
      received.push(`${request.method} ${request.url} ${body}`);
      answer(request, response, received.length);
    });
  });
  return { url, received };
}

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
    expect(server.received).toEqual([`POST ${PATHS.checkout('v2')} {"amount":"100","description":"Tea"}`]);
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

  it('no answer in time: outcome unknown, the timeout named', async () => {
    const server = await serve(() => {});
    const error = await rejection(() =>
      send(createOrder(server.url), httpOptions(transportOf(), { timeoutMs: 300 })),
    );
    expect(error.kind).toBe('outcome_unknown');
    expect(error.message).toContain('(no answer within 0.3 s)');
  });
});
