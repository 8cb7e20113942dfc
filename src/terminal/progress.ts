/**
 * Progress on stderr, only where a person is looking: a terminal that reports its width (a bare
 * pseudo-terminal reports none, and the spinner would loop forever), not --quiet. A progress line
 * for long work (a batch), and a spinner for a single request that takes longer than a moment.
 */
import type { Context } from '../context.js';

export interface Progress {
  /** Shows the text `text()` makes, asking for it at most every UPDATE_MS (a batch calls this per line). */
  update(text: () => string): void;
  stop(): void;
}

/** The spinner redraws every 80 ms: a newer text than that would not be seen. */
const UPDATE_MS = 100;

/** How long a single request may take before a spinner shows: a quick answer shows nothing at all. */
export const SPINNER_DELAY_MS = 400;

const showsProgress = (ctx: Context) => ctx.io.stderrIsTTY && ctx.io.stderrColumns > 0 && !ctx.flags.quiet;

async function startSpinner(ctx: Context, text: string) {
  const { default: ora } = await import('ora');
  // The spinner's frame is colored only where payorder colors (NO_COLOR, --no-color, TERM=dumb).
  const color = ctx.io.colorErr ? 'cyan' : false;
  return ora({ stream: ctx.io.stderr as NodeJS.WriteStream, discardStdin: false, color }).start(text);
}

export async function createProgress(ctx: Context): Promise<Progress | undefined> {
  if (!showsProgress(ctx)) return undefined;
  const spinner = await startSpinner(ctx, 'starting…');
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

/**
 * The result of `work`, with a spinner saying `text` on stderr while it takes longer than
 * SPINNER_DELAY_MS; the spinner is gone when the work is done, whatever its outcome.
 */
export async function whileWaiting<T>(ctx: Context, text: string, work: () => Promise<T>): Promise<T> {
  if (!showsProgress(ctx)) return work();
  let done = false;
  let spinner: Awaited<ReturnType<typeof startSpinner>> | undefined;
  const timer = setTimeout(() => {
    void startSpinner(ctx, text).then((started) => {
      if (done) started.stop();
      else spinner = started;
    });
  }, SPINNER_DELAY_MS);
  try {
    return await work();
  } finally {
    done = true;
    clearTimeout(timer);
    spinner?.stop();
  }
}
