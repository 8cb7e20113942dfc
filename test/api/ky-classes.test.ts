/**
 * The Headers, Request and Response classes ky works with for payorder (ky-classes.ts): what a
 * transport is handed and what ky makes of an answer; the signal a request is given is its own and
 * its clone's, so aborting still reaches the transport (ky's timeout, the caller's Ctrl-C); the real
 * globalThis keeps Node's classes; and a command never loads undici.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { send } from '../../src/api/http.js';
import { KyHeaders, KyRequest, KyResponse } from '../../src/api/ky-classes.js';
import type { Transport } from '../../src/api/transport.js';
import { orderFlags, tempDir } from '../helpers/cli.js';
import { useE2E } from '../helpers/e2e.js';
import { httpOptions } from '../helpers/http-options.js';
import { rejection } from '../helpers/refusal.js';

/** A transport that hands over each request it gets and answers with `answer`. */
function spying(answer: (request: KyRequest) => Promise<KyResponse>) {
  const seen: KyRequest[] = [];
  const transport: Transport = {
    fetch(request) {
      seen.push(request);
      return answer(request);
    },
  };
  return { seen, transport };
}

const json = (status: number, text: string, headers: Record<string, string> = {}) =>
  new KyResponse(text, { status, headers: { 'content-type': 'application/json', ...headers } });
const ok = async () => json(200, '{}');

/** Answers only when the request's signal aborts: with the abort's reason, as a transport does. */
const untilAborted = (request: KyRequest) =>
  new Promise<KyResponse>((_resolve, reject) => {
    const { signal } = request;
    if (signal.aborted) reject(signal.reason);
    else signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });

const lookup = {
  method: 'GET',
  url: 'http://127.0.0.1:9/v2/api/checkout/abc',
  retryRefusals: true,
  createsSomething: false,
  issuesToken: false,
} as const;

