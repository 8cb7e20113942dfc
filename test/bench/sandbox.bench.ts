/**
 * `npm run bench:sandbox`: loads POST /v2/api/checkout and GET /v2/api/orders/:uuid on the sandbox,
 * and POST again on a sandbox with --state (each order written to its file before the answer), and
 * in the same run on a bare node:http server doing the same parse and validation; prints requests/s,
 * p99 and the ratio, then start-up time, memory and the size of the sandbox's bundle. Each server's
 * CPU time per request is printed too: on a busy machine, where other processes take turns on the
 * cores, requests/s swing from round to round while CPU time per request stays put.
 *
 * BENCH_BEFORE=DIR adds an earlier build to every row, side by side in the same rounds: DIR is a
 * checkout of the earlier commit with its dist/ built, e.g.
 *   git worktree add ../before HEAD && (cd ../before && npm ci && npm run build)
 *   BENCH_BEFORE=../before npm run bench:sandbox
 * A benchmark, not a test.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { median } from './median.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
/** The servers take turns this many times; the ratio reported is the median of the rounds. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const CONNECTIONS = 32;
const ORDERS = 100_000;
const BEFORE = process.env.BENCH_BEFORE ? resolve(ROOT, process.env.BENCH_BEFORE) : undefined;

/** A build to measure: this checkout, and the earlier one when BENCH_BEFORE is set. */
interface Build {
  name: string;
  root: string;
}
const BUILDS: Build[] = [
  ...(BEFORE ? [{ name: 'before', root: BEFORE }] : []),
  { name: BEFORE ? 'after' : 'sandbox', root: ROOT },
];

interface Server {
  child: ChildProcess;
  url: string;
  firstAnswerMs: number;
  /** CPU time the process used until its first answer. */
  firstAnswerCpuMs: number;
}

/** CPU time (user + system) a process has used so far, from /proc (Linux). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  // utime and stime, fields 14 and 15 of stat(5), in clock ticks of 10 ms.
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

function start(args: string[], cwd = ROOT): Promise<Server> {
  const spawned = performance.now();
  const flags = process.env.BENCH_NODE_FLAGS ? process.env.BENCH_NODE_FLAGS.split(' ') : [];
  const child = spawn(process.execPath, [...flags, ...args], { cwd, stdio: ['ignore', 'pipe', 'inherit'] });
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
      const firstAnswerMs = performance.now() - spawned;
      resolve({ child, url, firstAnswerMs, firstAnswerCpuMs: cpuMs(child.pid!) });
    });
  });
}

const startSandbox = (build: Build, ...extra: string[]) =>
  start([join(build.root, 'bin/payorder.js'), 'sandbox', '--port', '0', '--json', ...extra], build.root);

const stop = (server: Server) => new Promise((resolve) => server.child.once('exit', resolve).kill('SIGTERM'));

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

interface Load {
  rps: number;
  p99: number;
  /** The server's CPU time per request, in microseconds. */
  cpuUs: number;
}

async function load(server: Server, auth: string, method: 'POST' | 'GET', path: string): Promise<Load> {
  const cpuBefore = cpuMs(server.child.pid!);
  const result = await autocannon({
    url: server.url + path,
    method,
    connections: CONNECTIONS,
    duration: SECONDS,
    headers: { authorization: `Bearer ${auth}`, 'content-type': 'application/json' },
    body: method === 'POST' ? ORDER : undefined,
  });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${method} ${path}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  const cpuUs = ((cpuMs(server.child.pid!) - cpuBefore) * 1000) / result.requests.total;
  return { rps: result.requests.average, p99: result.latency.p99, cpuUs };
}

async function createOne(url: string, auth: string): Promise<string> {
  const reply = await fetch(`${url}/v2/api/checkout`, {
    method: 'POST',
    headers: { authorization: `Bearer ${auth}` },
    body: ORDER,
  });
  return ((await reply.json()) as { uuid: string }).uuid;
}

/** A server under load and what it is loaded with. */
interface Target {
  server: Server;
  auth: string;
  path: string;
}

async function target(server: Server, auth: string, method: 'POST' | 'GET'): Promise<Target> {
  const path = method === 'POST' ? '/v2/api/checkout' : `/v2/api/orders/${await createOne(server.url, auth)}`;
  return { server, auth, path };
}

const percent = (ratio: number) => `${(ratio * 100).toFixed(0)}%`;
const pad = (s: string, n: number) => s.padEnd(n);
const shown = (l: Load) => `${Math.round(l.rps)} req/s p99 ${l.p99} ms`;

