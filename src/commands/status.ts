/**
 * `payorder status`: per profile and environment who is logged in, with which version and
 * addresses, how long the cached tokens last, where credentials come from and where the client
 * secret is kept. Never
 * the secret, never a token. Exits 4 when the chosen environment has no usable credentials, so
 * scripts can test it. This file declares the command; status.run.ts does the work.
 */
import type { Command } from 'commander';
import { conventions, examples, jsonOption, targetOptions } from '../cli/options.js';
import type { Context } from '../context.js';
import type { StatusFlags } from './status.run.js';

export function registerStatus(program: Command, ctx: Context): void {
  const command = program
    .command('status')
    .summary('show logins, addresses and token lifetimes')
    .description(
      'Show, per profile and environment, the user and client id, API version, addresses, how long cached tokens last, ' +
        'where the credentials come from and where the client secret is kept (OS keychain or file). Every profile is ' +
        'listed unless --profile names one. Never shows a secret or a token. Exits 4 when the chosen environment ' +
        'of the chosen profile has no usable credentials.',
    );
  jsonOption(command);
  targetOptions(command, { api: false });
  conventions(command);
  examples(command, [
    ['everything at a glance', 'payorder status'],
    ['in a script: am I logged in to stage?', 'payorder status --env stage --quiet >/dev/null && echo ready'],
    [
      'seconds left on the v2 token',
      'payorder status --env stage --json | jq ".environments[0].tokens.v2.seconds_left"',
    ],
    ['the names of every profile', "payorder status --json | jq -r '.profiles[]'"],
  ]);
  command.action(async (flags: StatusFlags) => {
    const run = await import('./status.run.js');
    const options = await run.parseStatusOptions(flags, ctx);
    run.renderStatus(await run.runStatus(options, ctx), options, ctx);
  });
}
