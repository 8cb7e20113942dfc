/**
 * The process's context (createContext) against a stand-in for the process: the environment it
 * keeps, and what it does for a command that serves. A unit test: the real process's streams and V8
 * settings are those of the test worker, which no test should change.
 */
import { describe, expect, it } from 'vitest';
import { createContext } from '../src/context.js';

/** A process with only what createContext may use, recording what it reads and sets. */
function standInProcess() {
  const seen = { flags: [] as string[] };
  const stream = { isTTY: false };
  const proc = {
    env: { PAYORDER_CLIENT_SECRET_ID: 'kept-out' },
    stdout: stream,
    stderr: stream,
    stdin: stream,
    getBuiltinModule: (name: string) => {
      expect(name).toBe('node:v8');
      return { setFlagsFromString: (flags: string) => seen.flags.push(flags) };
    },
  };
  return { proc: proc as unknown as NodeJS.Process, seen };
}

describe('createContext', () => {
  it('keeps the client secret in the context and out of the environment programs it starts inherit', () => {
    const { proc } = standInProcess();
    const ctx = createContext(proc, new AbortController().signal, new AbortController().signal);
    expect(ctx.env.PAYORDER_CLIENT_SECRET_ID).toBe('kept-out');
    expect(proc.env.PAYORDER_CLIENT_SECRET_ID).toBeUndefined();
  });

  it('serving() keeps V8’s young generation at its size from then on; nothing is set before', () => {
    const { proc, seen } = standInProcess();
    const ctx = createContext(proc, new AbortController().signal, new AbortController().signal);
    expect(seen.flags).toEqual([]);
    ctx.serving!();
    expect(seen.flags).toEqual(['--semi-space-growth-factor=1']);
  });
});
