/**
 * `order create --input` as a real process: a reader that goes away (`| head -1`), a second Ctrl-C
 * while requests hang, and a stop while the input (a FIFO with no writer) gives nothing.
 */
import { existsSync, readdirSync, readFileSync, readlinkSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { execa } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';
import { NOT_SENT_ERROR } from '../../../src/orders/line-recorder.js';
import { batchCommand, journalRecords, recordsOf, sentEvents, writeOrderLines } from '../../helpers/batch.js';
import { BIN, expectNoLeak } from '../../helpers/cli.js';
import { useE2E } from '../../helpers/e2e.js';
import { call, journal, slowCheckouts } from '../../helpers/sandbox.js';
import { describeWithTools, needsTool } from '../../helpers/tools.js';

const e2e = useE2E();

const writeLines = (count: number) => writeOrderLines(e2e.dir, count);
const checkoutCount = async () => (await journal(e2e.sb.url, 'checkout')).length;

/** The spawned CLI with its stderr readable while it runs. */
function spawnBatch(args: string[]) {
  const child = execa(process.execPath, [BIN, 'order', 'create', '--env', 'sandbox', ...args], {
    env: e2e.env(),
    extendEnv: false,
    reject: false,
    timeout: 30_000,
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return { child, stderr: () => stderr };
}

/**
 * Waits until payorder has taken the first signal (it says "stopping: …"), then long enough that a
 * second one counts: main.ts takes a signal within 250 ms of the first as a re-raise of it, not a
 * person pressing again. Counted from the message, which payorder writes once it has the signal.
 */
async function readyForSecondSignal(stderr: () => string): Promise<void> {
  await expect.poll(stderr, { timeout: 5_000, interval: 20 }).toContain('stopping: no new line is sent');
  await delay(300);
}

describeWithTools(['bash', 'head'], 'order create --input | head -1', () => {
  it('the reader goes away: exit 141, the summary on stderr, and the sandbox holds what the journal says', async () => {
    await e2e.loginAfresh();
    const file = writeLines(300);
    const journalFile = join(e2e.dir, 'orders.journal');
    await slowCheckouts(e2e.sb.url, 50);
    const script = [
      'set -o pipefail',
      '"$NODE" "$BIN" order create --env sandbox --input "$FILE" --journal "$JOURNAL" -o ndjson | head -1',
      'status=("${PIPESTATUS[@]}")',
      'echo "pipestatus ${status[*]}"',
      'exit "${status[0]}"',
    ].join('\n');
    const result = await execa('bash', ['-c', script], {
      env: e2e.env({ NODE: process.execPath, BIN, FILE: file, JOURNAL: journalFile }),
      extendEnv: false,
      reject: false,
      timeout: 30_000,
    });
    await call(e2e.sb.url, 'DELETE', '/_sandbox/force');
    const [first, pipestatus, ...rest] = String(result.stdout).trim().split('\n');
    const stderr = String(result.stderr);
    expectNoLeak({ exitCode: result.exitCode ?? -1, stdout: String(result.stdout), stderr });

    expect(result.exitCode, stderr).toBe(141);
    expect(pipestatus).toBe('pipestatus 141 0');
    expect(rest).toEqual([]);
    expect(JSON.parse(first!)).toMatchObject({ line: 1, outcome: 'created' });
    expect(stderr).toMatch(
      /error: stdout was closed: stopped sending after \d+ lines in [\d.]+ s: \d+ created, 0 already created, 0 failed, 0 outcome unknown; rerun with --journal /,
    );
    expect(stderr).toContain(
      'hint: read the results to the end (or give -o to a file); the journal says what was done',
    );

    const last = sentEvents(journalFile);
    const created = last.filter((event) => event === 'created').length;
    const sending = last.filter((event) => event === 'sending').length;
    expect(last.filter((event) => event !== 'created' && event !== 'sending')).toEqual([]);
    const orders = (await e2e.orders()).length;
    expect(orders).toBeGreaterThanOrEqual(created);
    expect(orders).toBeLessThanOrEqual(created + sending);
    // It stopped sending well before the end of the file.
    expect(orders).toBeLessThan(300);
    expect(await checkoutCount()).toBe(orders);
  });
});

describe('a second Ctrl-C while requests hang', () => {
  it('ends payorder at once with exit 130, saying how many requests were in flight; a resume never resends them', async () => {
    await e2e.loginAfresh();
    const file = writeLines(20);
    const journalFile = join(e2e.dir, 'orders.journal');
    await call(e2e.sb.url, 'POST', '/_sandbox/force', { route: 'checkout', fault: 'hang', times: 1000 });
    const { child, stderr } = spawnBatch([
      '--input',
      file,
      '--journal',
      journalFile,
      '--concurrency',
      '4',
      '-o',
      'ndjson',
    ]);
    // A hung request is recorded once the sandbox has carried it out and withheld its answer.
    await expect.poll(checkoutCount, { timeout: 15_000, interval: 20 }).toBe(4);
    // Four more lines are recorded ahead of them, waiting for a slot, and no more.
    const recorded = () => journalRecords(journalFile).map((r) => [r.line, r.event]);
    const sending = (lines: number[]) => lines.map((line) => [line, 'sending']);
    await expect.poll(recorded, { timeout: 5_000, interval: 20 }).toEqual(sending([1, 2, 3, 4, 5, 6, 7, 8]));
    await delay(200);
    expect(recorded()).toEqual(sending([1, 2, 3, 4, 5, 6, 7, 8]));
    child.kill('SIGINT');
    await readyForSecondSignal(stderr);
    expect(stderr()).toContain(
      'stopping: no new line is sent; finishing 4 requests in flight (Ctrl-C again to abort at once)',
    );
    child.kill('SIGINT');
    const secondSignal = performance.now();
    const result = await child;
    const ended = performance.now() - secondSignal;
    expectNoLeak({ exitCode: result.exitCode ?? -1, stdout: String(result.stdout), stderr: stderr() });

    expect(result.exitCode, stderr()).toBe(130);
    expect(ended).toBeLessThan(2_000);
    expect(String(result.stdout)).toBe('');
    expect(stderr()).toMatch(
      /error: aborted after 0 lines in [\d.]+ s: 0 created, 0 already created, 0 failed, 0 outcome unknown; 4 requests in flight: their outcome is unknown/,
    );
    expect(stderr()).toContain(
      `hint: rerun with --journal ${journalFile}: lines in flight are reported unknown, never sent again`,
    );
    // Nothing was sent after the first Ctrl-C: the lines recorded ahead are recorded not sent, in the
    // journal and in the ledger (at once, before the second Ctrl-C ended payorder), so a resume sends them.
    expect(await checkoutCount()).toBe(4);
    const notSent = journalRecords(journalFile).filter((r) => r.event === 'failed');
    expect(notSent.map((r) => [r.line, r.error])).toEqual([5, 6, 7, 8].map((line) => [line, NOT_SENT_ERROR]));

    await call(e2e.sb.url, 'DELETE', '/_sandbox/force');
    await call(e2e.sb.url, 'DELETE', '/_sandbox/journal');
    const resumed = await e2e.run(batchCommand(file, '--journal', journalFile));
    expect(resumed.exitCode, resumed.stderr).toBe(5);
    const records = recordsOf(resumed.stdout);
    expect(records.filter((r) => r.outcome === 'unknown').map((r) => r.line)).toEqual([1, 2, 3, 4]);
    expect(resumed.stderr).toContain('16 created, 0 already created, 0 failed, 4 outcome unknown');
    const sent = (await journal(e2e.sb.url, 'checkout')).map((e) => e.body.description);
    expect(sent).toHaveLength(16);
    expect(sent).not.toContain('line 1');
    // The hung requests were carried out: with the resumed lines, every line has exactly one order.
    expect(await e2e.orders()).toHaveLength(20);
  });
});

describe('a second Ctrl-C while one line hangs and those after it are done', () => {
  it('prints the lines done (held back behind the one in flight) and counts them in the summary', async () => {
    await e2e.loginAfresh();
    const file = writeLines(20);
    // One of the first lines hangs; the lines after it are created and wait for their turn.
    await call(e2e.sb.url, 'POST', '/_sandbox/force', { route: 'checkout', fault: 'hang', times: 1 });
    const { child, stderr } = spawnBatch(['--input', file, '--concurrency', '4', '-o', 'tsv']);
    await expect.poll(checkoutCount, { timeout: 15_000, interval: 20 }).toBeGreaterThanOrEqual(12);
    await delay(200);
    child.kill('SIGINT');
    await readyForSecondSignal(stderr);
    child.kill('SIGINT');
    const result = await child;
    expect(result.exitCode, stderr()).toBe(130);

    // Every order the sandbox made but the hung one is a row of the TSV, with its line.
    const made = (await e2e.orders()).map((order: { uuid: string }) => order.uuid);
    const [header, ...rows] = String(result.stdout).trim().split('\n');
    expect(header!.split('\t').slice(0, 3)).toEqual(['line', 'outcome', 'uuid']);
    const created = rows.map((row) => row.split('\t')).filter((cells) => cells[1] === 'created');
    expect(created.length).toBe(made.length - 1);
    expect(made).toEqual(expect.arrayContaining(created.map((cells) => cells[2])));
    expect(stderr()).toMatch(
      new RegExp(
        `error: aborted after ${created.length} lines in [\\d.]+ s: ${created.length} created, .*; 1 request in flight`,
      ),
    );
  });
});

// A closed terminal or a dropped SSH session sends SIGHUP: the batch stops as on SIGTERM.
describe.skipIf(process.platform === 'win32')('SIGHUP during a batch', () => {
  it('finishes the requests in flight, records them created, prints the summary and exits 129', async () => {
    await e2e.loginAfresh();
    const file = writeLines(200);
    const journalFile = join(e2e.dir, 'orders.journal');
    await slowCheckouts(e2e.sb.url, 200);
    const { child, stderr } = spawnBatch(['--input', file, '--journal', journalFile, '-o', 'ndjson']);
    await expect.poll(checkoutCount, { timeout: 15_000, interval: 20 }).toBeGreaterThanOrEqual(8);
    child.kill('SIGHUP');
    const result = await child;
    await call(e2e.sb.url, 'DELETE', '/_sandbox/force');
    expectNoLeak({ exitCode: result.exitCode ?? -1, stdout: String(result.stdout), stderr: stderr() });

    expect(result.signal, stderr()).toBeUndefined();
    expect(result.exitCode, stderr()).toBe(129);
    const orders = (await e2e.orders()).length;
    expect(orders).toBeLessThan(200);
    // Every request sent was answered and recorded: no line is left "sending" (unknown on a rerun).
    expect(sentEvents(journalFile)).toEqual(Array(orders).fill('created'));
    expect(recordsOf(String(result.stdout)).map((r) => r.outcome)).toEqual(Array(orders).fill('created'));
    expect(stderr()).toContain('stopping: no new line is sent; finishing');
    expect(stderr()).toMatch(
      new RegExp(`error: interrupted after ${orders} lines in [\\d.]+ s: ${orders} created`),
    );
  });
});

// The terminal itself goes away: payorder gets SIGHUP, and its writes to the terminal fail (EIO).
describeWithTools(['script'], 'a batch on a terminal that is closed', () => {
  it('finishes the requests in flight and records them created; its summary goes to stderr', async () => {
    await e2e.loginAfresh();
    const file = writeLines(200);
    const journalFile = join(e2e.dir, 'orders.journal');
    const errors = join(e2e.dir, 'stderr.txt');
    await slowCheckouts(e2e.sb.url, 200);
    const command = `"${process.execPath}" "${BIN}" order create --env sandbox --input "${file}" --journal "${journalFile}" 2>"${errors}"`;
    const terminal = execa('script', ['-qefc', command, '/dev/null'], {
      env: e2e.env(),
      extendEnv: false,
      reject: false,
      timeout: 30_000,
    });
    await expect.poll(checkoutCount, { timeout: 15_000, interval: 20 }).toBeGreaterThanOrEqual(8);
    // The terminal closes: `script` holds its master side, and the kernel hangs up its session.
    terminal.kill('SIGKILL');
    await terminal;
    const stderr = () => (existsSync(errors) ? readFileSync(errors, 'utf8') : '');
    await expect
      .poll(stderr, { timeout: 10_000, interval: 50 })
      .toMatch(/error: interrupted after \d+ lines/);
    await call(e2e.sb.url, 'DELETE', '/_sandbox/force');

    expect(stderr()).not.toContain('EIO');
    const orders = (await e2e.orders()).length;
    expect(orders).toBeLessThan(200);
    expect(stderr()).toContain(`error: interrupted after ${orders} lines`);
    expect(sentEvents(journalFile)).toEqual(Array(orders).fill('created'));
  });
});

/**
 * Whether the process or one it started has `path` open (Linux: /proc/PID/fd): the launcher runs a
 * batch in a Node of its own.
 */
function hasOpen(pid: number, path: string): boolean {
  let children: number[] = [];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .split(' ')
      .filter(Boolean)
      .map(Number);
  } catch {}
  if (children.some((child) => hasOpen(child, path))) return true;
  const folder = `/proc/${pid}/fd`;
  try {
    return readdirSync(folder).some((fd) => {
      try {
        return readlinkSync(join(folder, fd)) === path;
      } catch {
        return false;
      }
    });
  } catch {
    return false;
  }
}

const mkfifo = needsTool('mkfifo');
describeWithTools(['mkfifo'], 'order create --input FIFO with no writer', () => {
  beforeAll(mkfifo.check);

  /** Starts a batch reading a FIFO nobody writes to; resolves once payorder has it open. */
  async function waitingOnFifo() {
    await e2e.loginAfresh();
    const fifo = join(e2e.dir, 'orders.fifo');
    await execa('mkfifo', [fifo]);
    const running = spawnBatch(['--input', fifo, '-o', 'ndjson']);
    const real = realpathSync(fifo);
    await expect.poll(() => hasOpen(running.child.pid!, real), { timeout: 15_000, interval: 20 }).toBe(true);
    return running;
  }

  it.skipIf(!existsSync('/proc/self/fd'))(
    'SIGTERM, then a second SIGTERM: it ends within 2 s with exit 130, nothing sent',
    async () => {
      const { child, stderr } = await waitingOnFifo();
      child.kill('SIGTERM');
      const firstSignal = performance.now();
      // The first one alone may already end it; if not, the second one must.
      const endedAlready = await Promise.race([
        child.then(() => true),
        readyForSecondSignal(stderr).then(() => false),
      ]);
      if (!endedAlready) child.kill('SIGTERM');
      const result = await child;
      expect(performance.now() - firstSignal).toBeLessThan(2_000);
      expect(result.exitCode, stderr()).toBe(130);
      expect(String(result.stdout)).toBe('');
      expect(await journal(e2e.sb.url)).toEqual([]);
    },
  );

  it.skipIf(!existsSync('/proc/self/fd'))(
    'a single SIGINT ends it (the stop does not wait for input): exit 130, the summary, nothing sent',
    async () => {
      const { child, stderr } = await waitingOnFifo();
      child.kill('SIGINT');
      const signalled = performance.now();
      const result = await child;
      expect(performance.now() - signalled).toBeLessThan(2_000);
      expect(result.exitCode, stderr()).toBe(130);
      expect(String(result.stdout)).toBe('');
      expect(stderr()).toContain('stopping: no new line is sent; finishing 0 requests in flight');
      expect(stderr()).toMatch(/error: interrupted after 0 lines in [\d.]+ s: 0 created/);
      expect(await journal(e2e.sb.url)).toEqual([]);
    },
  );
});

/** The environment and command line of the Node the launcher started for a batch (Linux's /proc). */
async function batchNode(launcher: number): Promise<{ env: string[]; argv: string[] }> {
  const children = join('/proc', String(launcher), 'task', String(launcher), 'children');
  let child = '';
  await expect.poll(() => (child = readFileSync(children, 'utf8').trim()), { timeout: 10_000 }).not.toBe('');
  const read = (file: string) => readFileSync(join('/proc', child, file), 'utf8').split('\0');
  return { env: read('environ'), argv: read('cmdline') };
}

describe.runIf(process.platform === 'linux')('the Node a batch runs in (read from /proc)', () => {
  it("has the batch's heap options, and glibc's allocator tuned unless the environment tunes it", async () => {
    await e2e.loginAfresh();
    const tuned = (env: string[]) => env.filter((v) => /^(MALLOC_|GLIBC_TUNABLES=)/.test(v)).sort();
    for (const [given, expected] of [
      [{}, ['MALLOC_ARENA_MAX=2', 'MALLOC_MMAP_THRESHOLD_=16384']],
      [{ MALLOC_ARENA_MAX: '4' }, ['MALLOC_ARENA_MAX=4']],
      [{ MALLOC_TOP_PAD_: '0' }, ['MALLOC_TOP_PAD_=0']],
      [{ GLIBC_TUNABLES: 'glibc.malloc.arena_max=1' }, ['GLIBC_TUNABLES=glibc.malloc.arena_max=1']],
    ] as const) {
      // It waits for its first line on stdin, which stays open until the test ends it.
      const child = execa(process.execPath, [BIN, 'order', 'create', '--env', 'sandbox', '--input', '-'], {
        env: e2e.env(given),
        extendEnv: false,
        reject: false,
        timeout: 30_000,
      });
      try {
        const node = await batchNode(child.pid ?? 0);
        expect(node.argv).toEqual(
          expect.arrayContaining(['--max-semi-space-size=4', '--max-old-space-size=1024']),
        );
        expect(tuned(node.env)).toEqual(expected);
      } finally {
        child.stdin?.end();
        await child;
      }
    }
  });
});
