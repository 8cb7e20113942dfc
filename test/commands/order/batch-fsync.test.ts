/**
 * The real binary under strace: a line's request is written to the socket only after its "sending"
 * record was written to the journal and an fdatasync of the journal completed.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { expect, it } from 'vitest';
import { writeOrderLines } from '../../helpers/batch.js';
import { BIN } from '../../helpers/cli.js';
import { useE2E } from '../../helpers/e2e.js';
import { call } from '../../helpers/sandbox.js';
import { describeWithTools } from '../../helpers/tools.js';

const e2e = useE2E();

type Step = { kind: 'sending'; line: number } | { kind: 'synced' } | { kind: 'post' };

/** What the trace says happened, in order: "sending" records, completed syncs of the journal, requests. */
function stepsOf(trace: string, journalFile: string): Step[] {
  const lines = trace.split('\n');
  const opened = lines
    .map((l) => l.match(new RegExp(`openat\\(.*"${journalFile}".*= (\\d+)$`)))
    .find(Boolean);
  expect(opened, 'the trace shows the journal opened').toBeTruthy();
  const fd = opened![1];
  const syncing = new Set<string>();
  const steps: Step[] = [];
  for (const line of lines) {
    const pid = line.split(' ')[0]!;
    const sending = new RegExp(
      `write\\(${fd}, ".*\\\\"line\\\\":(\\d+),\\\\"event\\\\":\\\\"sending\\\\"`,
    ).exec(line);
    if (sending) steps.push({ kind: 'sending', line: Number(sending[1]) });
    else if (line.includes(`fdatasync(${fd}) `) && line.endsWith('= 0')) steps.push({ kind: 'synced' });
    else if (line.includes(`fdatasync(${fd} <unfinished`)) syncing.add(pid);
    else if (line.includes('<... fdatasync resumed>') && syncing.delete(pid) && line.endsWith('= 0'))
      steps.push({ kind: 'synced' });
    else if (/ writev?\(/.test(line) && line.includes('POST /v2/api/checkout')) steps.push({ kind: 'post' });
  }
  return steps;
}

describeWithTools(['strace'], 'a batch under strace', () => {
  it('writes each line\'s request only after its "sending" record is written and synced', async () => {
    await e2e.login();
    await call(e2e.sb.url, 'DELETE', '/_sandbox/journal');
    const journalFile = join(e2e.dir, 'orders.journal');
    const trace = join(e2e.dir, 'trace');
    const args = ['order', 'create', '--env', 'sandbox', '--input', writeOrderLines(e2e.dir, 3)];
    const batch = await execa(
      'strace',
      [
        '-f',
        '-qq',
        '-s',
        '256',
        '-e',
        'trace=openat,write,writev,fdatasync',
        '-o',
        trace,
        process.execPath,
        BIN,
        ...args,
        '--journal',
        journalFile,
        '--concurrency',
        '1',
        '-o',
        'ndjson',
      ],
      { env: e2e.env(), extendEnv: false, reject: false, timeout: 30_000 },
    );
    expect(batch.exitCode, String(batch.stderr)).toBe(0);
    const steps = stepsOf(readFileSync(trace, 'utf8'), journalFile);
    // At concurrency 1, line n is the nth request: before it, its record, then a completed sync.
    const posts = steps.flatMap((step, i) => (step.kind === 'post' ? [i] : []));
    expect(posts).toHaveLength(3);
    posts.forEach((at, n) => {
      const before = steps.slice(0, at);
      const record = before.findIndex((step) => step.kind === 'sending' && step.line === n + 1);
      expect(record, `line ${n + 1}'s "sending" record before its request`).toBeGreaterThanOrEqual(0);
      expect(
        before.slice(record + 1).some((step) => step.kind === 'synced'),
        `a sync of the journal between line ${n + 1}'s record and its request`,
      ).toBe(true);
    });
  });
});
