/**
 * What the sandbox holds is bounded in bytes, whatever clients send: the journal and the orders
 * (request bodies: http.test.ts). A body it keeps cannot break the journal, and a request it refuses gets an answer
 * its client can read.
 */
import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { PATHS } from '../../src/contract/versions.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/server.js';
import { call, createOrder, journal, orderBody, tokenFor, useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();

const KIB = 1024;
const MIB = 1024 * KIB;

/** A token request body of exactly `size` bytes: valid JSON, padded with a field of its own. */
const padded = (size: number) => JSON.stringify({ pad: 'x'.repeat(size - '{"pad":""}'.length) });

describe('the journal', () => {
  it('keeps the newest requests within 16 MiB of bodies, however many it may keep', async () => {
    const size = 60_000;
    const sent = 300;
    for (let i = 0; i < sent; i++) await call(sb.url, 'POST', PATHS.token('v2'), padded(size));
    const entries = await journal(sb.url, 'token');
    const bodies = entries.reduce((sum, entry) => sum + JSON.stringify(entry.body).length, 0);
    expect(bodies).toBeLessThanOrEqual(16 * MIB);
    expect(entries.length).toBeGreaterThan(200);
    expect(entries.length).toBeLessThan(sent);
    // The newest stayed: the last request is the last entry.
    expect(entries.at(-1).seq - entries[0].seq).toBe(entries.length - 1);
    const again = await call(sb.url, 'POST', PATHS.token('v2'), '{}');
    expect((await journal(sb.url, 'token')).at(-1).seq).toBe(entries.at(-1).seq + 1);
    expect(again.status).toBe(400);
  });

  it('shows a body nested too deep to show in its place, and keeps answering', async () => {
    const depth = 3_200;
    const deep = `${'['.repeat(depth)}${']'.repeat(depth)}`;
    expect((await call(sb.url, 'POST', PATHS.token('v2'), deep)).status).toBe(400);
    await call(sb.url, 'POST', PATHS.token('v2'), '{"username":"a"}');
    const reply = await call(sb.url, 'GET', '/_sandbox/journal');
    expect(reply.status).toBe(200);
    expect(reply.body.entries.map((entry: { body: unknown }) => entry.body)).toEqual([
      '(JSON nested deeper than 64 levels)',
      { username: 'a' },
    ]);
  });
});

describe('orders', () => {
  let started: Sandbox | undefined;
  afterEach(async () => {
    await started?.close();
    started = undefined;
  });

  it('hold at most their limit of text; the next order is refused with 507 until a reset', async () => {
    started = await startSandbox({ port: 0, orderTextLimit: 10_000 });
    const token = await tokenFor(started.url);
    const big = orderBody('v2', { description: 'd'.repeat(3_000) });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++)
      statuses.push((await call(started.url, 'POST', PATHS.checkout('v2'), big, token)).status);
    expect(statuses).toEqual([200, 200, 200, 507]);
    const refused = await call(started.url, 'POST', PATHS.checkout('v2'), big, token);
    expect(refused.body).toEqual({
      message:
        'The sandbox holds as many orders as it may (their text is limited); POST /_sandbox/reset to start again',
    });
    expect((await call(started.url, 'GET', '/_sandbox/orders')).body.orders).toHaveLength(3);
    await call(started.url, 'POST', '/_sandbox/reset');
    expect((await createOrder(started.url, token)).status).toBe('PENDING');
  });
});

describe('oversized headers', () => {
  it('a HEAD request gets a 431 without a body, which Node’s client reads', async () => {
    const { hostname, port } = new URL(sb.url);
    const status = await new Promise<number>((resolve, reject) => {
      request(
        {
          host: hostname,
          port,
          method: 'HEAD',
          path: '/_sandbox',
          headers: { 'x-big': 'x'.repeat(20 * KIB) },
        },
        (response) => {
          response.resume();
          response.on('end', () => resolve(response.statusCode!));
        },
      )
        .on('error', reject)
        .end();
    });
    expect(status).toBe(431);
  });
});
