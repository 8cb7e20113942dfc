/**
 * `payorder login`: asks for (or reads) an environment's credentials, proves them with a real token
 * request, and stores credentials and token only when that succeeds, the secret in the OS keychain
 * when one answers. The secret is never a flag value. This file declares the command; login.run.ts
 * does the work.
 */
import type { Command } from 'commander';
import { conventions, examples, insecureHttpOption, jsonOption, targetOptions } from '../cli/options.js';
import type { Context } from '../context.js';
import type { LoginFlags } from './login.run.js';

export function registerLogin(program: Command, ctx: Context): void {
  const command = program
    .command('login')
    .summary("store an environment's credentials after checking them")
    .description(
      "Check an environment's credentials with a real token request and store them (0600) with the token.\n" +
        'The client secret goes to the OS keychain when one is reachable, else (with a warning) to the same file.\n' +
        'On a terminal it asks for what is missing (the secret hidden). In scripts give PAYORDER_USERNAME, ' +
        'PAYORDER_CLIENT_ID and PAYORDER_CLIENT_SECRET_ID, or the flags below: the secret never as a flag value.\n' +
        'With --profile NAME the login is kept in that profile, beside the others: one per merchant.',
    )
    .option('--username <name>', 'account user name')
    .option('--client-id <id>', 'client id')
    .option('--client-secret-stdin', 'read the client secret id from stdin (first line)')
    .option(
      '--client-secret-file <file>',
      'read the client secret id from a file (first line): refused when others may write it, a warning when they may read it',
    )
    .option('--auth-url <url>', 'store this auth base address for the environment and version (and profile)')
    .option(
      '--checkout-url <url>',
      'store this checkout base address for the environment and version (and profile)',
    )
    .option('--insecure-storage', 'store the client secret in the 0600 file, not in the OS keychain');
  jsonOption(command, 'print the login as JSON');
  targetOptions(command);
  insecureHttpOption(command);
  conventions(command);
  examples(command, [
    ['log in to stage, asked for each value', 'payorder login --env stage'],
    ['the local sandbox, with its test account', 'payorder login --env sandbox'],
    [
      'in a script, secret from a password manager',
      'pass show payorder/stage | payorder login --env stage --username shop --client-id 9f2c --client-secret-stdin',
    ],
    ['a second merchant on stage, in a profile of its own', 'payorder login --env stage --profile shop-b'],
  ]);
  command.action(async (flags: LoginFlags) => {
    const run = await import('./login.run.js');
    const options = await run.resolveLogin(run.parseLoginFlags(flags, ctx), ctx);
    run.renderLogin(await run.runLogin(options, ctx), options, ctx);
  });
}
