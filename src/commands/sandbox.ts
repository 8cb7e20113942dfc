/**
 * `payorder sandbox`: runs the local emulator of the whole service until Ctrl-C or SIGTERM (or, with
 * --openapi, prints its OpenAPI document). This file declares the command; sandbox.run.ts does the
 * work. The commands that drive a running sandbox (pay, fail, refund, orders, listen) are its
 * subcommands, in sandbox/.
 */
import type { Command } from 'commander';
import { conventions, examples, jsonOption } from '../cli/options.js';
import type { Context } from '../context.js';
import { registerSandboxListen } from './sandbox/listen.js';
import { registerSandboxOrders } from './sandbox/orders.js';
import { registerSandboxSettle } from './sandbox/settle.js';
import type { SandboxFlags } from './sandbox.run.js';

export function registerSandbox(program: Command, ctx: Context, withSubcommands = true): void {
  const command = program
    .command('sandbox')
    .summary('run a local emulator of the whole service')
    .description(
      'Run a local, spec-faithful emulator of the Payment Order Service: both API versions, tokens, orders, ' +
        'a payment page and a /_sandbox control API (journal, clock, forced errors and faults, the OpenAPI ' +
        'document at /_sandbox/openapi.json). The subcommands drive a sandbox that is already running.',
    )
    // `sandbox listen --port` is listen's own --port, not the sandbox's.
    .enablePositionalOptions();
  emulatorOptions(command);
  jsonOption(command, 'print one JSON line with the address and accounts when ready, and no request log', {
    jq: false,
  });
  conventions(command);
  examples(command, [
    ['start on the default port 4010', 'payorder sandbox'],
    ['a free port, address for scripts', 'payorder sandbox --port 0 --json | head -1 | jq -r .url'],
    [
      'two accounts, orders kept across restarts',
      'payorder sandbox --account alice:cli-a:s3cret --account bob:cli-b:pw --state orders.json',
    ],
    ['the contract, for Postman or a client generator', 'payorder sandbox --openapi > payorder-openapi.json'],
    ['pay an order in the running sandbox', 'payorder sandbox pay "$uuid"'],
    [
      'as the CI service "sandbox"',
      'payorder sandbox --host 0.0.0.0 --allow-host sandbox --public-url http://sandbox:4010',
    ],
  ]);
  if (withSubcommands) {
    registerSandboxSettle(command, ctx);
    registerSandboxOrders(command, ctx);
    registerSandboxListen(command, ctx);
  }
  command.action(async (flags: SandboxFlags) => {
    const run = await import('./sandbox.run.js');
    if (flags.openapi) {
      await run.renderOpenApi(run.parseSandboxOptions(flags, ctx), ctx);
      return;
    }
    const options = run.parseSandboxOptions(flags, ctx);
    const sandbox = await run.runSandbox(options, ctx);
    run.renderSandbox(sandbox, options, ctx);
    await run.serveSandbox(sandbox, options, ctx);
  });
}

/** The emulator's own flags: where it listens, who may log in, how it behaves, what it keeps. */
function emulatorOptions(command: Command): Command {
  return command
    .option('-p, --port <n>', 'port to listen on; 0 picks a free one', '4010')
    .option('--host <address>', 'address to bind', '127.0.0.1')
    .option(
      '--account <user:client_id:secret>',
      'an account that may log in (repeatable; default: the built-in test account)',
      (v: string, all: string[]) => [...all, v],
      [] as string[],
    )
    .option('--token-ttl <seconds>', 'token lifetime', '86400')
    .option('--latency <ms>', 'delay every service answer')
    .option('--fail-rate <r>', 'fail this share (0–1) of service requests with the server error')
    .option('--state <file>', 'keep orders in this file across restarts')
    .option('--journal-limit <n>', 'how many requests the journal keeps', '2000')
    .option(
      '--allow-host <name>',
      'also answer requests addressed to this host name, e.g. a CI service (repeatable)',
      (v: string, all: string[]) => [...all, v],
      [] as string[],
    )
    .option(
      '--allow-listener-host <name>',
      'let notification listeners be on this host, not only on this machine (repeatable)',
      (v: string, all: string[]) => [...all, v],
      [] as string[],
    )
    .option('--public-url <url>', 'the address payment links name, when the sandbox is reached under another')
    .option(
      '--openapi',
      'print the OpenAPI 3.1 document of both versions (with --host and --port as its server) and exit',
    );
}