/**
 * Loads each target once per round, the order turning from round to round so no server always goes
 * first; returns each target's loads by round.
 */
async function rounds(method: 'POST' | 'GET', targets: Target[]): Promise<Load[][]> {
  const loads: Load[][] = targets.map(() => []);
  for (let round = 0; round < ROUNDS; round++) {
    for (let k = 0; k < targets.length; k++) {
      const i = (k + round) % targets.length;
      const { server, auth, path } = targets[i]!;
      loads[i]![round] = await load(server, auth, method, path);
    }
  }
  return loads;
}

/** A row: the bare server, then each build with its median ratio to bare and every round's ratio. */
function row(label: string, bare: Load[], builds: Load[][]): string {
  const bareMedian = bare.find((l) => l.rps === median(bare.map((b) => b.rps)))!;
  let text = `${pad(label, 32)}${pad(shown(bareMedian), 26)}`;
  for (const loads of builds) {
    const ratios = loads.map((l, round) => l.rps / bare[round]!.rps);
    const at = ratios.indexOf(median(ratios));
    text += `${pad(`${shown(loads[at]!)} ${percent(ratios[at]!)}`, 32)}${pad(`(${ratios.map(percent).join(' ')})`, 34)}`;
  }
  return text.trimEnd();
}

/**
 * The same loads by CPU time per request (median of the rounds), and bare's CPU time over each
 * build's: the share of bare's throughput a build reaches when CPU is what limits both.
 */
function cpuRow(label: string, bare: Load[], builds: Load[][]): string {
  const us = (loads: Load[]) => median(loads.map((l) => l.cpuUs));
  let text = `${pad(label, 32)}${pad(`${us(bare).toFixed(0)} µs`, 26)}`;
  for (const loads of builds) text += pad(`${us(loads).toFixed(0)} µs ${percent(us(bare) / us(loads))}`, 66);
  return text.trimEnd();
}

/** RSS of a fresh sandbox given exactly ORDERS orders: right after the load, and after 12 s idle. */
async function memory(build: Build): Promise<string> {
  const filled = await startSandbox(build);
  const idle = rssMb(filled.child.pid!);
  const auth = await token(filled.url);
  await autocannon({
    url: `${filled.url}/v2/api/checkout`,
    method: 'POST',
    connections: CONNECTIONS,
    amount: ORDERS,
    headers: { authorization: `Bearer ${auth}` },
    body: ORDER,
  });
  const info = async () =>
    (await (await fetch(`${filled.url}/_sandbox`)).json()) as {
      orders: number;
      memory: { heap_used_mb: number };
    };
  const { orders } = await info();
  const loaded = rssMb(filled.child.pid!);
  // V8 gives memory back once the process is idle for a while; measure again after that.
  await new Promise((resolve) => setTimeout(resolve, 12_000));
  const full = rssMb(filled.child.pid!);
  const heapUsed = (await info()).memory.heap_used_mb;
  await stop(filled);
  return `RSS ${build.name}: idle ${idle.toFixed(0)} MB; after ${orders} orders ${loaded.toFixed(0)} MB right after the load, ${full.toFixed(0)} MB after 12 s idle (heap used ${heapUsed} MB)`;
}

