/**
 * `payorder status`, the work: per profile and environment who is logged in, with which version
 * and addresses, how long the cached tokens last (judged by the token cache's own rule), where
 * credentials come from and where the client secret is kept, as the login recorded it (the keychain
 * is not opened). Never the secret, never a token.
 */
import type { Context } from '../context.js';
import { ENVIRONMENTS, type EnvName } from '../contract/environments.js';
import { API_VERSIONS } from '../contract/versions.js';
import { CliError } from '../errors.js';
import { chooseFormat, render } from '../output/render.js';
import { findCredentials } from '../session/credentials.js';
import { resolveAddress, resolveEnv, resolveProfile, resolveVersion } from '../session/target.js';
import { cachedToken, isUsable } from '../session/token-cache.js';
import {
  DEFAULT_PROFILE,
  describeProfileEnv,
  type ProfileEnv,
  profileEnvFlags,
  profileNames,
  type StoreData,
  storedEnvironment,
} from '../store/profile-data.js';
import { escapeControl } from '../terminal/terminal-text.js';
import { clockIsSet } from '../variables.js';

export interface StatusFlags {
  env?: string;
  profile?: string;
  json?: boolean;
}

export interface StatusOptions {
  /** Only this environment (--env), else every environment with something stored, and the current one. */
  only?: EnvName;
  /** Only this profile (--profile), else every profile. */
  onlyProfile?: string;
  current: EnvName;
  /** The profile commands use (--profile, PAYORDER_PROFILE, else default). */
  profile: string;
  json: boolean;
}

export interface EnvStatus {
  /** The profile this login belongs to ("default" when none is named). */
  profile: string;
  env: EnvName;
  /** Whether this is the profile and environment commands use. */
  current: boolean;
  logged_in: boolean;
  credentials_source: string | null;
  /** Where the stored login keeps its client secret; null when nothing is stored in use. */
  secret_storage: 'keychain' | 'file' | null;
  username: string | null;
  client_id: string | null;
  api: string;
  addresses: Record<string, { auth: string | null; checkout: string | null }>;
  tokens: Record<string, { expires_at: string; seconds_left: number; valid: boolean } | null>;
}

export interface StatusReport {
  store: string;
  /** The environment commands use. */
  current: EnvName;
  /** The profile commands use. */
  profile: string;
  /** Every profile the store has, the default one first (it always has that one). */
  profiles: string[];
  /** Per profile (the default one first), its environments. */
  environments: EnvStatus[];
}

export async function parseStatusOptions(flags: StatusFlags, ctx: Context): Promise<StatusOptions> {
  const profile = resolveProfile(ctx, flags);
  const current = resolveEnv(ctx, flags, (await ctx.store()).read());
  return {
    only: flags.env ? current : undefined,
    onlyProfile: flags.profile !== undefined ? profile : undefined,
    current,
    profile,
    json: Boolean(flags.json),
  };
}

function describe(ctx: Context, data: StoreData, at: ProfileEnv, current: ProfileEnv): EnvStatus {
  const { profile, env } = at;
  const found = findCredentials(ctx, data, at);
  const now = ctx.clock();
  const addresses: EnvStatus['addresses'] = {};
  const tokens: EnvStatus['tokens'] = {};
  for (const version of API_VERSIONS) {
    const auth = resolveAddress(ctx, data, at, version, 'auth');
    const checkout = resolveAddress(ctx, data, at, version, 'checkout');
    addresses[version] = { auth: auth ?? null, checkout: checkout ?? null };
    const token =
      found && auth && checkout
        ? cachedToken(
            data,
            { profile, env, version, authBase: auth, checkoutBase: checkout },
            found.credentials,
            clockIsSet(ctx.env),
          )
        : undefined;
    tokens[version] = token
      ? {
          expires_at: token.expiresAt,
          seconds_left: Math.max(0, Math.round((Date.parse(token.expiresAt) - now.getTime()) / 1000)),
          valid: isUsable(token, now),
        }
      : null;
  }
  return {
    profile,
    env,
    current: env === current.env && profile === current.profile,
    logged_in: Boolean(found),
    credentials_source: found ? found.source : null,
    secret_storage: found && found.secretIn !== 'environment variables' ? found.secretIn : null,
    username: found?.credentials.username ?? null,
    client_id: found?.credentials.clientId ?? null,
    api: resolveVersion(ctx, { profile }, data, env),
    addresses,
    tokens,
  };
}

export async function runStatus(options: StatusOptions, ctx: Context): Promise<StatusReport> {
  const store = await ctx.store();
  const data = store.read();
  const current = { profile: options.profile, env: options.current };
  const profiles = profileNames(data);
  const shown = options.onlyProfile
    ? [options.onlyProfile]
    : profiles.includes(current.profile)
      ? profiles
      : [...profiles, current.profile];
  const environments = shown.flatMap((profile) =>
    (options.only
      ? [options.only]
      : ENVIRONMENTS.filter(
          (env) =>
            (env === current.env && profile === current.profile) || storedEnvironment(data, { profile, env }),
        )
    ).map((env) => describe(ctx, data, { profile, env }, current)),
  );
  return { store: store.path, current: current.env, profile: current.profile, profiles, environments };
}

function secretText(s: EnvStatus): string {
  if (s.secret_storage === 'keychain') return '; client secret in the OS keychain';
  return s.secret_storage === 'file' ? '; client secret in the store file' : '';
}

function humanLeft(seconds: number): string {
  if (seconds <= 0) return 'expired';
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  return hours > 0 ? `${hours} h ${minutes} min left` : `${minutes} min left`;
}

/** Prints the report; exits 4 (after printing) when the chosen environment has no credentials. */
export function renderStatus(report: StatusReport, options: StatusOptions, ctx: Context): void {
  render(ctx, chooseFormat(ctx, { asked: options.json ? 'json' : undefined }), {
    json: report,
    human: (paint) => {
      // Names and addresses come from a file or the environment: shown escaped, never as terminal codes.
      const lines = [`${paint.dim('store')} ${escapeControl(report.store)}`];
      for (const s of report.environments) {
        const profile =
          s.profile === DEFAULT_PROFILE ? '' : `${paint.dim(', profile')} ${paint.bold(s.profile)}`;
        lines.push('', `${paint.bold(s.env)}${profile}${s.current ? paint.dim(' (current)') : ''}`);
        lines.push(
          s.logged_in
            ? `  ${paint.green('✓')} logged in as ${escapeControl(s.username ?? '')}, client id ${escapeControl(s.client_id ?? '')} (from ${s.credentials_source}${secretText(s)})`
            : `  ${paint.red('✗')} not logged in`,
        );
        lines.push(`  api ${s.api}`);
        for (const [version, address] of Object.entries(s.addresses)) {
          const token = s.tokens[version];
          lines.push(
            `  ${version}: auth ${address.auth ? escapeControl(address.auth) : paint.dim('(not set)')}, checkout ${address.checkout ? escapeControl(address.checkout) : paint.dim('(not set)')}` +
              (token ? `; token ${token.valid ? humanLeft(token.seconds_left) : 'not valid'}` : ''),
          );
        }
      }
      return lines.join('\n');
    },
  });
  const current = { profile: report.profile, env: report.current };
  if (!report.environments.find((s) => s.current)?.logged_in)
    throw new CliError('auth', `not logged in to ${describeProfileEnv(current)}`, {
      hint: `payorder login ${profileEnvFlags(current)}`,
    });
}
