/**
 * The command tree: the root program with its overview help, and each command registered from its
 * own declaration file. A command's work (its `.run.ts` module) is loaded once, by its action, so
 * `--help` stays fast. Completions are generated from this same tree.
 */
import { Command, CommanderError } from 'commander';
import { COMPLETE_COMMAND } from '../completion/dynamic-lists.js';
import type { Context } from '../context.js';
import { usageError } from '../errors.js';
import { debugFromEnv } from '../variables.js';
import { VERSION } from '../version.js';
import { registerComplete } from './complete.js';
import { registerCompletion } from './completion.js';
import { registerConfig } from './config/index.js';
import { registerLedger } from './ledger/index.js';
import { registerLogin } from './login.js';
import { registerLogout } from './logout.js';
import { registerMan } from './man.js';
import { registerMigrateCheck } from './migrate-check.js';
import { registerOrder } from './order/index.js';
import { registerSandbox } from './sandbox.js';
import { registerStatus } from './status.js';
import { registerToken } from './token.js';

const EXIT_CODE_HELP = `Exit codes:
  0    success
  1    the service rejected or failed the operation (or an order was not found)
  2    bad usage or invalid input; nothing was sent
  4    authentication missing or refused
  5    the service could not be reached, the outcome is unknown, or a local file could not be written
  6    --wait: the order was not paid (FAILED, or any status but PAID and REFUNDED)
  7    --wait: the order left PENDING as REFUNDED
  8    --wait: the order was still PENDING when --timeout ran out
  129  hung up (SIGHUP: the terminal was closed); a batch finished what was in flight
  130  interrupted (Ctrl-C)
  141  stdout was closed before a batch or a bulk lookup was done (a batch stopped sending)`;

const OVERVIEW = `
Common workflows:
  Try everything offline     payorder sandbox --quiet &  then
                               payorder login --env sandbox
  Log in once                payorder login --env stage
  Make a payment link        payorder order create --amount 12.50 --description "Invoice 42" \\
                               --success https://shop.example/ok --fail https://shop.example/ko
  Where is my order?         payorder order find --ref WEB-1003  (the shop's reference; or --text, --amount)
                             payorder order get 6f1c…  (uuid, or the v1 order id)
  Orders made elsewhere      payorder ledger import shop-export.csv  (then order find finds them)
  Many orders from a file    payorder order create --input orders.csv --journal orders.journal
  Ready for v2?              payorder migrate-check src/ --config

Environment: --env production|stage|test|sandbox (default stage; production only when named).
API: --api v1|v2 (default v2; v1 is switched off on 2026-12-31).

${EXIT_CODE_HELP}

Docs: README.md in the package; every command has --help with examples.`;

/** Registers a command; a group without its subcommands when `withSubcommands` is false. */
type Register = (program: Command, ctx: Context, withSubcommands?: boolean) => void;

/** Every command, in the order help lists them. */
const EVERY: Array<[word: string, register: Register]> = [
  ['login', registerLogin],
  ['logout', registerLogout],
  ['status', registerStatus],
  ['token', registerToken],
  ['config', registerConfig],
  ['order', registerOrder],
  ['ledger', registerLedger],
  ['migrate-check', registerMigrateCheck],
  ['completion', registerCompletion],
  ['man', registerMan],
  ['sandbox', registerSandbox],
  [COMPLETE_COMMAND, registerComplete],
];

/** The commands that read the whole tree: the completion script, the man page, completion's answers. */
const WHOLE_TREE = new Set(['completion', 'man', COMPLETE_COMMAND]);

/**
 * The command tree for a command line whose first word is `invoked`: that command alone when it is
 * one that does not read the whole tree; for the overview (`--help`, `-h`), every command but without
 * the subcommands of groups, which it does not list; every command otherwise (and when `invoked` is
 * not given).
 */
