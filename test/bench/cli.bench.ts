/**
 * `npm run bench`: payorder's own costs at run time, each beside a yardstick measured in the same run
 * (rounds interleaved, the median shown), one row per target of docs/performance.md:
 *   - peak RSS of a batch of 2,000 / 20,000 / 100,000 lines (concurrency 16), its launcher included;
 *   - CPU time per order of a batch of 10,000 lines beside a bare node:http client making the same
 *     creates with the same concurrency (this file, run with `bare-client`);
 *   - orders/s of that batch beside autocannon's requests/s on the same endpoint;
 *   - wall time of `order get UUID --json` and `--help` beside bare `node -e 0`;
 *   - RSS of the sandbox holding 100,000 orders (those the 100,000-line batch made);
 *   - orders/s of a 2,000-line batch at concurrency 16 against a sandbox with --latency 100, beside
 *     the ideal 160/s.
 * Every batch runs against one sandbox of this checkout, emptied before each run.
 *
 * BENCH_BEFORE=DIR adds an earlier build to every row, in the same rounds: DIR is a checkout of the
 * earlier commit with its dist/ built, e.g.
 *   git worktree add ../before HEAD && (cd ../before && npm ci && npm run build)
 *   BENCH_BEFORE=../before npm run bench
 * BENCH_RUNS (start-up runs, default 20), BENCH_ROUNDS (batch rounds, default 3), BENCH_SCALE (a
 * factor on every line count, default 1) and BENCH_ONLY (sections: startup, throughput, memory,
 * latency) shorten a run; BENCH_NODE_FLAGS are given to every payorder
 * process; BENCH_JOURNAL=file gives every batch a --journal file (a build before the automatic
 * journal then keeps one too). Linux only (/proc). A benchmark, not a test.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from './median.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SELF = fileURLToPath(import.meta.url);
const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SCALE = Number(process.env.BENCH_SCALE ?? 1);
const NODE_FLAGS = process.env.BENCH_NODE_FLAGS ? process.env.BENCH_NODE_FLAGS.split(' ') : [];
const BEFORE = process.env.BENCH_BEFORE ? resolve(ROOT, process.env.BENCH_BEFORE) : undefined;
const CONCURRENCY = 16;
const lines = (count: number) => Math.max(100, Math.round(count * SCALE));
/** BENCH_JOURNAL=file gives every batch a --journal file; by default a batch keeps its journal itself. */
const JOURNAL_FILE = process.env.BENCH_JOURNAL === 'file';
/** BENCH_ONLY=startup,throughput,memory,latency runs only those sections (default: all). */
const ONLY = process.env.BENCH_ONLY?.split(',');
const runs = (section: string) => ONLY === undefined || ONLY.includes(section);

/** The order line `i` of a batch file, and the same order as the API's v2 body (for the yardsticks). */
const orderFields = (i: number) => ({
  amount: `${(i % 9000) + 1}.${String(i % 100).padStart(2, '0')}`,
  description: `bench ${i}`,
});
const apiBody = (i: number) => {
  const { amount, description } = orderFields(i);
  return JSON.stringify({
    amount: amount.replace('.', '').replace(/^0+/, ''),
    description,
    callback_success: 'https://s.example/ok',
    callback_fail: 'https://s.example/ko',
  });
};

/**
 * The yardstick client: `count` order creations with `concurrency` in flight over keep-alive
 * node:http connections, each answer read and parsed. Exits 1 if any creation failed.
 */
async function bareClient(url: string, token: string, count: number, concurrency: number) {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const target = new URL('/v2/api/checkout', url);
  let next = 0;
  let failed = 0;
  const create = (i: number) =>
    new Promise<void>((done, fail) => {
      const body = apiBody(i);
      const sent = request(
        target,
        {
          method: 'POST',
          agent,
          headers: {
            accept: 'application/json',
            authorization: `Bearer ${token}`,
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
          },
        },
        (response) => {
          let text = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => {
            text += chunk;
          });
          response.on('end', () => {
            if (response.statusCode !== 200 || !JSON.parse(text).uuid) failed++;
            done();
          });
        },
      );
      sent.on('error', fail);
      sent.end(body);
    });
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) await create(++next);
    }),
  );
  agent.destroy();
  process.exitCode = failed > 0 ? 1 : 0;
}