describe('the request ky hands to a transport', () => {
  it('has the wire method and address; its clone shares its signal instead of following it', async () => {
    const { seen, transport } = spying(ok);
    await send(lookup, httpOptions(transport));
    const [request] = seen;
    expect(request).toBeInstanceOf(KyRequest);
    expect([request!.method, request!.url, request!.body]).toEqual(['GET', lookup.url, null]);
    const clone = request!.clone();
    expect([clone.method, clone.url]).toEqual([request!.method, request!.url]);
    expect(clone.signal).toBe(request!.signal);
  });

  it("ky's timeout aborts the signal the transport sees", async () => {
    const { seen, transport } = spying(untilAborted);
    const error = await rejection(() => send(lookup, httpOptions(transport, { timeoutMs: 50 })));
    expect(error.message).toContain('no answer within 0.05 s');
    expect(seen[0]!.signal.aborted).toBe(true);
  });

  it("the caller's signal (Ctrl-C) aborts the signal the transport sees", async () => {
    const interrupt = new AbortController();
    const started = performance.now();
    const { seen, transport } = spying((request) => {
      interrupt.abort();
      return untilAborted(request);
    });
    const error = await rejection(() => send(lookup, httpOptions(transport, { signal: interrupt.signal })));
    expect(error.kind).toBe('interrupted');
    expect(seen[0]!.signal.aborted).toBe(true);
    // At once, not when ky's timeout of 5 s would have ended it.
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});

describe('what ky makes of an answer', () => {
  it('an answer: its status, headers and text as the transport read them', async () => {
    const { transport } = spying(async () => json(201, '{"uuid":"u-1"}', { 'X-Request-Id': ' r-1 ' }));
    const answer = await send(lookup, httpOptions(transport));
    expect([answer.status, answer.text, answer.headers.get('x-request-id')]).toEqual([
      201,
      '{"uuid":"u-1"}',
      'r-1',
    ]);
  });

  it('a refusal retried after its Retry-After, then the last refusal whole', async () => {
    const { seen, transport } = spying(async () =>
      json(429, '{"error":"slow down"}', { 'retry-after': '0' }),
    );
    const answer = await send(lookup, httpOptions(transport));
    expect([answer.status, answer.text]).toEqual([429, '{"error":"slow down"}']);
    expect(seen).toHaveLength(3);
  });
});

describe("Node's classes", () => {
  it("stay on the real globalThis: only ky sees payorder's", async () => {
    const { seen, transport } = spying(ok);
    await send(lookup, httpOptions(transport));
    expect(seen[0]).toBeInstanceOf(KyRequest);
    expect([globalThis.Headers, globalThis.Request, globalThis.Response]).not.toContain(KyRequest);
    expect(new Request('http://example.com/')).not.toBeInstanceOf(KyRequest);
    expect(typeof FormData).toBe('function');
  });
});

describe('KyHeaders', () => {
  it('compares names in lower case, trims values, joins repeated names, iterates by name', () => {
    const headers = new KyHeaders([
      ['X-B', ' 2 '],
      ['x-a', '1'],
      ['X-A', '3'],
    ]);
    expect(headers.get('x-a')).toBe('1, 3');
    expect(headers.has('X-b')).toBe(true);
    expect([...headers]).toEqual([
      ['x-a', '1, 3'],
      ['x-b', '2'],
    ]);
    headers.set('X-A', 'one');
    headers.delete('x-b');
    expect([...new KyHeaders(headers).entries()]).toEqual([['x-a', 'one']]);
    expect(new KyHeaders({ Accept: 'application/json' }).get('accept')).toBe('application/json');
    expect(new KyHeaders().get('accept')).toBeNull();
    expect(Object.prototype.toString.call(headers)).toBe('[object Headers]');
  });

  it('trims only HTTP’s whitespace (tab, line feed, carriage return, space), at either end', () => {
    const trimmed = (value: string) => new KyHeaders({ 'x-v': value }).get('x-v');
    expect(trimmed('a b')).toBe('a b');
    expect(trimmed('a\t')).toBe('a');
    expect(trimmed('\r\na')).toBe('a');
    expect(trimmed(' \t ')).toBe('');
    expect(trimmed('')).toBe('');
    expect(trimmed('\u00a0a\u00a0')).toBe('\u00a0a\u00a0');
  });
});

describe('KyRequest', () => {
  it('normalises its address and the standard methods, as a Request does', () => {
    const request = new KyRequest('HTTP://Example.COM:80/a/../b', { method: 'post' });
    expect([request.url, request.method]).toEqual(['http://example.com/b', 'POST']);
    expect(Object.prototype.toString.call(request)).toBe('[object Request]');
  });

  it('refuses an address with credentials (never shown) and a body', () => {
    expect(() => new KyRequest('http://user:hunter2@example.com/')).toThrow(
      'an address with a user name or password',
    );
    expect(() => new KyRequest('http://example.com/', { method: 'POST', body: '{}' })).toThrow(
      'unsupported BodyInit type',
    );
  });
});

describe('a command', () => {
  const e2e = useE2E();

  // undici is what Node's Headers, Request, Response and fetch are made of: loading it took a third of
  // a one-shot command's time.
  it('looks an order up without loading undici', async () => {
    await e2e.login();
    const created = await e2e.run([
      'order',
      'create',
      '--env',
      'sandbox',
      ...orderFlags({ amount: '1.50' }),
      '--json',
    ]);
    expect(created.exitCode, created.stderr).toBe(0);
    const { uuid } = JSON.parse(created.stdout) as { uuid: string };
    // Loaded before the CLI (NODE_OPTIONS=--require; --import would start the ES module loader, which
    // loads undici itself), it says at exit whether undici was loaded.
    const report = join(tempDir(), 'report-undici.cjs');
    writeFileSync(
      report,
      `process.on('exit', () => process.stderr.write(process.moduleLoadList.some((m) => m.includes('undici')) ? 'undici loaded' : 'no undici'));`,
    );
    const result = await e2e.run(['order', 'get', uuid, '--env', 'sandbox', '--json'], {
      spawn: true,
      env: { NODE_OPTIONS: `--require=${report}` },
    });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ uuid });
    expect(result.stderr).toBe('no undici');
  });
});