export function buildProgram(ctx: Context, invoked?: string): Command {
  const program = new Command('payorder')
    .description(
      'Create and look up payment orders of the Payment Order Service, from a terminal or a script.',
    )
    .version(VERSION, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .helpCommand('help [command]', 'show help for a command')
    .showSuggestionAfterError(true)
    .showHelpAfterError('(run with --help for usage)')
    // Options belong to the command they follow: `payorder sandbox listen --port 5000` is listen's
    // --port, not the sandbox's (commander would otherwise hand it to the first command that knows it).
    .enablePositionalOptions()
    .exitOverride()
    .configureOutput({
      writeOut: (text) => ctx.io.stdout.write(text),
      writeErr: (text) => ctx.io.stderr.write(text),
      // Help is colored by the same rules as everything else (TTY, NO_COLOR, FORCE_COLOR, TERM=dumb).
      getOutHasColors: () => ctx.io.colorOut,
      getErrHasColors: () => ctx.io.colorErr,
      // Help fits the terminal it is shown on; 80 columns when it is not shown on one.
      getOutHelpWidth: () => ctx.io.stdoutColumns || 80,
      getErrHelpWidth: () => ctx.io.stderrColumns || 80,
    })
    .addHelpText('after', OVERVIEW);
  // A command that runs needs only its own part of the tree; what shows or reads the whole tree
  // (help, suggestions for a word that names no command, completion, the man page) gets every
  // command, and the overview (--help, -h) every command but the subcommands of groups.
  const own = WHOLE_TREE.has(invoked ?? '') ? undefined : EVERY.find(([word]) => word === invoked);
  if (own) own[1](program, ctx);
  else {
    const overview = invoked === '--help' || invoked === '-h';
    for (const [, register] of EVERY) register(program, ctx, !overview);
  }
  program.hook('preAction', async (_root, action) => {
    const options = action.opts() as {
      debug?: boolean;
      quiet?: boolean;
      json?: boolean;
      jq?: string;
      prompts?: boolean;
      color?: boolean;
      output?: string;
      field?: string;
      raw?: boolean;
      allowInsecureHttp?: boolean;
    };
    if (options.jq !== undefined) {
      // --jq filters JSON: the command prints JSON for it, whatever else it would have chosen.
      if (options.field !== undefined || options.raw || (options.output && options.output !== 'json'))
        throw usageError('--jq filters the JSON output: drop -o, --field and --raw', { field: '--jq' });
      action.setOptionValue('json', true);
      options.json = true;
      await (await import('../output/jq-output.js')).startJq(ctx, options.jq);
      ctx.flags.jq = true;
    }
    ctx.flags.debug = Boolean(options.debug) || debugFromEnv(ctx.env);
    ctx.flags.quiet = Boolean(options.quiet);
    ctx.flags.json = Boolean(options.json) || options.output === 'json';
    ctx.flags.interactive = options.prompts !== false && ctx.io.stdinIsTTY && ctx.io.stderrIsTTY;
    ctx.flags.allowInsecureHttp = Boolean(options.allowInsecureHttp);
    if (options.color === false) {
      ctx.io.colorOut = false;
      ctx.io.colorErr = false;
    }
  });
  return program;
}

/**
 * `payorder help order create` as `payorder order create --help`: commander's help command looks at
 * one word only, and would show `order`'s help. The words name a command at any depth; a word that
 * names no command is left for commander to refuse with its suggestion (`payorder order creat`).
 * Any other argv is returned as it is.
 */
export function helpArgv(program: Command, argv: string[]): string[] {
  const [, , first, ...rest] = argv;
  if (first !== 'help' || rest[0] === undefined || rest[0].startsWith('-')) return argv;
  const runner = argv.slice(0, 2);
  const path: string[] = [];
  let command = program;
  for (const word of rest) {
    if (word.startsWith('-')) break;
    const sub = command.commands.find((c) => c.name() === word || c.aliases().includes(word));
    if (!sub) {
      // Below a group, a word that names nothing is an unknown command; below a command, it is ignored.
      if (command.commands.length > 0) return [...runner, ...path, word];
      break;
    }
    path.push(word);
    command = sub;
  }
  return [...runner, ...path, '--help'];
}

/** Commander's own outcomes: help and version are success, everything else is bad usage. */
export function commanderExit(error: CommanderError): number {
  return ['commander.helpDisplayed', 'commander.version', 'commander.help'].includes(error.code) ? 0 : 2;
}

export { CommanderError };
