/**
 * `payorder login`: asks for (or reads) an environment's credentials, proves them with a real token
 * request, and stores credentials and token only when that succeeds. The secret is never a flag
 * value. This file declares the command; login.run.ts does the work.
 */
import type { Command } from 'commander';
import { conventions, examples, jsonOption, targetOptions } from '../cli/options.js';
import type { Context } from '../context.js';
import type { LoginFlags } from './login.run.js';

export function registerLogin(program: Command, ctx: Context): void {
  const command = program
    .command('login')
    .summary("store an environment's credentials after checking them")
    .description(
      "Check an environment's credentials with a real token request and store them (0600) with the token.\n" +
        'On a terminal it asks for what is missing (the secret hidden). In scripts give PAYORDER_USERNAME, ' +
        'PAYORDER_CLIENT_ID and PAYORDER_CLIENT_SECRET_ID, or the flags below: the secret never as a flag value.',
    )
    .option('--username <name>', 'account user name')
    .option('--client-id <id>', 'client id')
    .option('--client-secret-stdin', 'read the client secret id from stdin (first line)')
    .option('--client-secret-file <file>', 'read the client secret id from a file (first line)')
    .option('--auth-url <url>', 'store this auth base address for the environment and version')
    .option('--checkout-url <url>', 'store this checkout base address for the environment and version');
  jsonOption(command, 'print the login as JSON');
  targetOptions(command);
  conventions(command);
  examples(command, [
    ['log in to stage, asked for each value', 'payorder login --env stage'],
    ['the local sandbox, with its test account', 'payorder login --env sandbox'],
    [
      'in a script, secret from a password manager',
      'pass show payorder/stage | payorder login --env stage --username shop --client-id 9f2c --client-secret-stdin',
    ],
  ]);
  command.action(async (flags: LoginFlags) => {
    const run = await import('./login.run.js');
    const options = await run.parseLoginOptions(flags, ctx);
    run.renderLogin(await run.runLogin(options, ctx), options, ctx);
  });
}