interface Measured {
  ms: number;
  cpuMs: number;
  peakMb: number;
  code: number | null;
}

const TICK_MS = 1000 / Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim() || 100);

/** A process and its children's, children first: `/proc/PID/task/PID/children`, recursively. */
function processTree(pid: number): number[] {
  let children: number[] = [];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .split(' ')
      .filter(Boolean)
      .map(Number);
  } catch {}
  return [...children.flatMap(processTree), pid];
}

/** The pages only this process maps (smaps_rollup's Private_Clean + Private_Dirty), in KB. */
function privateKb(pid: number): number {
  const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
  return [...rollup.matchAll(/^Private_(?:Clean|Dirty):\s+(\d+)/gm)].reduce((kb, m) => kb + Number(m[1]), 0);
}

/**
 * Runs a process to its end, sampling every 20 ms the memory and the CPU time (utime + stime) of it
 * and of every process it starts (the launcher runs a batch in a Node of its own). Its peak RSS is
 * the largest process's peak (VmHWM) plus the pages the others do not share with it (their peak
 * private memory): what one process alone would show. The CPU time is the sum of each one's; the
 * last sample is at most 20 ms of CPU short.
 */
function measure(args: string[], env: NodeJS.ProcessEnv): Promise<Measured> {
  const started = performance.now();
  const child: ChildProcess = spawn(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'inherit'] });
  const seen = new Map<number, { peakKb: number; privateKb: number; ticks: number }>();
  const sample = () => {
    for (const pid of processTree(child.pid!)) {
      try {
        const status = readFileSync(`/proc/${pid}/status`, 'utf8');
        const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
        const before = seen.get(pid);
        seen.set(pid, {
          peakKb: Math.max(before?.peakKb ?? 0, Number(/VmHWM:\s+(\d+)/.exec(status)![1])),
          privateKb: Math.max(before?.privateKb ?? 0, privateKb(pid)),
          ticks: Number(fields[11]) + Number(fields[12]),
        });
      } catch {}
    }
  };
  const sampler = setInterval(sample, 20);
  return new Promise((resolve) =>
    child.once('exit', (code) => {
      clearInterval(sampler);
      const all = [...seen.values()].sort((a, b) => b.peakKb - a.peakKb);
      const peakKb = (all[0]?.peakKb ?? 0) + all.slice(1).reduce((kb, each) => kb + each.privateKb, 0);
      const ticks = all.reduce((total, each) => total + each.ticks, 0);
      resolve({ ms: performance.now() - started, cpuMs: ticks * TICK_MS, peakMb: peakKb / 1024, code });
    }),
  );
}

/** Wall time of a command run to its end; it must succeed. */
function timed(args: string[], env: NodeJS.ProcessEnv): number {
  const started = performance.now();
  const result = spawnSync(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'pipe'] });
  if (result.status !== 0) throw new Error(`${args.join(' ')} failed: ${result.stderr}`);
  return performance.now() - started;
}

const rssMb = (pid: number) =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

interface Sandbox {
  child: ChildProcess;
  url: string;
}

