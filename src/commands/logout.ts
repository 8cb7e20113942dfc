/**
 * `payorder logout`: forgets an environment's (or every environment's) credentials and tokens.
 * Addresses and defaults stay.
 */
import type { Command } from 'commander';
import { withConventions, withExamples, withTarget } from '../cli/shared-options.js';
import type { Context } from '../context.js';
import { note } from '../output/messages.js';
import { ENVIRONMENTS, type EnvName } from '../session/environments.js';

export async function runLogout(flags: { env?: string; all?: boolean }, ctx: Context): Promise<void> {
  const { resolveEnv } = await import('../session/target.js');
  const store = await ctx.store();
  const removed = await store.update((data) => {
    const envs: EnvName[] = flags.all ? [...ENVIRONMENTS] : [resolveEnv(ctx, flags, data)];
    return envs.filter((env) => {
      const profile = data.environments?.[env];
      if (!profile?.credentials && !profile?.tokens) return false;
      delete profile.credentials;
      delete profile.tokens;
      delete profile.loggedInAt;
      return true;
    });
  });
  note(ctx, removed.length ? `Logged out of ${removed.join(', ')}` : 'Nothing to log out of');
}

export function registerLogout(program: Command, ctx: Context): void {
  const command = program
    .command('logout')
    .summary('forget stored credentials and tokens')
    .description(
      'Remove the stored credentials and tokens of one environment, or of all with --all. Addresses stay.',
    )
    .option('--all', 'every environment');
  withTarget(command, { api: false });
  withConventions(command);
  withExamples(command, [
    ['forget stage', 'payorder logout --env stage'],
    ['forget everything', 'payorder logout --all'],
    [
      'every environment you are logged into',
      "payorder status --json | jq -r '.environments[] | select(.logged_in) | .env' | xargs -n1 payorder logout --env",
    ],
  ]);
  command.action((flags: { env?: string; all?: boolean }) => runLogout(flags, ctx));
}
