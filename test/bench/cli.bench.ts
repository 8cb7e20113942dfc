/**
 * `npm run bench`: payorder's own costs, each beside its yardstick from the same run.
 * 1. Whole-process time of `payorder --version`, `--help` and `order get` (cached token, local
 *    sandbox) as ratios over bare `node -e 0`, runs interleaved.
 * 2. A 10,000-line batch (concurrency 16) in orders/s beside autocannon's requests/s on the same
 *    sandbox endpoint with 16 connections.
 * 3. Peak RSS of batches of 10,000 and 100,000 lines.
 * 4. migrate-check over a generated tree of 20,000 files: files/s and peak RSS.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BIN = join(ROOT, 'bin/payorder.js');
const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const work = mkdtempSync(join(tmpdir(), 'payorder-bench-'));

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

function timed(args: string[], env: NodeJS.ProcessEnv): number {
  const started = performance.now();
  const result = spawnSync(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
  if (result.status !== 0) throw new Error(`${args.join(' ')} failed: ${result.stderr}`);
  return performance.now() - started;
}

/** Runs a command to its end, sampling its peak RSS (VmHWM) from /proc. */
function peak(
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ ms: number; peakMb: number; code: number | null }> {
  const started = performance.now();
  const child: ChildProcess = spawn(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'inherit'] });
  let peakKb = 0;
  const sample = setInterval(() => {
    try {
      peakKb = Math.max(
        peakKb,
        Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))![1]),
      );
    } catch {}
  }, 20);
  return new Promise((resolve) =>
    child.once('exit', (code) => {
      clearInterval(sample);
      resolve({ ms: performance.now() - started, peakMb: peakKb / 1024, code });
    }),
  );
}

function batchFile(lines: number): string {
  const file = join(work, `batch-${lines}.ndjson`);
  const row = (i: number) =>
    `{"amount":"${(i % 9000) + 1}.${String(i % 100).padStart(2, '0')}","description":"bench ${i}","success":"https://s.example/ok","fail":"https://s.example/ko"}\n`;
  let text = '';
  for (let i = 1; i <= lines; i++) text += row(i);
  writeFileSync(file, text);
  return file;
}

