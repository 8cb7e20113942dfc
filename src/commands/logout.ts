/**
 * `payorder logout`: forgets an environment's (or every environment's) credentials and tokens.
 * Addresses and defaults stay. This file declares the command; logout.run.ts does the work.
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
      'Remove the stored credentials and tokens of one environment, or of all with --all. Addresses stay.',
    )
    .option('--all', 'every environment');
  targetOptions(command, { api: false });
  conventions(command);
  examples(command, [
    ['forget stage', 'payorder logout --env stage'],
    ['forget everything', 'payorder logout --all'],
    [
      'every environment you are logged into',
      "payorder status --json | jq -r '.environments[] | select(.logged_in) | .env' | xargs -n1 payorder logout --env",
    ],
  ]);
  command.action(async (flags: LogoutFlags) => {
    const run = await import('./logout.run.js');
    run.renderLogout(await run.runLogout(await run.parseLogoutOptions(flags, ctx), ctx), ctx);
  });
}
