/**
 * `payorder logout`, the work: forget one environment's (or every environment's) credentials and
 * tokens; addresses and defaults stay.
 */
import type { Context } from '../context.js';
import { ENVIRONMENTS, type EnvName } from '../contract/environments.js';
import { note } from '../output/messages.js';
import { resolveEnv } from '../session/target.js';

export interface LogoutFlags {
  env?: string;
  all?: boolean;
}

export interface LogoutOptions {
  envs: EnvName[];
}

export async function parseLogoutOptions(flags: LogoutFlags, ctx: Context): Promise<LogoutOptions> {
  if (flags.all) return { envs: [...ENVIRONMENTS] };
  return { envs: [resolveEnv(ctx, flags, (await ctx.store()).read())] };
}

/** The environments whose credentials or tokens were removed. */
export async function runLogout(options: LogoutOptions, ctx: Context): Promise<EnvName[]> {
  return (await ctx.store()).update((data) =>
    options.envs.filter((env) => {
      const profile = data.environments?.[env];
      if (!profile?.credentials && !profile?.tokens) return false;
      delete profile.credentials;
      delete profile.tokens;
      delete profile.loggedInAt;
      return true;
    }),
  );
}

export function renderLogout(removed: EnvName[], ctx: Context): void {
  note(ctx, removed.length ? `Logged out of ${removed.join(', ')}` : 'Nothing to log out of');
}
