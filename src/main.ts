/**
 * The entry point: builds the context once, runs the command tree, and turns every error into one
 * line (or a JSON object with --json) on stderr and a documented exit code. The only place that
 * decides how payorder exits.
 */
import { buildProgram, CommanderError, commanderExit } from './cli/program.js';
import { type Context, createContext } from './context.js';
import { CliError, EXIT } from './errors.js';
import { errorLine } from './output/messages.js';

export async function main(argv: string[]): Promise<number> {
  const controller = new AbortController();
  let firstInterrupt = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    const now = performance.now();
    // A second Ctrl-C means "now": stop without waiting for work in flight. A signal that comes
    // right after the first is not a person pressing again: some dependencies re-raise it at once.
    if (firstInterrupt > 0 && now - firstInterrupt > 250) process.exit(EXIT.interrupted);
    if (firstInterrupt === 0) firstInterrupt = now;
    controller.abort(signal);
  };
  // A reader that goes away (`payorder … | head`) is not an error: stop quietly.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') process.exit(EXIT.ok);
      throw error;
    });
  }
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  let ctx: Context;
  try {
    ctx = createContext(process, controller.signal);
  } catch (error) {
    process.stderr.write(`error: ${(error as Error).message}\n`);
    return EXIT.usage;
  }
  try {
    const program = buildProgram(ctx);
    // `payorder` alone is a request for the overview, not a mistake.
    if (argv.length <= 2) {
      program.outputHelp();
      return EXIT.ok;
    }
    await program.parseAsync(argv);
    return controller.signal.aborted && process.exitCode === undefined
      ? EXIT.ok
      : Number(process.exitCode ?? EXIT.ok);
  } catch (error) {
    if (error instanceof CommanderError) return commanderExit(error);
    const failure =
      error instanceof CliError
        ? error
        : new CliError('rejected', `unexpected failure: ${(error as Error)?.message ?? String(error)}`, {
            hint: 'please report this with the command you ran (add --debug for details)',
          });
    if (failure.details.reported) return failure.exitCode;
    if (ctx.flags.json) ctx.io.stderr.write(`${JSON.stringify(failure.toJSON())}\n`);
    else errorLine(ctx, failure.message, failure.details.hint);
    if (ctx.flags.debug && !(error instanceof CliError))
      ctx.io.stderr.write(`${(error as Error)?.stack ?? ''}\n`);
    return failure.exitCode;
  }
}