async function startSandbox(root: string, ...extra: string[]): Promise<Sandbox> {
  const child = spawn(
    process.execPath,
    [join(root, 'bin/payorder.js'), 'sandbox', '--port', '0', '--json', '--journal-limit', '100', ...extra],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const first = await new Promise<string>((resolve) =>
    child.stdout!.once('data', (chunk: Buffer) => resolve(chunk.toString())),
  );
  return { child, url: JSON.parse(first.split('\n')[0]!).url };
}

const stopSandbox = (sandbox: Sandbox) =>
  new Promise((resolve) => sandbox.child.once('exit', resolve).kill('SIGTERM'));

const emptied = async (sandbox: Sandbox) => {
  await fetch(`${sandbox.url}/_sandbox/reset`, { method: 'POST' });
};

/** A build of payorder to measure: this checkout, and the earlier one with BENCH_BEFORE. */
interface Cli {
  name: string;
  root: string;
  bin: string;
  /** Node flags before the launcher. */
  flags: string[];
  env: NodeJS.ProcessEnv;
}

const work = mkdtempSync(join(tmpdir(), 'payorder-bench-'));

/** A CLI of `root` with a config folder of its own, logged in to `sandbox`. */
function cliOf(name: string, root: string, sandbox: Sandbox, flags: string[] = []): Cli {
  const env = {
    ...process.env,
    PAYORDER_CONFIG_DIR: join(work, `config-${name}`),
    // Node's compile cache is the benchmark's own: made by the first run of each command.
    XDG_CACHE_HOME: join(work, `cache-${name}`),
    // The data folder too (the order ledger of the start-up section's order; batches get their own).
    PAYORDER_DATA_DIR: join(work, `data-${name}`),
    PAYORDER_AUTH_URL: sandbox.url,
    PAYORDER_CHECKOUT_URL: sandbox.url,
    NO_COLOR: '1',
  };
  const bin = join(root, 'bin/payorder.js');
  const login = spawnSync(process.execPath, [bin, 'login', '--env', 'sandbox', '--quiet'], { env });
  if (login.status !== 0) throw new Error(`${name}: login failed: ${login.stderr}`);
  return { name, root, bin, flags, env };
}

/** A token for the yardsticks, from the sandbox `cli` is logged in to. */
const tokenOf = (cli: Cli) =>
  spawnSync(process.execPath, [cli.bin, 'token', '--env', 'sandbox'], {
    env: cli.env,
    encoding: 'utf8',
  }).stdout.trim();

function batchFile(count: number): string {
  const file = join(work, `batch-${count}.ndjson`);
  let text = '';
  for (let i = 1; i <= count; i++)
    text += `${JSON.stringify({ ...orderFields(i), success: 'https://s.example/ok', fail: 'https://s.example/ko' })}\n`;
  writeFileSync(file, text);
  return file;
}

const batchArgs = (cli: Cli, file: string) => [
  ...NODE_FLAGS,
  ...cli.flags,
  cli.bin,
  'order',
  'create',
  '--env',
  'sandbox',
  '--input',
  file,
  '--concurrency',
  String(CONCURRENCY),
  '-o',
  'ndjson',
  '--quiet',
];

/**
 * Measures one batch run of `cli`, with a data folder of its own: a batch without --journal keeps its
 * journal there, and would skip the lines an earlier round created. With BENCH_JOURNAL=file the batch
 * is given a journal file (in that folder) instead.
 */
function measureBatch(cli: Cli, file: string): Promise<Measured> {
  const data = mkdtempSync(join(work, 'data-'));
  const journal = JOURNAL_FILE ? ['--journal', join(data, 'orders.journal')] : [];
  return measure([...batchArgs(cli, file), ...journal], { ...cli.env, PAYORDER_DATA_DIR: data });
}

const fixed = (value: number, digits = 0) => value.toFixed(digits);
const row = (label: string, ...cells: string[]) => console.log(`  ${label.padEnd(34)}${cells.join('  ')}`);

async function main() {
  const sandbox = await startSandbox(ROOT);
  const clis = [
    ...(BEFORE ? [cliOf('before', BEFORE, sandbox)] : []),
    cliOf(BEFORE ? 'after' : 'payorder', ROOT, sandbox),
  ];
  const [reference] = clis.slice(-1);
  const token = tokenOf(reference!);
  console.log(
    `payorder benchmark, Node ${process.version}, ${clis.map((c) => c.name).join(' and ')}${NODE_FLAGS.length ? `, node ${NODE_FLAGS.join(' ')}` : ''}`,
  );
  try {
    if (runs('startup')) await startUp(clis);
    if (runs('throughput')) await throughput(clis, sandbox, token);
    if (runs('memory')) await memory(clis, sandbox);
  } finally {
    await stopSandbox(sandbox);
  }
  if (runs('latency')) await latency(clis);
  rmSync(work, { recursive: true, force: true });
}

/** `order get UUID` and `--help` beside bare node, every command in turn in each run. */
async function startUp(clis: Cli[]) {
  const commands: Record<string, { args: string[]; env: NodeJS.ProcessEnv }> = {
    'node -e 0': { args: ['-e', '0'], env: process.env },
    // A floor under any command that sends a request: ky builds a Request as it is loaded, which
    // starts Node's built-in fetch (undici and the modules it needs: tls, http2, zlib, crypto…).
    'node, new Request()': { args: ['-e', "new Request('http://x')"], env: process.env },
  };
  for (const cli of clis) {
    const uuid = spawnSync(
      process.execPath,
      [
        cli.bin,
        'order',
        'create',
        '--env',
        'sandbox',
        '--amount',
        '1',
        '--description',
        'bench',
        '--success',
        'https://s.example/ok',
        '--fail',
        'https://s.example/ko',
        '--field',
        'uuid',
      ],
      { env: cli.env, encoding: 'utf8' },
    ).stdout.trim();
    commands[`${cli.name} --help`] = { args: [...NODE_FLAGS, cli.bin, '--help'], env: cli.env };
    // A first run, or one where no cache can be kept: Node's compile cache and payorder's code cache off.
    commands[`${cli.name} --help, caches off`] = {
      args: [...NODE_FLAGS, cli.bin, '--help'],
      env: { ...cli.env, NODE_DISABLE_COMPILE_CACHE: '1' },
    };
    commands[`${cli.name} order get UUID`] = {
      args: [...NODE_FLAGS, cli.bin, 'order', 'get', uuid, '--env', 'sandbox', '--json'],
      env: cli.env,
    };
  }
  const times: Record<string, number[]> = Object.fromEntries(Object.keys(commands).map((k) => [k, []]));
  // Once each first: the compile cache, the code cache and the page cache are warm for every run counted.
  for (const { args, env } of Object.values(commands)) timed(args, env);
  for (let i = 0; i < RUNS; i++)
    for (const [name, { args, env }] of Object.entries(commands)) times[name]!.push(timed(args, env));
  const bare = median(times['node -e 0']!);
  console.log(
    `\nstart-up: wall time, median of ${RUNS} interleaved runs (targets: order get ≤ 4.5×, --help ≤ 2× bare node)`,
  );
  for (const [name, values] of Object.entries(times))
    row(
      name,
      `${fixed(median(values), 1).padStart(6)} ms`,
      `${(median(values) / bare).toFixed(2)}× bare node`,
    );
}

/**
 * A batch of 10,000 lines beside a bare node:http client making the same creates (CPU per order)
 * and autocannon on the same endpoint (orders/s), in interleaved rounds; ratios are per round.
 */
async function throughput(clis: Cli[], sandbox: Sandbox, token: string) {
  const { default: autocannon } = await import('autocannon');
  const count = lines(10_000);
  const file = batchFile(count);
  const rounds: Array<{ bare: Measured; cannonRate: number; batches: Measured[] }> = [];
  for (let round = 0; round < ROUNDS; round++) {
    await emptied(sandbox);
    const bare = await measure(
      [SELF, 'bare-client', sandbox.url, token, String(count), String(CONCURRENCY)],
      process.env,
    );
    if (bare.code !== 0) throw new Error('the bare client failed');
    await emptied(sandbox);
    const started = performance.now();
    await autocannon({
      url: `${sandbox.url}/v2/api/checkout`,
      method: 'POST',
      connections: CONCURRENCY,
      amount: count,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: apiBody(1),
    });
    // autocannon's own duration is rounded to whole seconds; the wall clock is exact enough.
    const cannonRate = count / ((performance.now() - started) / 1000);
    const batches: Measured[] = [];
    for (const cli of clis) {
      await emptied(sandbox);
      const batch = await measureBatch(cli, file);
      if (batch.code !== 0) throw new Error(`${cli.name}: the batch exited ${batch.code}`);
      batches.push(batch);
    }
    rounds.push({ bare, cannonRate, batches });
  }
  const perOrder = (m: Measured) => m.cpuMs / count;
  const rate = (m: Measured) => count / (m.ms / 1000);
  console.log(
    `\nbatch of ${count.toLocaleString('en')} lines, concurrency ${CONCURRENCY}: median of ${ROUNDS} interleaved rounds (target: CPU ≤ 5× the bare client)`,
  );
  row(
    'bare node:http client',
    `${perOrder(
      medianBy(
        rounds.map((r) => r.bare),
        perOrder,
      ),
    ).toFixed(3)} ms CPU/order`,
    `${fixed(median(rounds.map((r) => rate(r.bare))))} orders/s`,
  );
  row('autocannon, same endpoint', `${fixed(median(rounds.map((r) => r.cannonRate)))} requests/s`);
  clis.forEach((cli, i) => {
    const cpu = median(rounds.map((r) => perOrder(r.batches[i]!) / perOrder(r.bare)));
    const share = median(rounds.map((r) => rate(r.batches[i]!) / r.cannonRate));
    row(
      `${cli.name} batch`,
      `${median(rounds.map((r) => perOrder(r.batches[i]!))).toFixed(3)} ms CPU/order = ${cpu.toFixed(2)}× bare`,
      `${fixed(median(rounds.map((r) => rate(r.batches[i]!))))} orders/s = ${fixed(share * 100)}% of autocannon`,
      `peak RSS ${fixed(median(rounds.map((r) => r.batches[i]!.peakMb)))} MB`,
    );
  });
}

const medianBy = <T>(values: T[], key: (value: T) => number): T =>
  [...values].sort((a, b) => key(a) - key(b))[Math.floor(values.length / 2)]!;

/** Peak RSS against input size, and the sandbox's RSS once it holds the largest batch's orders. */
async function memory(clis: Cli[], sandbox: Sandbox) {
  console.log(`\npeak RSS of a batch, concurrency ${CONCURRENCY} (target ≤ 150 MB, flat in input size)`);
  for (const count of [lines(2_000), lines(20_000), lines(100_000)]) {
    const file = batchFile(count);
    const cells: string[] = [];
    const largest = count === lines(100_000);
    for (const cli of clis) {
      // The smaller batches take turns for ROUNDS rounds; the largest runs once per build.
      const runs: Measured[] = [];
      for (let round = 0; round < (largest ? 1 : ROUNDS); round++) {
        await emptied(sandbox);
        runs.push(await measureBatch(cli, file));
      }
      const peak = median(runs.map((r) => r.peakMb));
      cells.push(
        `${cli.name} ${fixed(peak).padStart(4)} MB (${fixed(count / (median(runs.map((r) => r.ms)) / 1000))} orders/s)`,
      );
      if (largest && cli === clis.at(-1)) {
        const held = ((await (await fetch(`${sandbox.url}/_sandbox`)).json()) as { orders: number }).orders;
        cells.push(
          `| the sandbox holding its ${held.toLocaleString('en')} orders: RSS ${fixed(rssMb(sandbox.child.pid!))} MB (target ≤ 150 MB)`,
        );
      }
    }
    row(`${count.toLocaleString('en')} lines`, ...cells);
  }
}

/**
 * A 2,000-line batch at concurrency 16 against a sandbox that answers after 100 ms (ideal 160/s),
 * beside the bare client making the same creates: what the machine and the sandbox allow.
 */
async function latency(clis: Cli[]) {
  const sandbox = await startSandbox(ROOT, '--latency', '100');
  try {
    const count = lines(2_000);
    const file = batchFile(count);
    const ideal = CONCURRENCY / 0.1;
    const slow = clis.map((cli) => ({ ...cliOf(`${cli.name}-latency`, cli.root, sandbox), name: cli.name }));
    const token = tokenOf(slow.at(-1)!);
    const runs = [...slow.map(() => [] as Measured[]), [] as Measured[]];
    for (let round = 0; round < ROUNDS; round++) {
      await emptied(sandbox);
      runs[slow.length]!.push(
        await measure(
          [SELF, 'bare-client', sandbox.url, token, String(count), String(CONCURRENCY)],
          process.env,
        ),
      );
      for (const [i, cli] of slow.entries()) {
        await emptied(sandbox);
        runs[i]!.push(await measureBatch(cli, file));
      }
    }
    console.log(
      `\n${count.toLocaleString('en')} lines, concurrency ${CONCURRENCY}, sandbox --latency 100: whole process, start-up included (ideal ${ideal} orders/s; target ≥ 93%)`,
    );
    [...slow.map((cli) => cli.name), 'bare node:http client'].forEach((name, i) => {
      const rate = count / (median(runs[i]!.map((r) => r.ms)) / 1000);
      row(name, `${fixed(rate)} orders/s = ${fixed((rate / ideal) * 100)}% of ideal`);
    });
  } finally {
    await stopSandbox(sandbox);
  }
}

if (process.argv[2] === 'bare-client') {
  const [url, token, count, concurrency] = process.argv.slice(3);
  await bareClient(url!, token!, Number(count), Number(concurrency));
} else {
  mkdirSync(work, { recursive: true });
  await main();
}
