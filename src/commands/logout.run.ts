/**
 * `payorder logout`, the work: forget what one profile keeps for one environment (or for every
 * environment): credentials and tokens, the client secret in the OS keychain included. Addresses
 * and defaults stay, and so do the other profiles' logins.
 */
import type { Context } from '../context.js';
import { ENVIRONMENTS, type EnvName } from '../contract/environments.js';
import { forgetSecret } from '../session/secret-storage.js';
import { resolveEnv, resolveProfile } from '../session/target.js';
import { DEFAULT_PROFILE, pruneProfile, storedEnvironment } from '../store/profile-data.js';
import { note } from '../terminal/messages.js';

export interface LogoutFlags {
  env?: string;
  profile?: string;
  all?: boolean;
}

export interface LogoutOptions {
  profile: string;
  envs: EnvName[];
}

export async function parseLogoutOptions(flags: LogoutFlags, ctx: Context): Promise<LogoutOptions> {
  const profile = resolveProfile(ctx, flags);
  if (flags.all) return { profile, envs: [...ENVIRONMENTS] };
  return { profile, envs: [resolveEnv(ctx, flags, (await ctx.store()).read())] };
}

export interface LogoutResult {
  profile: string;
  /** The environments whose credentials or tokens were removed. */
  removed: EnvName[];
}

export async function runLogout(options: LogoutOptions, ctx: Context): Promise<LogoutResult> {
  const { profile } = options;
  const removed = await (await ctx.store()).update(async (data) => {
    const removed: EnvName[] = [];
    for (const env of options.envs) {
      const stored = storedEnvironment(data, { profile, env });
      if (!stored?.credentials && !stored?.tokens) continue;
      if (stored.credentials) await forgetSecret(ctx, { profile, env }, stored.credentials);
      delete stored.credentials;
      delete stored.tokens;
      delete stored.loggedInAt;
      removed.push(env);
    }
    pruneProfile(data, profile);
    return removed;
  });
  return { profile, removed };
}

export function renderLogout({ profile, removed }: LogoutResult, ctx: Context): void {
  const of = profile === DEFAULT_PROFILE ? '' : ` (profile ${profile})`;
  note(ctx, removed.length ? `Logged out of ${removed.join(', ')}${of}` : `Nothing to log out of${of}`);
}
