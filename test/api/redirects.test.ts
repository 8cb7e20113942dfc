/**
 * Which redirects payorder follows (http.ts), against servers of the test's own: a token request
 * none, the others only within their origin; every hop traced. And how much of an answer is read:
 * an endless answer to an order creation leaves its outcome unknown instead of exhausting memory.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { type Exchange, send } from '../../src/api/http.js';
import { MAX_ANSWER_BYTES } from '../../src/api/transport.js';
import { PATHS } from '../../src/contract/versions.js';
import { httpOptions, oneShotTransport } from '../helpers/http-options.js';
import { rejection } from '../helpers/refusal.js';
import { serveHttp, OPAQUE_TOKEN as TOKEN } from '../helpers/servers.js';

/** A server that keeps "METHOD path body [authorization]" of each request and answers with `answer`. */
async function serve(answer: (request: IncomingMessage, response: ServerResponse) => void) {
  const received: string[] = [];
  const url = await serveHttp(async (request, response) => {
    let body = '';
    for await (const chunk of request) body += chunk;
    const { authorization } = request.headers;
    received.push(`${request.method} ${request.url} ${body}${authorization ? ` [${authorization}]` : ''}`);
    answer(request, response);
  });
  return { url, received };
}

const ORDER = { uuid: 'u-1' };
const answerOrder = (_request: IncomingMessage, response: ServerResponse) => {
  response.writeHead(200, { 'content-type': 'application/json' });
  response.end(JSON.stringify(ORDER));
};

/** A server that redirects every request to `location` with `status`. */
const redirecting = (status: number, location: string) =>
  serve((_request, response) => {
    response.writeHead(status, { location });
    response.end();
  });

const exchange = (url: string, kind: 'create' | 'lookup'): Exchange => ({
  method: kind === 'create' ? 'POST' : 'GET',
  url: url + (kind === 'create' ? PATHS.checkout('v2') : PATHS.lookup('v2', 'u-1')),
  headers: { authorization: `Bearer ${TOKEN}` },
  ...(kind === 'create' ? { body: { amount: '100', description: 'Tea' } } : {}),
  retryRefusals: true,
  createsSomething: kind === 'create',
  issuesToken: false,
});

describe('redirects of orders and lookups', () => {
  it('a refused redirect names where it pointed without its user name, password or query', async () => {
    const first = await redirecting(307, `http://user:hunter2@127.0.0.2:9/capture?token=${TOKEN}`);
    const lines: string[] = [];
    const error = await rejection(() =>
      send(
        exchange(first.url, 'lookup'),
        httpOptions(oneShotTransport(), { trace: (line) => lines.push(line) }),
      ),
    );
    expect(error.message).toContain('a redirect to http://127.0.0.2:9/capture?…, and payorder follows');
    expect(`${error.message}\n${lines.join('\n')}`).not.toMatch(new RegExp(`hunter2@|${TOKEN}`));
  });

  it.each([
    ['create', 'outcome_unknown', 'outcome unknown: '],
    ['lookup', 'network', ''],
  ] as const)(
    'a %s redirected to another origin is not followed: %s, nothing reaches it',
    async (kind, errorKind, prefix) => {
      const other = await serve(answerOrder);
      const first = await redirecting(307, `${other.url}/elsewhere`);
      const error = await rejection(() => send(exchange(first.url, kind), httpOptions(oneShotTransport())));
      expect([error.kind, error.message]).toEqual([
        errorKind,
        `${prefix}${first.url} answered 307 with a redirect to ${other.url}/elsewhere, and payorder follows a redirect only within the same origin (scheme, host and port)`,
      ]);
      expect(first.received).toHaveLength(1);
      expect(other.received).toEqual([]);
    },
  );

  it('a redirect within the origin is followed, the token kept, and --debug shows every hop', async () => {
    const target = await serve((request, response) => {
      if (request.url === '/moved') return answerOrder(request, response);
      response.writeHead(301, { location: '/moved' });
      response.end();
    });
    const lines: string[] = [];
    const answer = await send(
      exchange(target.url, 'lookup'),
      httpOptions(oneShotTransport(), { trace: (line) => lines.push(line) }),
    );
    expect([answer.status, JSON.parse(answer.text)]).toEqual([200, ORDER]);
    expect(target.received).toEqual([
      `GET ${PATHS.lookup('v2', 'u-1')}  [Bearer ${TOKEN}]`,
      `GET /moved  [Bearer ${TOKEN}]`,
    ]);
    expect(
      lines
        .filter((line) => /^[←→] (GET|\d{3}|location)/.test(line))
        .map((l) => l.replace(/ \(\d+ ms\)/, '')),
    ).toEqual([
      `→ GET ${target.url}${PATHS.lookup('v2', 'u-1')}`,
      '← 301 Moved Permanently',
      `← location: ${target.url}/moved`,
      `→ GET ${target.url}/moved`,
      '← 200 OK',
    ]);
  });
});

describe('how much of an answer is read', () => {
  // Sent in pieces with no length announced, so that only counting what came can stop it.
  const endless = (withLength: boolean) =>
    serve((_request, response) => {
      response.writeHead(200, {
        'content-type': 'application/json',
        ...(withLength ? { 'content-length': String(MAX_ANSWER_BYTES * 4) } : {}),
      });
      const piece = Buffer.alloc(64 * 1024, 'a');
      const write = () => {
        while (!response.destroyed && response.write(piece));
        if (!response.destroyed) response.once('drain', write);
      };
      response.on('close', () => response.removeAllListeners('drain'));
      write();
    });

  it.each([
    ['announced by its Content-Length', true],
    ['sent with no length', false],
  ])(
    'an answer to an order creation larger than the cap, %s: outcome unknown, sent once',
    async (_name, withLength) => {
      const target = await endless(withLength);
      const error = await rejection(() =>
        send(exchange(target.url, 'create'), httpOptions(oneShotTransport())),
      );
      expect([error.kind, error.exitCode]).toEqual(['outcome_unknown', 5]);
      expect(error.message).toBe(
        `outcome unknown: the request reached ${target.url} but no answer came back (an answer of more than ${MAX_ANSWER_BYTES / 1024 / 1024} MiB, not read to its end)`,
      );
      expect(target.received).toHaveLength(1);
    },
  );

  it('an answer just under the cap is read whole', async () => {
    const text = JSON.stringify({ uuid: 'u-1', description: 'x'.repeat(MAX_ANSWER_BYTES - 100) });
    const target = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(text);
    });
    const answer = await send(exchange(target.url, 'lookup'), httpOptions(oneShotTransport()));
    expect(answer.text).toBe(text);
  });
});
