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
 * 4. against grep, on a tree that never talks to the service: `grep -rIlE` of the service's words
 *    and `migrate-check DIR --json` take turns on the same tree, page cache warm for both (one run
 *    of each first, not counted): a generated 15,000-file TypeScript monorepo (monorepo-tree.ts),
 *    and the checkout BENCH_REPO names, if any (a real one: test/migrate/real-repos.json lists them).
 *    The target: at most 4× grep's wall time and 300 MB. Only this build runs beside grep (the
 *    target is grep's time, not an earlier build's; a build from before the evidence rules parses
 *    most of such a tree and takes minutes). BENCH_GREP_ONLY=1 runs these sections alone.
 * BENCH_BEFORE=DIR runs an earlier build (a checkout with dist/ built) in the same rounds, taking
 * turns with this one.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from './median.js';
import { monorepoTree } from './monorepo-tree.js';

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

/**
 * CPU time (user + system) of the children this process has waited for, in ticks: a child's whole
 * CPU time, all its threads, once it has ended (/proc/self/stat's cutime and cstime).
 */
function childTicks(): number {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  return Number(fields[13]) + Number(fields[14]);
}

/** Runs the CLI to its end. */
const measure = (bin: string, args: string[]) => measureCommand(process.execPath, [bin, ...args]);

/** Runs a command to its end, sampling its peak RSS (VmHWM) from /proc; its CPU time once it has ended. */
function measureCommand(command: string, args: string[]): Promise<Run> {
  const ticksBefore = childTicks();
  const started = performance.now();
  const child: ChildProcess = spawn(command, args, {
    env: { ...process.env, HOME: work, NO_COLOR: '1' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  let peakKb = 0;
  const sample = () => {
    try {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      peakKb = Math.max(peakKb, Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0));
    } catch {}
  };
  const sampling = setInterval(sample, 20);
  return new Promise((resolve) =>
    child.once('exit', (code) => {
      clearInterval(sampling);
      resolve({
        ms: performance.now() - started,
        cpuMs: ((childTicks() - ticksBefore) / TICKS_PER_SECOND) * 1000,
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

const GREP = ['-rIlE', 'auth/token|/checkout|client_secret_id'];

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

/** grep and migrate-check on the same tree, taking turns; each after one run not counted (the page cache warm). */
async function againstGrep(label: string, target: string): Promise<void> {
  const commands = [
    { name: 'grep', run: () => measureCommand('grep', [...GREP, target]) },
    {
      name: 'payorder',
      run: () => measure(join(ROOT, 'bin/payorder.js'), ['migrate-check', target, '--json']),
    },
  ];
  for (const command of commands) await command.run();
  const runs = new Map<string, Run[]>(commands.map((command) => [command.name, []]));
  for (let i = 0; i < RUNS; i++)
    for (const command of commands) runs.get(command.name)!.push(await command.run());
  const grepMs = median(runs.get('grep')!.map((r) => r.ms));
  const grepCpuMs = median(runs.get('grep')!.map((r) => r.cpuMs));
  console.log(label);
  for (const [name, each] of runs) {
    const ms = median(each.map((r) => r.ms));
    const cpuMs = median(each.map((r) => r.cpuMs));
    const peakMb = median(each.map((r) => r.peakMb));
    const against =
      name === 'grep'
        ? ''
        : ` = ${(ms / grepMs).toFixed(1)}× grep's wall, ${(cpuMs / grepCpuMs).toFixed(1)}× its CPU; ` +
          `target ≤ 4× and ≤ 300 MB ${ms <= 4 * grepMs && peakMb <= 300 ? 'met' : 'NOT met'}`;
    console.log(
      `  ${name.padEnd(8)} wall ${seconds(ms)}, CPU ${seconds(cpuMs)}, peak RSS ${peakMb.toFixed(0)} MB${against} ` +
        `(median of ${RUNS}; exit ${each[0]!.code}; wall of each: ${each.map((r) => seconds(r.ms)).join(', ')})`,
    );
  }
}

async function main() {
  try {
    if (!process.env.BENCH_GREP_ONLY) {
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
    }
    await againstGrep(
      'a generated 15,000-file TypeScript monorepo that never talks to the service, against grep',
      monorepoTree(join(work, 'monorepo')),
    );
    if (process.env.BENCH_REPO)
      await againstGrep(`${process.env.BENCH_REPO}, against grep`, resolve(process.env.BENCH_REPO));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
