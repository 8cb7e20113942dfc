/**
 * V8's heap settings for long work (heap-settings.ts), against a stand-in for the process: which
 * flag each work sets, that a setting given to node by hand is left as it is, and that the process's
 * context (createContext) sets them only when asked. A unit test: the real V8 is the test worker's.
 */
import { describe, expect, it } from 'vitest';
import { createContext } from '../src/context.js';
import { compilerTuned, type LongWork, resetHeapSettings, setHeapFor } from '../src/heap-settings.js';

/** A process with what createContext and setHeapFor use, recording the V8 flags set. */
function standInProcess(execArgv: string[] = [], nodeOptions?: string) {
  const flags: string[] = [];
  const stream = { isTTY: false };
  const proc = {
    execArgv,
    env: { NODE_OPTIONS: nodeOptions, PAYORDER_CLIENT_SECRET_ID: 'kept-out' },
    stdout: stream,
    stderr: stream,
    stdin: stream,
    getBuiltinModule: (name: string) => {
      expect(name).toBe('node:v8');
      return { setFlagsFromString: (flag: string) => flags.push(flag) };
    },
  };
  return { proc: proc as unknown as NodeJS.Process, flags };
}

const set = (work: LongWork, execArgv: string[] = [], nodeOptions?: string) => {
  const { proc, flags } = standInProcess(execArgv, nodeOptions);
  setHeapFor(work, proc);
  return flags;
};

/** What a batch sets besides its old generation's growth: its compiler's settings. */
const COMPILER = ['--no-maglev', '--invocation-count-for-turbofan=500'];

describe('setHeapFor', () => {
  it('serving keeps the young generation at its size; both grow the old generation by a fifth', () => {
    expect(set('serving')).toEqual(['--semi-space-growth-factor=1', '--heap-growing-percent=20']);
    expect(set('batch')).toEqual(['--heap-growing-percent=20', ...COMPILER]);
  });

  it('a batch skips Maglev and optimizes with TurboFan early, and says so (no code cache after that)', () => {
    const batch = standInProcess();
    expect(compilerTuned(batch.proc)).toBe(false);
    setHeapFor('batch', batch.proc);
    expect(compilerTuned(batch.proc)).toBe(true);
    const sandbox = standInProcess();
    setHeapFor('serving', sandbox.proc);
    expect(compilerTuned(sandbox.proc)).toBe(false);
    // Given by hand, they are the person's, and a code cache is still made under them.
    const byHand = standInProcess(['--maglev'], '--invocation-count-for-turbofan=100');
    setHeapFor('batch', byHand.proc);
    expect(byHand.flags).toEqual(['--heap-growing-percent=20']);
    expect(compilerTuned(byHand.proc)).toBe(false);
  });

  it('the launcher’s own restart flag does not count as given by hand', () => {
    expect(set('batch', ['--max-semi-space-size=4'])).toEqual(['--heap-growing-percent=20', ...COMPILER]);
  });

  it('leaves a setting given by hand as it is, on the command line or in NODE_OPTIONS', () => {
    expect(set('batch', ['--heap-growing-percent=0'])).toEqual(COMPILER);
    expect(set('batch', [], '--max-old-space-size=512 --heap-growing-percent=50')).toEqual(COMPILER);
    expect(set('batch', ['--no-maglev'])).toEqual(['--heap-growing-percent=20', COMPILER[1]]);
    expect(set('serving', ['--max-semi-space-size=64', '--heap-growing-percent=50'])).toEqual([]);
    expect(set('serving', [], '--semi-space-growth-factor=4 --heap-growing-percent=0')).toEqual([]);
    // A young-generation flag says nothing about the old one, and the other way round.
    expect(set('batch', ['--max-semi-space-size=64'])).toEqual(['--heap-growing-percent=20', ...COMPILER]);
    expect(set('serving', ['--min-semi-space-size=8'])).toEqual(['--heap-growing-percent=20']);
    expect(set('serving', ['--heap-growing-percent=50'])).toEqual(['--semi-space-growth-factor=1']);
  });
});

describe('resetHeapSettings', () => {
  const reset = (execArgv: string[] = [], nodeOptions?: string) => {
    const { proc, flags } = standInProcess(execArgv, nodeOptions);
    resetHeapSettings(proc);
    return flags;
  };

  it('puts both heap flags back to V8’s defaults (a code cache is refused under other flags), but not one given by hand', () => {
    expect(reset()).toEqual(['--semi-space-growth-factor=2', '--heap-growing-percent=0']);
    // A batch's restart gives the young generation's size by hand (the launcher), and sets only the old one.
    expect(reset(['--max-semi-space-size=4'])).toEqual(['--heap-growing-percent=0']);
    expect(reset(['--heap-growing-percent=50'])).toEqual(['--semi-space-growth-factor=2']);
    expect(reset([], '--semi-space-growth-factor=4')).toEqual(['--heap-growing-percent=0']);
  });
});

describe("the process's context", () => {
  it('sets nothing until a command’s long work begins, then that work’s setting', () => {
    const { proc, flags } = standInProcess();
    const ctx = createContext(proc, new AbortController().signal, new AbortController().signal);
    expect(flags).toEqual([]);
    ctx.heapFor!('batch');
    expect(flags).toEqual(['--heap-growing-percent=20', ...COMPILER]);
  });

  it('keeps the client secret in the context and out of the environment programs it starts inherit', () => {
    const { proc } = standInProcess();
    const ctx = createContext(proc, new AbortController().signal, new AbortController().signal);
    expect(ctx.env.PAYORDER_CLIENT_SECRET_ID).toBe('kept-out');
    expect(proc.env.PAYORDER_CLIENT_SECRET_ID).toBeUndefined();
  });
});
