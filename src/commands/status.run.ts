/**
 * `payorder status`, the work: per environment who is logged in, with which version and addresses,
 * how long the cached tokens last (judged by the token cache's own rule) and where credentials
 * come from. Never the secret, never a token.
 */
import type { Context } from '../context.js';
import { ENVIRONMENTS, type EnvName } from '../contract/environments.js';
import { API_VERSIONS } from '../contract/versions.js';
import { CliError } from '../errors.js';
import { chooseFormat, render } from '../output/render.js';
import { findCredentials } from '../session/credentials.js';
import { resolveAddress, resolveEnv, resolveVersion } from '../session/target.js';
import { cachedToken, isUsable } from '../session/token-cache.js';
import type { StoreData } from '../store/profile-data.js';

export interface StatusFlags {
  env?: string;
  json?: boolean;
}

export interface StatusOptions {
  /** Only this environment (--env), else every environment with something stored, and the current one. */
  only?: EnvName;
  current: EnvName;
  json: boolean;
}

export interface EnvStatus {
  env: EnvName;
  current: boolean;
  logged_in: boolean;
  credentials_source: string | null;
  username: string | null;
  client_id: string | null;
  api: string;
  addresses: Record<string, { auth: string | null; checkout: string | null }>;
  tokens: Record<string, { expires_at: string; seconds_left: number; valid: boolean } | null>;
}

export interface StatusReport {
  store: string;
  current: EnvName;
  environments: EnvStatus[];
}

export async function parseStatusOptions(flags: StatusFlags, ctx: Context): Promise<StatusOptions> {
  const current = resolveEnv(ctx, flags, (await ctx.store()).read());
  return { only: flags.env ? current : undefined, current, json: Boolean(flags.json) };
}

function describe(ctx: Context, data: StoreData, env: EnvName, current: EnvName): EnvStatus {
  const found = findCredentials(ctx, data, env);
  const now = ctx.clock();
  const addresses: EnvStatus['addresses'] = {};
  const tokens: EnvStatus['tokens'] = {};
  for (const version of API_VERSIONS) {
    const auth = resolveAddress(ctx, data, env, version, 'auth');
    const checkout = resolveAddress(ctx, data, env, version, 'checkout');
    addresses[version] = { auth: auth ?? null, checkout: checkout ?? null };
    const token =
      found && auth && checkout
        ? cachedToken(data, { env, version, authBase: auth, checkoutBase: checkout }, found.credentials)
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
    env,
    current: env === current,
    logged_in: Boolean(found),
    credentials_source: found ? found.source : null,
    username: found?.credentials.username ?? null,
    client_id: found?.credentials.clientId ?? null,
    api: resolveVersion(ctx, {}, data, env),
    addresses,
    tokens,
  };
}

export async function runStatus(options: StatusOptions, ctx: Context): Promise<StatusReport> {
  const store = await ctx.store();
  const data = store.read();
  const { current } = options;
  const envs = options.only
    ? [options.only]
    : ENVIRONMENTS.filter((env) => env === current || data.environments?.[env]);
  return { store: store.path, current, environments: envs.map((env) => describe(ctx, data, env, current)) };
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
      const lines = [`${paint.dim('store')} ${report.store}`];
      for (const s of report.environments) {
        lines.push('', `${paint.bold(s.env)}${s.current ? paint.dim(' (current)') : ''}`);
        lines.push(
          s.logged_in
            ? `  ${paint.green('✓')} logged in as ${s.username}, client id ${s.client_id} (from ${s.credentials_source})`
            : `  ${paint.red('✗')} not logged in`,
        );
        lines.push(`  api ${s.api}`);
        for (const version of API_VERSIONS) {
          const address = s.addresses[version]!;
          const token = s.tokens[version];
          lines.push(
            `  ${version}: auth ${address.auth ?? paint.dim('(not set)')}, checkout ${address.checkout ?? paint.dim('(not set)')}` +
              (token ? `; token ${token.valid ? humanLeft(token.seconds_left) : 'not valid'}` : ''),
          );
        }
      }
      return lines.join('\n');
    },
  });
  const { current } = report;
  if (!report.environments.find((s) => s.env === current)?.logged_in)
    throw new CliError('auth', `not logged in to ${current}`, { hint: `payorder login --env ${current}` });
}
