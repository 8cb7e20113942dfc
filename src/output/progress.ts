/**
 * A progress line on stderr for long work, only where a person is looking: a terminal that reports
 * its width (a bare pseudo-terminal reports none, and the spinner would loop forever), not --quiet.
 */
import type { Context } from '../context.js';

export interface Progress {
  update(text: string): void;
  stop(): void;
}

export async function createProgress(ctx: Context): Promise<Progress | undefined> {
  if (!ctx.io.stderrIsTTY || ctx.io.stderrColumns <= 0 || ctx.flags.quiet) return undefined;
  const { default: ora } = await import('ora');
  const spinner = ora({ stream: ctx.io.stderr as NodeJS.WriteStream, discardStdin: false }).start(
    'starting…',
  );
  return {
    update: (text) => {
      spinner.text = text;
    },
    stop: () => spinner.stop(),
  };
}