/** The bytes Node loads to start the sandbox: dist/sandbox.js and what it imports (the CLI's bundle), transitively. */
function bundleBytes(root: string): number {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    for (const [, spec] of text.matchAll(
      /(?:^|[;\n}])\s*(?:import|export)\s*(?:[^'"();]*?from\s*)?["'](\.[^"']+)["']/g,
    ))
      visit(join(dirname(file), spec!));
  };
  visit(join(root, 'dist/sandbox.js'));
  return [...seen].reduce((sum, file) => sum + statSync(file).size, 0);
}

async function main() {
  const bare = await start([fileURLToPath(new URL('./bare-server.mjs', import.meta.url))]);
  const stateDir = mkdtempSync(join(tmpdir(), 'payorder-bench-'));
  const sandboxes = await Promise.all(BUILDS.map((build) => startSandbox(build)));
  const stateful = await Promise.all(
    BUILDS.map((build, i) => startSandbox(build, '--state', join(stateDir, `state-${i}.json`))),
  );
  const tokens = await Promise.all(sandboxes.map((s) => token(s.url)));
  const stateTokens = await Promise.all(stateful.map((s) => token(s.url)));
  const idleRss = sandboxes.map((s) => rssMb(s.child.pid!));

  const lines: string[] = [];
  const cpuLines: string[] = [];
  const heading = BUILDS.map((b) => pad(`${b.name}, ratio to bare`, 32) + pad('(each round)', 34));
  lines.push(`${pad('load', 32)}${pad('bare node:http', 26)}${heading.join('')}`.trimEnd());
  const cpuHeading = BUILDS.map((b) => pad(`${b.name}, bare's CPU over it`, 66));
  cpuLines.push(
    `${pad('CPU time per request', 32)}${pad('bare node:http', 26)}${cpuHeading.join('')}`.trimEnd(),
  );
  for (const method of ['POST', 'GET'] as const) {
    const targets = [await target(bare, 'x', method)];
    for (const [i, s] of sandboxes.entries()) targets.push(await target(s, tokens[i]!, method));
    const [bareLoads, ...builds] = await rounds(method, targets);
    const label = method === 'POST' ? 'POST /v2/api/checkout' : 'GET /v2/api/orders/:uuid';
    lines.push(row(label, bareLoads!, builds));
    cpuLines.push(cpuRow(label, bareLoads!, builds));
  }
  // With --state, each build is also loaded without it in the same rounds: the cost of the write
  // itself, apart from the machine's noise from row to row.
  const stateTargets = [await target(bare, 'x', 'POST')];
  for (const [i, s] of stateful.entries()) stateTargets.push(await target(s, stateTokens[i]!, 'POST'));
  for (const [i, s] of sandboxes.entries()) stateTargets.push(await target(s, tokens[i]!, 'POST'));
  const [stateBare, ...stateLoads] = await rounds('POST', stateTargets);
  lines.push(row('POST /v2/api/checkout --state', stateBare!, stateLoads.slice(0, BUILDS.length)));
  cpuLines.push(cpuRow('POST /v2/api/checkout --state', stateBare!, stateLoads.slice(0, BUILDS.length)));
  const stateCost = BUILDS.map((build, i) => {
    const costs = stateLoads[i]!.map((l, round) => l.rps / stateLoads[i + BUILDS.length]![round]!.rps);
    return `--state ${build.name}: POST at ${percent(median(costs))} of the same build without --state (rounds: ${costs.map(percent).join(' ')})`;
  });
  await stop(bare);
  await Promise.all(sandboxes.map(stop));

  // The state files as the load left them (one appended line per order), then the start-up that
  // reads and compacts them.
  const stateLines: string[] = [];
  for (const [i, build] of BUILDS.entries()) {
    const { orders } = (await (await fetch(`${stateful[i]!.url}/_sandbox`)).json()) as { orders: number };
    const file = join(stateDir, `state-${i}.json`);
    const mb = statSync(file).size / 1_048_576;
    await stop(stateful[i]!);
    const reloaded = await startSandbox(build, '--state', file);
    await stop(reloaded);
    stateLines.push(
      `--state ${build.name}: ${orders} orders in a ${mb.toFixed(1)} MB file; first answer from spawn with it: ${reloaded.firstAnswerMs.toFixed(0)} ms`,
    );
  }
  rmSync(stateDir, { recursive: true, force: true });

  const memoryLines: string[] = [];
  for (const build of BUILDS) memoryLines.push(await memory(build));

  const firsts: number[][] = BUILDS.map(() => []);
  const firstCpus: number[][] = BUILDS.map(() => []);
  for (let i = 0; i < 5; i++) {
    for (const [b, build] of BUILDS.entries()) {
      const again = await startSandbox(build);
      firsts[b]!.push(again.firstAnswerMs);
      firstCpus[b]!.push(again.firstAnswerCpuMs);
      await stop(again);
    }
  }

  console.log(
    `sandbox benchmark: ${CONNECTIONS} connections, keep-alive, ${SECONDS} s per load, ${ROUNDS} rounds taking turns (median shown), Node ${process.version}`,
  );
  console.log(lines.join('\n'));
  console.log(cpuLines.join('\n'));
  console.log([...stateCost, ...stateLines].join('\n'));
  for (const [b, build] of BUILDS.entries()) {
    const all = firsts[b]!.map((f) => f.toFixed(0)).join(', ');
    console.log(
      `first answer from spawn ${build.name}: median ${median(firsts[b]!).toFixed(0)} ms (of 5: ${all}), CPU until then ${median(firstCpus[b]!)} ms; RSS idle ${idleRss[b]!.toFixed(0)} MB; sandbox bundle ${(bundleBytes(build.root) / 1024).toFixed(0)} kB`,
    );
  }
  console.log(memoryLines.join('\n'));
}

await main();
