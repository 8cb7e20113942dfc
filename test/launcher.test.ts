/**
 * The launcher (bin/payorder.js) restarts a batch in place with its V8 settings, and nothing else.
 * A script loaded before the CLI (NODE_OPTIONS=--require, which a restart keeps) notes each start of
 * the process and its exit: its id, its node options and its malloc arena limit.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { recordsOf, writeOrderLines } from './helpers/batch.js';
import { tempDir } from './helpers/cli.js';
import { useE2E } from './helpers/e2e.js';

/** What a batch is restarted with (bin/payorder.js); the rest is set once it begins (src/heap-settings.ts). */
const BATCH_FLAGS = ['--max-semi-space-size=4'];

interface Noted {
  event: 'start' | 'exit';
  pid: number;
  execArgv: string[];
  arenas?: string;
}

/** A --require script that appends what it notes to a file of its own, and a reader of that file. */
function noter(): { script: string; notes: () => Noted[] } {
  const dir = tempDir();
  const file = join(dir, 'notes.ndjson');
  const script = join(dir, 'note.cjs');
  writeFileSync(
    script,
    `const { appendFileSync } = require('node:fs');
const note = (event) => appendFileSync(${JSON.stringify(file)}, JSON.stringify({ event, pid: process.pid, execArgv: process.execArgv, arenas: process.env.MALLOC_ARENA_MAX }) + '\\n');
note('start');
process.on('exit', () => note('exit'));
`,
  );
  return { script, notes: () => recordsOf(readFileSync(file, 'utf8')) };
}

/** What a process that was not restarted notes: its start and its exit, with no node options. */
const NOT_RESTARTED = [
  { event: 'start', execArgv: [] },
  { event: 'exit', execArgv: [] },
];
const events = (notes: Noted[]) => notes.map(({ event, execArgv }) => ({ event, execArgv }));

describe('the launcher', () => {
  const e2e = useE2E();

  it('restarts a batch in place, once, with its young generation’s size and one malloc arena', async () => {
    await e2e.login();
    const { script, notes } = noter();
    const input = writeOrderLines(tempDir(), 3);
    const result = await e2e.run(['order', 'create', '--env', 'sandbox', '--input', input, '-o', 'ndjson'], {
      spawn: true,
      env: { NODE_OPTIONS: `--require=${script}` },
    });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(recordsOf(result.stdout).map((record) => record.outcome)).toEqual([
      'created',
      'created',
      'created',
    ]);
    const [first, restarted, exit, ...more] = notes();
    expect(more).toEqual([]);
    expect(first).toMatchObject({ event: 'start', execArgv: [] });
    expect(first!.arenas).toBeUndefined();
    // The same process (execve), which only the restarted image leaves.
    expect(restarted).toEqual({ event: 'start', pid: first!.pid, execArgv: BATCH_FLAGS, arenas: '1' });
    expect(exit).toEqual({ ...restarted, event: 'exit' });
  });

  it('leaves a batch as it is when a heap setting was given by hand, and a one-shot command always', async () => {
    await e2e.login();
    const byHand = noter();
    const input = writeOrderLines(tempDir(), 1);
    const batch = await e2e.run(['order', 'create', '--env', 'sandbox', '--input', input, '-o', 'ndjson'], {
      spawn: true,
      env: { NODE_OPTIONS: `--require=${byHand.script} --max-semi-space-size=8` },
    });
    expect(batch.exitCode, batch.stderr).toBe(0);
    expect(events(byHand.notes())).toEqual(NOT_RESTARTED);

    const oneShot = noter();
    const help = await e2e.run(['order', 'create', '--help'], {
      spawn: true,
      env: { NODE_OPTIONS: `--require=${oneShot.script}` },
    });
    expect(help.exitCode, help.stderr).toBe(0);
    expect(events(oneShot.notes())).toEqual(NOT_RESTARTED);
  });
});
