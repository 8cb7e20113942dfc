/**
 * `npm run bench:sandbox`: loads POST /v2/api/checkout and GET /v2/api/orders/:uuid on the sandbox,
 * and POST again on a sandbox with --state (each order written to its file before the answer), and
 * in the same run on a bare node:http server doing the same parse and validation; prints requests/s,
 * p99 and the ratio, then start-up time and memory. A benchmark, not a test.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
/** Bare and sandbox take turns this many times; the ratio reported is the median of the rounds. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = 32;

interface Server {
  child: ChildProcess;
  url: string;
}

function start(args: string[], readyAt: () => number = () => 0): Promise<Server & { firstAnswerMs: number }> {
  const spawned = performance.now();
  const flags = process.env.BENCH_NODE_FLAGS ? process.env.BENCH_NODE_FLAGS.split(' ') : [];
  const child = spawn(process.execPath, [...flags, ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.stdout!.once('data', async (chunk: Buffer) => {
      const { port } = JSON.parse(chunk.toString().split('\n')[0]!);
      const url = `http://127.0.0.1:${port}`;
      for (;;) {
        try {
          await fetch(`${url}/v2/api/orders/x`);
          break;
        } catch {
          await new Promise((r) => setTimeout(r, 5));
        }
      }
      resolve({ child, url, firstAnswerMs: performance.now() - spawned - readyAt() });
    });
  });
}

const rssMb = (pid: number) =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

async function token(url: string): Promise<string> {
  const reply = await fetch(`${url}/v2/api/auth/token`, {
    method: 'POST',
    body: JSON.stringify({
      username: 'sandbox-merchant',
      client_id: 'sandbox-client',
      client_secret_id: 'sandbox-secret',
      grant_type: 'client_credentials',
    }),
  });
  return ((await reply.json()) as { access_token: string }).access_token;
}

const ORDER = JSON.stringify({
  amount: '1250',
  description: 'Bench',
  callback_success: 'https://s.example/ok',
  callback_fail: 'https://s.example/ko',
});

async function load(
  url: string,
  auth: string,
  method: 'POST' | 'GET',
  path: string,
  extra: Partial<autocannon.Options> = {},
) {
  const result = await autocannon({
    url: url + path,
    method,
    connections: CONNECTIONS,
    duration: SECONDS,
    headers: { authorization: `Bearer ${auth}`, 'content-type': 'application/json' },
    body: method === 'POST' ? ORDER : undefined,
    ...extra,
  });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${method} ${path}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { rps: result.requests.average, p99: result.latency.p99, total: result.requests.total };
}

async function createOne(url: string, auth: string): Promise<string> {
  const reply = await fetch(`${url}/v2/api/checkout`, {
    method: 'POST',
    headers: { authorization: `Bearer ${auth}` },
    body: ORDER,
  });
  return ((await reply.json()) as { uuid: string }).uuid;
}

const stop = (server: Server) => new Promise((resolve) => server.child.once('exit', resolve).kill('SIGTERM'));

async function main() {
  const sandbox = await start(['bin/payorder.js', 'sandbox', '--port', '0', '--json']);
  const idleRss = rssMb(sandbox.child.pid!);
  const stateDir = mkdtempSync(join(tmpdir(), 'payorder-bench-'));
  const stateFile = join(stateDir, 'state.json');
  const stateful = await start(['bin/payorder.js', 'sandbox', '--port', '0', '--json', '--state', stateFile]);
  const bare = await start([fileURLToPath(new URL('./bare-server.mjs', import.meta.url))]);
  const sandboxToken = await token(sandbox.url);
  const statefulToken = await token(stateful.url);
  const rows: string[] = [];
  const pad = (s: string, n: number) => s.padEnd(n);
  rows.push(`${pad('load', 34)}${pad('bare node:http', 24)}${pad('sandbox', 24)}ratio`);
  const percent = (ratio: number) => `${(ratio * 100).toFixed(0)}%`;
  const median = (ratios: number[]) => [...ratios].sort((x, y) => x - y)[Math.floor(ratios.length / 2)]!;
  // The --state row also loads the sandbox without --state in each of its rounds, for the cost of
  // the write itself: machine noise moves the bare server's figure from row to row.
  const loads = [
    { label: 'POST /v2/api/checkout', method: 'POST', server: sandbox, auth: sandboxToken },
    { label: 'GET /v2/api/orders/:uuid', method: 'GET', server: sandbox, auth: sandboxToken },
    {
      label: 'POST /v2/api/checkout --state',
      method: 'POST',
      server: stateful,
      auth: statefulToken,
      without: { server: sandbox, auth: sandboxToken },
    },
  ] as const;
  let stateCost = '';
  for (const row of loads) {
    const { label, method, server, auth } = row;
    const without = 'without' in row ? row.without : undefined;
    const bareUuid = await createOne(bare.url, 'x');
    const sandboxUuid = await createOne(server.url, auth);
    const path = method === 'POST' ? '/v2/api/checkout' : '/v2/api/orders/';
    type Load = Awaited<ReturnType<typeof load>>;
    const rounds: Array<{ b: Load; s: Load; w?: Load }> = [];
    for (let round = 0; round < ROUNDS; round++) {
      const b = await load(bare.url, 'x', method, method === 'POST' ? path : path + bareUuid);
      const s = await load(server.url, auth, method, method === 'POST' ? path : path + sandboxUuid);
      const w = without && (await load(without.server.url, without.auth, method, path));
      rounds.push({ b, s, ...(w ? { w } : {}) });
    }
    if (without) {
      const costs = rounds.map((r) => r.s.rps / r.w!.rps);
      const all = costs.map(percent).join(' ');
      stateCost = `--state: POST at ${percent(median(costs))} of the sandbox without --state, same rounds (rounds: ${all})`;
    }
    rounds.sort((x, y) => x.s.rps / x.b.rps - y.s.rps / y.b.rps);
    const { b, s } = rounds[Math.floor(rounds.length / 2)]!;
    const all = rounds.map((r) => percent(r.s.rps / r.b.rps)).join(' ');
    rows.push(
      `${pad(label, 34)}${pad(`${Math.round(b.rps)} req/s p99 ${b.p99} ms`, 24)}${pad(`${Math.round(s.rps)} req/s p99 ${s.p99} ms`, 24)}${percent(s.rps / b.rps)} (rounds: ${all})`,
    );
  }
  await stop(bare);
  await stop(sandbox);
  // The state file as the load left it (one appended line per order), then the start-up that
  // reads and compacts it.
  const stateOrders = (await (await fetch(`${stateful.url}/_sandbox`)).json()) as { orders: number };
  const stateMb = statSync(stateFile).size / 1_048_576;
  await stop(stateful);
  const reloaded = await start(['bin/payorder.js', 'sandbox', '--port', '0', '--json', '--state', stateFile]);
  await stop(reloaded);
  rmSync(stateDir, { recursive: true, force: true });
  // Memory: a fresh sandbox given exactly 100,000 orders.
  const filled = await start(['bin/payorder.js', 'sandbox', '--port', '0', '--json']);
  const filledToken = await token(filled.url);
  await autocannon({
    url: `${filled.url}/v2/api/checkout`,
    method: 'POST',
    connections: CONNECTIONS,
    amount: 100_000,
    headers: { authorization: `Bearer ${filledToken}` },
    body: ORDER,
  });
  const info = async () =>
    (await (await fetch(`${filled.url}/_sandbox`)).json()) as {
      orders: number;
      memory: { heap_used_mb: number };
    };
  const orders = (await info()).orders;
  const loadedRss = rssMb(filled.child.pid!);
  // V8 gives memory back once the process is idle for a while; measure again after that.
  await new Promise((resolve) => setTimeout(resolve, 12_000));
  const fullRss = rssMb(filled.child.pid!);
  const heapUsed = (await info()).memory.heap_used_mb;
  await stop(filled);
  const firsts: number[] = [];
  for (let i = 0; i < 5; i++) {
    const again = await start(['bin/payorder.js', 'sandbox', '--port', '0', '--json']);
    firsts.push(again.firstAnswerMs);
    await stop(again);
  }
  firsts.sort((a, b) => a - b);
  console.log(
    `sandbox benchmark: ${CONNECTIONS} connections, keep-alive, ${SECONDS} s per load, ${ROUNDS} alternating rounds (median shown), Node ${process.version}`,
  );
  console.log(rows.join('\n'));
  console.log(stateCost);
  console.log(
    `--state: ${stateOrders.orders} orders in a ${stateMb.toFixed(1)} MB file; first answer from spawn with it: ${reloaded.firstAnswerMs.toFixed(0)} ms`,
  );
  console.log(
    `first answer from spawn: median ${firsts[2]!.toFixed(0)} ms (of 5: ${firsts.map((f) => f.toFixed(0)).join(', ')})`,
  );
  console.log(
    `RSS idle: ${idleRss.toFixed(0)} MB; after ${orders} orders: ${loadedRss.toFixed(0)} MB right after the load, ${fullRss.toFixed(0)} MB after 12 s idle (heap used ${heapUsed} MB)`,
  );
}

await main();
