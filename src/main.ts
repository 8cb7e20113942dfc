/**
 * The entry points. `main` wires the process (signals, closed pipes) and builds its context;
 * `run` parses argv against the command tree in that context and turns every error into one line
 * (or a JSON object with --json) on stderr and a documented exit code. Tests call `run` with a
 * context of their own. The only place that decides how payorder exits.
 */
import { buildProgram, CommanderError, commanderExit, helpArgv } from './commands/program.js';
import { COMPLETE_COMMAND } from './completion/dynamic-lists.js';
import { type Context, createContext } from './context.js';
import { CliError, EXIT, usageError } from './errors.js';
import type { Sandbox, SandboxOptions } from './sandbox/server.js';
import { variableProblem } from './variables.js';

export async function main(argv: string[]): Promise<number> {
  const stop = new AbortController();
  const force = new AbortController();
  let firstSignal = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    const now = performance.now();
    // A second Ctrl-C (or SIGTERM, SIGHUP) means "now": listeners of ctx.forced say what is left
    // undone, then payorder ends. A signal that comes right after the first is not a person pressing
    // again: some dependencies re-raise it at once.
    if (firstSignal > 0 && now - firstSignal > 250) {
      force.abort(signal);
      process.exit(signal === 'SIGHUP' ? EXIT.hungUp : EXIT.interrupted);
    }
    if (firstSignal === 0) firstSignal = now;
    stop.abort(signal);
  };
  // A reader that goes away (`payorder … | head`) stops the work: nothing more is started, work in
  // flight finishes, and a batch says on stderr what was done. What is still written is dropped.
  // A terminal that was closed answers writes with EIO, and its SIGHUP may come before or after:
  // either way it is a hang-up (exit 129); what is written to it is dropped as well, and the work in
  // flight still finishes and is recorded.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE' && error.code !== 'EIO') throw error;
    stop.abort(error.code === 'EIO' ? 'SIGHUP' : 'EPIPE');
  });
  process.stderr.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE' && error.code !== 'EIO') throw error;
  });
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  // A closed terminal or a dropped SSH session: stop as on SIGTERM rather than die with work in flight.
  process.on('SIGHUP', onSignal);
  return run(argv, createContext(process, stop.signal, force.signal));
}

/**
 * The sandbox, for other programs to start in their own process: `payorder/dist/sandbox.js` exports
 * this function (README). Its code is loaded when it is first called, so the CLI never loads it.
 */
export async function startSandbox(options?: SandboxOptions): Promise<Sandbox> {
  return (await import('./sandbox/server.js')).startSandbox(options);
}

/** Runs one command line (argv as process.argv: node, script, args…) in `ctx`; returns the exit code. */
export async function run(argv: string[], ctx: Context): Promise<number> {
  try {
    // A completion script's call answers whatever the environment holds: it must never fail.
    const problem = argv[2] === COMPLETE_COMMAND ? undefined : variableProblem(ctx.env);
    if (problem) {
      // Refused before the flags are parsed; --json still asks for the error as JSON.
      ctx.flags.json = argv.includes('--json');
      throw usageError(problem, { field: problem.slice(0, problem.indexOf(':')) });
    }
    const program = buildProgram(ctx, argv[2]);
    // `payorder` alone is a request for the overview, not a mistake.
    if (argv.length <= 2) {
      program.outputHelp();
      return EXIT.ok;
    }
    await program.parseAsync(helpArgv(program, argv));
    if (ctx.flags.jq) await (await import('./output/jq-output.js')).finishJq(ctx, false);
    return EXIT.ok;
  } catch (error) {
    // The command failed after printing (a lookup not found, a batch line that failed): its JSON
    // still goes through --jq, and its own error is the one reported.
    if (ctx.flags.jq) await (await import('./output/jq-output.js')).finishJq(ctx, true).catch(() => {});
    if (error instanceof CommanderError) return commanderExit(error);
    let failure =
      error instanceof CliError
        ? error
        : new CliError('rejected', `unexpected failure: ${(error as Error)?.message ?? String(error)}`, {
            hint: 'please report this with the command you ran (add --debug for details)',
          });
    if (failure.kind === 'interrupted' && ctx.signal.reason === 'SIGHUP')
      failure = new CliError('hung_up', failure.message, failure.details);
    if (failure.details.reported) return failure.exitCode;
    // Loaded only here: a command that succeeds (--help among them) never needs it.
    (await import('./output/render.js')).renderError(ctx, failure);
    if (ctx.flags.debug && !(error instanceof CliError))
      ctx.io.stderr.write(`${(error as Error)?.stack ?? ''}\n`);
    return failure.exitCode;
  }
}
