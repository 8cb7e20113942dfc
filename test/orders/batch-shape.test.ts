/**
 * The shape of a batch at run time, against the in-process sandbox: however long the input, at most
 * --concurrency order requests reach the service at once (counted where the server receives them,
 * over keep-alive connections no more numerous than that), and a reader that pauses holds the batch
 * back: the orders created but not yet read stay under a bound set by --concurrency and stdout's
 * buffer, never growing with the input. Not a benchmark: nothing here depends on the machine's speed.
 */
import diagnostics from 'node:diagnostics_channel';
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PATHS } from '../../src/contract/versions.js';
import { TEST_ACCOUNT } from '../../src/sandbox/accounts.js';
import { batchCommand, writeOrderLines } from '../helpers/batch.js';
import { cliEnv, tempDir } from '../helpers/cli.js';
import { pausedReader, runWithReader } from '../helpers/paused-reader.js';
import { useSandbox } from '../helpers/sandbox.js';

// A few milliseconds per answer, as over a network: without them an in-process server answers each
// request before the next one arrives, and requests would never overlap.
const sb = useSandbox({ latencyMs: 2 });

const LINES = 20_000;
const CONCURRENCY = 8;
/** stdout's buffer in the test: about 28 result lines. */
const STDOUT_BUFFER = 16 * 1024;
/**
 * The most orders a batch may have created beyond what its reader took: those in flight and those
 * finished but waiting for their turn (the pool holds 4 × its lines in progress: those in flight
 * and as many recorded ahead of them), the lines in stdout's buffer, and one being written.
 */
const AHEAD_BOUND = CONCURRENCY * 2 * 4 + Math.ceil(STDOUT_BUFFER / 400) + 2;

/** What reached the server: order requests in flight (most at once), in all, and over which connections. */
function serverSide() {
  const seen = { inFlight: 0, maxInFlight: 0, started: 0, sockets: new Set<Socket>() };
  const checkout = PATHS.checkout('v2');
  const isCheckout = (request: IncomingMessage) => request.method === 'POST' && request.url === checkout;
  const onStart = ({ request, socket }: { request: IncomingMessage; socket: Socket }) => {
    if (!isCheckout(request)) return;
    seen.started++;
    seen.inFlight++;
    seen.maxInFlight = Math.max(seen.maxInFlight, seen.inFlight);
    seen.sockets.add(socket);
    listeners.onRequest?.();
  };
  const onFinish = ({ request }: { request: IncomingMessage }) => {
    if (isCheckout(request)) seen.inFlight--;
  };
  const listeners: { onRequest?: () => void } = {};
  diagnostics.subscribe('http.server.request.start', onStart as (message: unknown) => void);
  diagnostics.subscribe('http.server.response.finish', onFinish as (message: unknown) => void);
  const stop = () => {
    diagnostics.unsubscribe('http.server.request.start', onStart as (message: unknown) => void);
    diagnostics.unsubscribe('http.server.response.finish', onFinish as (message: unknown) => void);
  };
  return { seen, listeners, stop };
}

describe(`a batch of ${LINES.toLocaleString('en')} lines, --concurrency ${CONCURRENCY}`, () => {
  let server: ReturnType<typeof serverSide>;
  beforeEach(() => {
    server = serverSide();
  });
  afterEach(() => server.stop());

  it('keeps at most --concurrency requests in flight, and a paused reader holds it back', async () => {
    const dir = tempDir();
    const file = writeOrderLines(dir, LINES);
    const reader = pausedReader({ highWaterMark: STDOUT_BUFFER });
    // How far the batch got ahead of its reader, whenever an order request reached the server.
    let ahead = 0;
    server.listeners.onRequest = () => {
      ahead = Math.max(ahead, server.seen.started - reader.lines());
    };
    // The reader stops three times until the server has heard nothing for 300 ms: the batch must
    // come to a halt behind it (a batch that buffered its results would go on to the end).
    const halts: number[] = [];
    const pauses = (async () => {
      for (const at of [1_000, 8_000, 15_000]) {
        while (reader.lines() < at) await sleep(5);
        reader.pause();
        let last = -1;
        for (let waited = 0; server.seen.started !== last && waited < 20_000; waited += 300) {
          last = server.seen.started;
          await sleep(300);
        }
        halts.push(server.seen.started - reader.lines());
        reader.resume();
      }
    })();
    const env = cliEnv(
      { configDir: dir, url: sb.url },
      {
        PAYORDER_USERNAME: TEST_ACCOUNT.username,
        PAYORDER_CLIENT_ID: TEST_ACCOUNT.clientId,
        PAYORDER_CLIENT_SECRET_ID: TEST_ACCOUNT.clientSecretId,
      },
    );
    const result = await runWithReader(
      batchCommand(file, '--concurrency', String(CONCURRENCY), '-o', 'ndjson'),
      reader,
      env,
    );
    await pauses;
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).toContain(`${LINES} lines in`);
    expect(result.stderr).toContain(`${LINES} created, 0 already created, 0 failed`);

    // Every line once, in input order, each its own order.
    const lines = reader.taken().map((line) => JSON.parse(line).line as number);
    expect(lines).toEqual(Array.from({ length: LINES }, (_, i) => i + 1));
    expect(server.seen.started).toBe(LINES);

    // Concurrency: never more than asked, and used (requests did overlap); the connections kept
    // alive for the whole batch, never more than one per request in flight.
    expect(server.seen.maxInFlight).toBeLessThanOrEqual(CONCURRENCY);
    expect(server.seen.maxInFlight).toBeGreaterThan(1);
    expect(server.seen.sockets.size).toBeLessThanOrEqual(CONCURRENCY);

    // Back-pressure: each pause halted the batch within the bound, and it never ran further ahead.
    expect(halts).toHaveLength(3);
    for (const halt of halts)
      expect(halt, `halted ${halts.join(', ')} orders ahead`).toBeLessThanOrEqual(AHEAD_BOUND);
    expect(ahead, 'orders created beyond what the reader took').toBeLessThanOrEqual(AHEAD_BOUND);
  }, 180_000);
});
