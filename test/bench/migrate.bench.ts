/**
 * migrate-check's source check at scale: `node .ci/bundle-run.mjs test/bench/migrate.bench.ts`.
 * Two generated trees of 20,000 files each, run through the built CLI (--json):
 * 1. every file with one integration's v1 markers (the tree of cli.bench.ts: the worst case, where
 *    every file passes the cheap pre-filter and is parsed);
 * 2. a shop's tree where 1 file in 50 talks to the service (most of a real tree never mentions it).
 * For each: wall time, CPU time (user + system, all threads) and peak RSS, median of RUNS runs
 * (BENCH_RUNS, default 3). CPU time is what the machine's load does not change.
 * 3. linear in file size: a 2 MB file of one word repeated (`auth`, which every address rule looks
 *    for), one with a v1 address constant on every line, and one of ordinary code.
 * BENCH_BEFORE=DIR runs an earlier build (a checkout with dist/ built) in the same rounds, taking
 * turns with this one.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from './median.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The builds measured: this checkout, and an earlier one when BENCH_BEFORE names it. */
const BUILDS = [
  ...(process.env.BENCH_BEFORE
    ? [{ name: 'before', bin: join(resolve(ROOT, process.env.BENCH_BEFORE), 'bin/payorder.js') }]
    : []),
  { name: process.env.BENCH_BEFORE ? 'after' : 'payorder', bin: join(ROOT, 'bin/payorder.js') },
];
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const FILES = 20_000;
const TICKS_PER_SECOND = 100;
const work = mkdtempSync(join(tmpdir(), 'payorder-migrate-bench-'));

interface Run {
  ms: number;
  cpuMs: number;
  peakMb: number;
  code: number | null;
}

/** Runs the CLI to its end, sampling its peak RSS (VmHWM) and CPU time (utime + stime) from /proc. */
function measure(bin: string, args: string[]): Promise<Run> {
  const started = performance.now();
  const child: ChildProcess = spawn(process.execPath, [bin, ...args], {
    env: { ...process.env, HOME: work, NO_COLOR: '1' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  let peakKb = 0;
  let ticks = 0;
  const sample = setInterval(() => {
    try {
      peakKb = Math.max(
        peakKb,
        Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))![1]),
      );
      const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      ticks = Number(fields[11]) + Number(fields[12]);
    } catch {}
  }, 20);
  return new Promise((resolve) =>
    child.once('exit', (code) => {
      clearInterval(sample);
      resolve({
        ms: performance.now() - started,
        cpuMs: (ticks / TICKS_PER_SECOND) * 1000,
        peakMb: peakKb / 1024,
        code,
      });
    }),
  );
}

/** Writes `FILES` files of about 60 lines; `integration(i)` gives file i's service code, if any. */
function tree(name: string, integration: (i: number) => string | undefined): string {
  const root = join(work, name);
  for (let i = 0; i < FILES; i++) {
    const dir = join(root, `pkg${i % 200}`, `mod${i % 7}`);
    if (i < 1400) mkdirSync(dir, { recursive: true });
    const extension = ['js', 'php', 'py'][i % 3]!;
    const head = extension === 'php' ? '<?php\n' : '';
    writeFileSync(
      join(dir, `file${i}.${extension}`),
      `${head}// file ${i}\n${'const total = items.reduce((sum, item) => sum + item.price, 0);\n'.repeat(30)}${integration(i) ?? ''}${'log(`done ${total}`);\n'.repeat(30)}`,
    );
  }
  return root;
}

const MARKERS = [
  'fetch(`${base}/1/checkout`, { body: JSON.stringify({ amount: total.toFixed(2), userName }) });\n',
  "$body = ['user_name' => $u, 'client_id' => $c];\n",
  'status = "PENDING"\nurl = base + "/order/" + id\n',
];

async function bench(label: string, target: string): Promise<void> {
  const runs = new Map<string, Run[]>(BUILDS.map((build) => [build.name, []]));
  for (let i = 0; i < RUNS; i++)
    for (const build of BUILDS)
      runs.get(build.name)!.push(await measure(build.bin, ['migrate-check', target, '--json']));
  console.log(label);
  for (const [name, each] of runs) {
    console.log(
      `  ${name.padEnd(8)} wall ${(median(each.map((r) => r.ms)) / 1000).toFixed(1)} s, CPU ${(median(each.map((r) => r.cpuMs)) / 1000).toFixed(1)} s, ` +
        `peak RSS ${median(each.map((r) => r.peakMb)).toFixed(0)} MB (median of ${RUNS}; exit ${each[0]!.code}; ` +
        `wall of each: ${each.map((r) => (r.ms / 1000).toFixed(1)).join(', ')} s)`,
    );
  }
}

/** A file of about 2 MB: `line` repeated. */
function bigFile(name: string, line: string): string {
  const file = join(work, name);
  writeFileSync(file, line.repeat(Math.ceil((2 * 1024 * 1024) / line.length)));
  return file;
}

async function main() {
  try {
    await bench(
      `${FILES.toLocaleString('en')} files, every one with v1 markers`,
      tree('markers', (i) => MARKERS[i % 3]),
    );
    await bench(
      `${FILES.toLocaleString('en')} files, 1 in 50 with an integration`,
      tree('shop', (i) => (i % 50 === 0 ? MARKERS[i % 3] : undefined)),
    );
    await bench('a 2 MB file of `auth` repeated', bigFile('repeated.js', `${'auth '.repeat(15)}\n`));
    await bench(
      'a 2 MB file with a v1 address constant on every line (a finding a line)',
      bigFile('constants.js', "const AUTH = 'https://auth.example.com/1/auth/token';\n"),
    );
    await bench(
      'a 2 MB file of ordinary code',
      bigFile('ordinary.js', 'const total = items.reduce((sum, item) => sum + item.price, 0);\n'),
    );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
