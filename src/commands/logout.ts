/**
 * `payorder logout`: forgets an environment's (or every environment's) credentials and tokens, in
 * one profile. Addresses, defaults and other profiles stay. This file declares the command;
 * logout.run.ts does the work.
 */
import type { Command } from 'commander';
import { conventions, examples, targetOptions } from '../cli/options.js';
import type { Context } from '../context.js';
import type { LogoutFlags } from './logout.run.js';

export function registerLogout(program: Command, ctx: Context): void {
  const command = program
    .command('logout')
    .summary('forget stored credentials and tokens')
    .description(
      'Remove the stored credentials and tokens of one environment, or of all with --all, the client secret ' +
        'from the OS keychain and from the file, in one profile (--profile, else the default one). ' +
        'Addresses and the other profiles stay.',
    )
    .option('--all', 'every environment of the profile');
  targetOptions(command, { api: false });
  conventions(command);
  examples(command, [
    ['forget stage', 'payorder logout --env stage'],
    ['forget everything of the default profile', 'payorder logout --all'],
    ['forget one merchant, everywhere', 'payorder logout --all --profile shop-b'],
    [
      'every environment you are logged into',
      'payorder status --json | jq -r \'.environments[] | select(.logged_in) | "--env \\(.env) --profile \\(.profile)"\' | xargs -L1 payorder logout',
    ],
  ]);
  command.action(async (flags: LogoutFlags) => {
    const run = await import('./logout.run.js');
    run.renderLogout(await run.runLogout(await run.parseLogoutOptions(flags, ctx), ctx), ctx);
  });
}