async function main() {
  const sandbox = spawn(
    process.execPath,
    [BIN, 'sandbox', '--port', '0', '--json', '--journal-limit', '100'],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const { url } = JSON.parse(
    await new Promise<string>((resolve) =>
      sandbox.stdout!.once('data', (c: Buffer) => resolve(c.toString())),
    ),
  );
  const env = {
    ...process.env,
    PAYORDER_CONFIG_DIR: join(work, 'config'),
    PAYORDER_AUTH_URL: url,
    PAYORDER_CHECKOUT_URL: url,
    NO_COLOR: '1',
  };
  try {
    spawnSync(process.execPath, [BIN, 'login', '--env', 'sandbox', '--quiet'], { env });
    const uuid = spawnSync(
      process.execPath,
      [
        BIN,
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
      { env, encoding: 'utf8' },
    ).stdout.trim();

    // 1. Start-up, interleaved so the machine's noise hits every command alike.
    const commands: Record<string, string[]> = {
      'node -e 0': ['-e', '0'],
      'payorder --version': [BIN, '--version'],
      'payorder --help': [BIN, '--help'],
      'payorder order get': [BIN, 'order', 'get', uuid, '--env', 'sandbox', '--json'],
    };
    const times: Record<string, number[]> = Object.fromEntries(Object.keys(commands).map((k) => [k, []]));
    for (const args of Object.values(commands)) timed(args, env); // warm the compile cache
    for (let i = 0; i < RUNS; i++)
      for (const [name, args] of Object.entries(commands)) times[name]!.push(timed(args, env));
    const bare = median(times['node -e 0']!);
    console.log(`start-up (median of ${RUNS}, interleaved; Node ${process.version})`);
    for (const [name, values] of Object.entries(times)) {
      console.log(
        `  ${name.padEnd(20)} ${median(values).toFixed(1).padStart(6)} ms  ${(median(values) / bare).toFixed(2)}× bare node`,
      );
    }

    // 2. Batch throughput beside autocannon on the same endpoint.
    const token = spawnSync(process.execPath, [BIN, 'token', '--env', 'sandbox'], {
      env,
      encoding: 'utf8',
    }).stdout.trim();
    const cannonStarted = performance.now();
    await autocannon({
      url: `${url}/v2/api/checkout`,
      method: 'POST',
      connections: 16,
      amount: 10_000,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        amount: '1250',
        description: 'bench',
        callback_success: 'https://s.example/ok',
        callback_fail: 'https://s.example/ko',
      }),
    });
    // autocannon's own duration is rounded to whole seconds; the wall clock is exact enough.
    const cannonRate = 10_000 / ((performance.now() - cannonStarted) / 1000);
    const ten = await peak(
      [
        BIN,
        'order',
        'create',
        '--env',
        'sandbox',
        '--input',
        batchFile(10_000),
        '--concurrency',
        '16',
        '-o',
        'ndjson',
        '--quiet',
      ],
      env,
    );
    const batchRate = 10_000 / (ten.ms / 1000);
    console.log('batch of 10,000 lines, concurrency 16');
    console.log(`  payorder batch      ${batchRate.toFixed(0).padStart(6)} orders/s (exit ${ten.code})`);
    console.log(
      `  autocannon          ${cannonRate.toFixed(0).padStart(6)} requests/s (16 connections, same endpoint)`,
    );
    console.log(`  ratio               ${((batchRate / cannonRate) * 100).toFixed(0)}%`);

    // 3. Memory against input size.
    const hundred = await peak(
      [
        BIN,
        'order',
        'create',
        '--env',
        'sandbox',
        '--input',
        batchFile(100_000),
        '--concurrency',
        '16',
        '-o',
        'ndjson',
        '--quiet',
      ],
      env,
    );
    console.log('peak RSS of a batch');
    console.log(`  10,000 lines        ${ten.peakMb.toFixed(0).padStart(6)} MB`);
    console.log(
      `  100,000 lines       ${hundred.peakMb.toFixed(0).padStart(6)} MB (${(100_000 / (hundred.ms / 1000)).toFixed(0)} orders/s, exit ${hundred.code})`,
    );
  } finally {
    sandbox.kill('SIGTERM');
  }

  // 4. migrate-check over a generated tree.
  const tree = join(work, 'tree');
  const sources = [
    'fetch(`${base}/1/checkout`, { body: JSON.stringify({ amount: total.toFixed(2), userName }) });\n',
    "$body = ['user_name' => $u, 'client_id' => $c];\n",
    'status = "PENDING"\nurl = base + "/order/" + id\n',
  ];
  for (let i = 0; i < 20_000; i++) {
    const dir = join(tree, `pkg${i % 200}`, `mod${i % 7}`);
    if (i < 1400) mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, `file${i}.${['js', 'php', 'py'][i % 3]}`),
      // About 60 lines of ordinary code with the v1 markers of one integration in them.
      `// file ${i}\n${'const total = items.reduce((sum, item) => sum + item.price, 0);\n'.repeat(30)}${sources[i % 3]}${'log(`done ${total}`);\n'.repeat(30)}`,
    );
  }
  const scanned = await peak([BIN, 'migrate-check', tree, '--json'], { ...process.env, HOME: work });
  console.log('migrate-check over 20,000 generated files');
  console.log(
    `  ${(scanned.ms / 1000).toFixed(1)} s, ${(20_000 / (scanned.ms / 1000)).toFixed(0)} files/s, peak RSS ${scanned.peakMb.toFixed(0)} MB (exit ${scanned.code})`,
  );
  rmSync(work, { recursive: true, force: true });
}

await main();
