/**
 * A progress line on stderr for long work, only where a person is looking: a terminal that reports
 * its width (a bare pseudo-terminal reports none, and the spinner would loop forever), not --quiet.
 */
import type { Context } from '../context.js';

export interface Progress {
  /** Shows the text `text()` makes, asking for it at most every UPDATE_MS (a batch calls this per line). */
  update(text: () => string): void;
  stop(): void;
}

/** The spinner redraws every 80 ms: a newer text than that would not be seen. */
const UPDATE_MS = 100;

export async function createProgress(ctx: Context): Promise<Progress | undefined> {
  if (!ctx.io.stderrIsTTY || ctx.io.stderrColumns <= 0 || ctx.flags.quiet) return undefined;
  const { default: ora } = await import('ora');
  const spinner = ora({ stream: ctx.io.stderr as NodeJS.WriteStream, discardStdin: false }).start(
    'starting…',
  );
  let shown = 0;
  return {
    update: (text) => {
      const now = performance.now();
      if (now - shown < UPDATE_MS) return;
      shown = now;
      spinner.text = text();
    },
    stop: () => spinner.stop(),
  };
}
