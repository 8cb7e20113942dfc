/**
 * `payorder status`: per environment who is logged in, with which version and addresses, how long
 * the cached tokens last and where credentials come from. Never the secret, never a token. Exits 4
 * when the chosen environment has no usable credentials, so scripts can test it.
 */
import type { Command } from 'commander';
import { withConventions, withExamples, withTarget } from '../cli/shared-options.js';
import type { Context } from '../context.js';
import { API_VERSIONS } from '../contract/versions.js';
import { CliError } from '../errors.js';
import { painter } from '../output/messages.js';
import { findCredentials } from '../session/credentials.js';
import { ENVIRONMENTS, type EnvName } from '../session/environments.js';
import type { StoreData } from '../store/profile-data.js';

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

function describe(
  ctx: Context,
  data: StoreData,
  env: EnvName,
  current: EnvName,
  resolve: typeof import('../session/target.js'),
): EnvStatus {
  const found = findCredentials(ctx, data, env);
  const now = ctx.clock().getTime();
  const profile = data.environments?.[env];
  const addresses: EnvStatus['addresses'] = {};
  const tokens: EnvStatus['tokens'] = {};
  for (const version of API_VERSIONS) {
    addresses[version] = {
      auth: resolve.resolveAddress(ctx, data, env, version, 'auth') ?? null,
      checkout: resolve.resolveAddress(ctx, data, env, version, 'checkout') ?? null,
    };
    const token = profile?.tokens?.[version];
    tokens[version] = token
      ? {
          expires_at: token.expiresAt,
          seconds_left: Math.max(0, Math.round((Date.parse(token.expiresAt) - now) / 1000)),
          valid: Date.parse(token.expiresAt) > now && token.clientId === found?.credentials.clientId,
        }
      : null;
  }
  return {
    env,
    current: env === current,
    logged_in: Boolean(found),
    credentials_source: found ? (found.source === 'store' ? 'store' : 'environment variables') : null,
    username: found?.credentials.username ?? null,
    client_id: found?.credentials.clientId ?? null,
    api: resolve.resolveVersion(ctx, {}, data, env),
    addresses,
    tokens,
  };
}

function humanLeft(seconds: number): string {
  if (seconds <= 0) return 'expired';
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  return hours > 0 ? `${hours} h ${minutes} min left` : `${minutes} min left`;
}

export async function runStatus(flags: { env?: string; json?: boolean }, ctx: Context): Promise<void> {
  const resolve = await import('../session/target.js');
  const store = await ctx.store();
  const data = store.read();
  const current = resolve.resolveEnv(ctx, flags, data);
  const envs = flags.env
    ? [current]
    : ENVIRONMENTS.filter((env) => env === current || data.environments?.[env]);
  const statuses = envs.map((env) => describe(ctx, data, env, current, resolve));
  if (flags.json || !ctx.io.stdoutIsTTY) {
    ctx.io.stdout.write(
      `${JSON.stringify({ store: store.path, current, environments: statuses }, null, 2)}\n`,
    );
  } else {
    const paint = painter(ctx.io.colorOut);
    const lines = [`${paint.dim('store')} ${store.path}`];
    for (const s of statuses) {
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
    ctx.io.stdout.write(`${lines.join('\n')}\n`);
  }
  if (!statuses.find((s) => s.env === current)?.logged_in) {
    throw new CliError('auth', `not logged in to ${current}`, { hint: `payorder login --env ${current}` });
  }
}

export function registerStatus(program: Command, ctx: Context): void {
  const command = program
    .command('status')
    .summary('show logins, addresses and token lifetimes')
    .description(
      'Show, per environment, the user and client id, API version, addresses, how long cached tokens last and ' +
        'where the credentials come from. Never shows a secret or a token. Exits 4 when the chosen environment ' +
        'has no usable credentials.',
    )
    .option('--json', 'print JSON');
  withTarget(command, { api: false });
  withConventions(command);
  withExamples(command, [
    ['everything at a glance', 'payorder status'],
    ['in a script: am I logged in to stage?', 'payorder status --env stage --quiet >/dev/null && echo ready'],
    [
      'seconds left on the v2 token',
      'payorder status --env stage --json | jq ".environments[0].tokens.v2.seconds_left"',
    ],
  ]);
  command.action((flags: { env?: string; json?: boolean }) => runStatus(flags, ctx));
}
