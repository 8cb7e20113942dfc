/**
 * The Request ky builds for payorder (ky-request.ts): the signal it is given is its own and its
 * clone's, so aborting still reaches the transport (ky's timeout, the caller's Ctrl-C), and the
 * built-in Request is back in place after every call, even one that fails as it starts.
 */
import { describe, expect, it } from 'vitest';
import { send } from '../../src/api/http.js';
import { answered, type Transport } from '../../src/api/transport.js';
import { httpOptions } from '../helpers/http-options.js';
import { rejection } from '../helpers/refusal.js';

const BUILT_IN = globalThis.Request;

/** A transport that hands over each request it gets and answers with `answer`. */
function spying(answer: (request: Request) => Promise<Response>) {
  const seen: Request[] = [];
  const transport: Transport = {
    fetch(request) {
      seen.push(request);
      return answer(request);
    },
  };
  return { seen, transport };
}

const ok = async () => answered(200, 'OK', new Headers({ 'content-type': 'application/json' }), '{}');

/** Answers only when the request's signal aborts: with the abort's reason, as a transport does. */
const untilAborted = (request: Request) =>
  new Promise<Response>((_resolve, reject) => {
    const { signal } = request;
    if (signal.aborted) reject(signal.reason);
    else signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });

const lookup = { method: 'GET', url: 'http://127.0.0.1:9/v2/api/checkout/abc', retryRefusals: true } as const;

describe('the Request ky hands to a transport', () => {
  it('is a Request with the wire method and address; its clone shares its signal instead of following it', async () => {
    const { seen, transport } = spying(ok);
    await send({ ...lookup, createsSomething: false }, httpOptions(transport));
    const [request] = seen;
    expect(request).toBeInstanceOf(BUILT_IN);
    expect([request!.method, request!.url]).toEqual(['GET', lookup.url]);
    const clone = request!.clone();
    expect(clone).toBeInstanceOf(BUILT_IN);
    expect([clone.method, clone.url, clone.signal]).toEqual([request!.method, request!.url, request!.signal]);
    expect(clone.signal).toBe(request!.signal);
  });

  it("ky's timeout aborts the signal the transport sees", async () => {
    const { seen, transport } = spying(untilAborted);
    const error = await rejection(() =>
      send({ ...lookup, createsSomething: false }, httpOptions(transport, { timeoutMs: 50 })),
    );
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
    const error = await rejection(() =>
      send({ ...lookup, createsSomething: false }, httpOptions(transport, { signal: interrupt.signal })),
    );
    expect(error.kind).toBe('interrupted');
    expect(seen[0]!.signal.aborted).toBe(true);
    // At once, not when ky's timeout of 5 s would have ended it.
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('leaves the built-in Request in place, after an answer and after a request that fails as it starts', async () => {
    const { transport } = spying(ok);
    await send({ ...lookup, createsSomething: false }, httpOptions(transport));
    expect(globalThis.Request).toBe(BUILT_IN);
    await expect(
      send({ ...lookup, url: 'http://exa mple/', createsSomething: false }, httpOptions(transport)),
    ).rejects.toThrow();
    expect(globalThis.Request).toBe(BUILT_IN);
  });
});
