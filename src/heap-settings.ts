/**
 * V8's settings for payorder's long work, set once that work begins: its heap's, which V8 reads each
 * time it sizes a generation, and a batch's compiler's, which V8 reads each time it decides to
 * optimize a function. They take effect at once, with no restart (the launcher, bin/payorder.js,
 * restarts a batch for the settings V8 reads only at start-up).
 *
 * - A sandbox holds every order it makes (100,000 take about 50 MB of heap), and under load V8 grew
 *   its young generation to tens of MB, which the process then kept: RSS was about 225 MB with
 *   100,000 orders, about 140 MB with the young generation kept at the size start-up left it at,
 *   for a few percent more CPU time per request, and 125 MB with its old generation growing by a
 *   fifth at a time as well (measured after some 260,000 orders made and reset by `npm run bench`).
 * - A batch's old generation grows by a fifth at a time instead of doubling (with the launcher's
 *   small young generation, peak RSS stays under 100 MB whatever the input size). Given at
 *   start-up, the same flag made V8 collect the old generation again and again while modules were
 *   loading: a one-line batch took 320 ms instead of 235 ms.
 *
 * - A batch is bound by its main thread's CPU and runs the same request path thousands of times: it
 *   skips V8's middle tier (Maglev), and TurboFan optimizes a function after 500 calls instead of
 *   3,000, on V8's background thread. With Maglev, a busy main thread left finished Maglev jobs
 *   waiting to be freed (170 at once, 22 MB of malloc, peak RSS over 100 MB); with the optimizing
 *   compiler on the main thread instead, compiling took a tenth of a batch's main thread.
 *   Measured on 10,000 lines: about 15% more orders per second, the same peak RSS. Given at
 *   start-up, these flags also made Node compile its own modules again (its built-in code cache
 *   holds a hash of V8's flags): a one-line batch took 200 ms instead of 155.
 *
 * A setting that was given to node by hand (its command line or NODE_OPTIONS) is left as it is.
 * V8 keeps a hash of its flags in a code cache and refuses a cache whose hash is not its own, so
 * the code cache's writer (src/code-cache.ts) puts the heap's back first (resetHeapSettings). The
 * compiler's are never put back (Node 22 runs without Maglev by default, Node 24 with it): the code
 * cache is written before a batch sets them (the context's heapFor), and not after (compilerTuned).
 */

/** Long work that sets the heap for itself: serving (the sandbox), sending (a batch or bulk lookup). */
export type LongWork = 'serving' | 'batch';

/**
 * A flag payorder sets, V8's default for it (none for one that is never put back), and the options
 * that mean it was given by hand.
 */
interface Setting {
  flag: string;
  byDefault?: string;
  unlessGiven: RegExp;
}

/** The young generation stays at the size it has when the work begins. */
const YOUNG: Setting = {
  flag: '--semi-space-growth-factor=1',
  byDefault: '--semi-space-growth-factor=2',
  unlessGiven: /^--(max-|min-)?semi-space-/,
};
/** The old generation grows by a fifth at a time, not by up to four times what is live. */
const OLD: Setting = {
  flag: '--heap-growing-percent=20',
  byDefault: '--heap-growing-percent=0',
  unlessGiven: /^--heap-growing-percent\b/,
};

/** No Maglev: functions go from the baseline compiler's code to TurboFan's. */
const NO_MAGLEV: Setting = { flag: '--no-maglev', unlessGiven: /^--(no-)?maglev$/ };
/** TurboFan optimizes a function after 500 calls, not 3,000. */
const EARLY_TURBOFAN: Setting = {
  flag: '--invocation-count-for-turbofan=500',
  unlessGiven: /^--invocation-count-for-turbofan\b/,
};

const SETTINGS: Record<LongWork, Setting[]> = {
  serving: [YOUNG, OLD],
  batch: [OLD, NO_MAGLEV, EARLY_TURBOFAN],
};

/** The processes whose compiler settings a batch changed. */
const tuned = new WeakSet<HeapProcess>();

type HeapProcess = Pick<NodeJS.Process, 'execArgv' | 'env' | 'getBuiltinModule'>;

/** Sets each of `settings` that was not given by hand to `value` (its flag, or V8's default). */
function apply(settings: Setting[], value: (setting: Setting) => string, proc: HeapProcess): void {
  const given = [...proc.execArgv, ...(proc.env.NODE_OPTIONS ?? '').split(/\s+/)];
  for (const setting of settings)
    if (!given.some((option) => setting.unlessGiven.test(option))) {
      proc.getBuiltinModule('node:v8').setFlagsFromString(value(setting));
      if (setting.byDefault === undefined) tuned.add(proc);
    }
}

export function setHeapFor(work: LongWork, proc: HeapProcess): void {
  apply(SETTINGS[work], (setting) => setting.flag, proc);
}

/** Puts every heap flag setHeapFor may have set back to V8's default (those given by hand stay). */
export function resetHeapSettings(proc: HeapProcess): void {
  apply([YOUNG, OLD], (setting) => setting.byDefault!, proc);
}

/** Whether a batch changed V8's compiler settings in this process: a code cache made now would be refused. */
export const compilerTuned = (proc: HeapProcess): boolean => tuned.has(proc);
