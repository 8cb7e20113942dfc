/**
 * `payorder login`: asks for (or reads) an environment's credentials, proves them with a real token
 * request, and stores credentials and token only when that succeeds. The secret is never a flag value.
 */
import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { readAll } from '../cli/read-all.js';
import { withConventions, withExamples, withTarget } from '../cli/shared-options.js';
import type { Context } from '../context.js';
import type { Credentials } from '../contract/token.js';
import { CliError, usageError } from '../errors.js';
import { note } from '../output/messages.js';
import { checkBaseUrl } from '../session/config-keys.js';
import type { TargetFlags } from '../session/target.js';
import { addressesOf, profileOf } from '../store/profile-data.js';

export interface LoginFlags extends TargetFlags {
  username?: string;
  clientId?: string;
  clientSecretStdin?: boolean;
  clientSecretFile?: string;
  authUrl?: string;
  checkoutUrl?: string;
  json?: boolean;
}

const firstLine = (text: string) => text.replace(/\r?\n[\s\S]*$/, '');

async function secretFrom(flags: LoginFlags, ctx: Context): Promise<string | undefined> {
  if (flags.clientSecretStdin && flags.clientSecretFile) {
    throw usageError('give the secret one way: --client-secret-stdin or --client-secret-file, not both');
  }
  if (flags.clientSecretStdin) {
    if (ctx.io.stdinIsTTY)
      throw usageError(
        '--client-secret-stdin: pipe the secret in, e.g. pass show payorder | payorder login …',
      );
    return firstLine(await readAll(ctx.io.stdin)) || undefined;
  }
  if (flags.clientSecretFile) {
    try {
      return firstLine(await readFile(flags.clientSecretFile, 'utf8')) || undefined;
    } catch (error) {
      throw usageError(
        `--client-secret-file: cannot read ${flags.clientSecretFile} (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
        {
          field: '--client-secret-file',
        },
      );
    }
  }
  return ctx.env.PAYORDER_CLIENT_SECRET_ID || undefined;
}

async function askMissing(partial: Partial<Credentials>, ctx: Context, env: string): Promise<Credentials> {
  const missing = (['username', 'clientId', 'clientSecretId'] as const).filter((k) => !partial[k]);
  if (missing.length === 0) return partial as Credentials;
  if (!ctx.flags.interactive) {
    const how = {
      username: '--username or PAYORDER_USERNAME',
      clientId: '--client-id or PAYORDER_CLIENT_ID',
      clientSecretId: '--client-secret-stdin, --client-secret-file or PAYORDER_CLIENT_SECRET_ID',
    };
    throw usageError(
      `missing ${missing.map((k) => how[k]).join('; ')} (no prompts without a terminal or with --no-input)`,
      {
        field: missing[0],
      },
    );
  }
  const { input, password } = await import('@inquirer/prompts');
  const io = { input: ctx.io.stdin, output: ctx.io.stderr, signal: ctx.signal };
  const required = (value: string) => value.trim() !== '' || 'required';
  try {
    const username =
      partial.username ?? (await input({ message: `Username for ${env}:`, validate: required }, io)).trim();
    const clientId =
      partial.clientId ?? (await input({ message: 'Client id:', validate: required }, io)).trim();
    const clientSecretId =
      partial.clientSecretId ??
      (await password({ message: 'Client secret id:', mask: '*', validate: required }, io));
    return { username, clientId, clientSecretId };
  } catch (error) {
    const name = (error as Error).name;
    if (name === 'ExitPromptError' || name === 'AbortPromptError')
      throw new CliError('interrupted', 'login cancelled; nothing was stored');
    throw error;
  }
}

export async function runLogin(flags: LoginFlags, ctx: Context): Promise<void> {
  const { resolveTarget } = await import('../session/target.js');
  const store = await ctx.store();
  const data = store.read();
  const given = {
    auth: flags.authUrl === undefined ? undefined : checkBaseUrl('--auth-url', flags.authUrl),
    checkout: flags.checkoutUrl === undefined ? undefined : checkBaseUrl('--checkout-url', flags.checkoutUrl),
  };
  const target = resolveTarget(ctx, flags, data, given);
  const { env, version } = target;

  let partial: Partial<Credentials> = {
    username: flags.username ?? (ctx.env.PAYORDER_USERNAME || undefined),
    clientId: flags.clientId ?? (ctx.env.PAYORDER_CLIENT_ID || undefined),
    clientSecretId: await secretFrom(flags, ctx),
  };
  if (env === 'sandbox' && !partial.username && !partial.clientId && !partial.clientSecretId) {
    const { TEST_ACCOUNT } = await import('../sandbox/accounts.js');
    partial = { ...TEST_ACCOUNT };
    note(ctx, `using the sandbox test account ${TEST_ACCOUNT.username}`);
  }
  const credentials = await askMissing(partial, ctx, env);

  const { ServiceClient } = await import('../api/service.js');
  const { httpOptions } = await import('../session/session.js');
  const client = new ServiceClient(target, httpOptions(ctx, [credentials.clientSecretId]));
  const issued = await client.requestToken(credentials);
  const now = ctx.clock();
  const expiresAt = new Date(now.getTime() + issued.expiresIn * 1000).toISOString();
  await store.update((fresh) => {
    const profile = profileOf(fresh, env);
    profile.credentials = credentials;
    if (flags.api) profile.api = version;
    profile.loggedInAt = now.toISOString();
    if (given.auth || given.checkout) {
      const pair = addressesOf(fresh, env, version);
      if (given.auth) pair.auth = given.auth;
      if (given.checkout) pair.checkout = given.checkout;
    }
    // Tokens of other credentials are dropped; this login's token is cached.
    profile.tokens = {
      [version]: { accessToken: issued.accessToken, expiresAt, clientId: credentials.clientId },
    };
  });
  if (flags.json) {
    ctx.io.stdout.write(
      `${JSON.stringify({ env, api: version, username: credentials.username, client_id: credentials.clientId, token_expires_at: expiresAt, store: store.path })}\n`,
    );
  }
  note(
    ctx,
    `Logged in to ${env} (${version}) as ${credentials.username}, client id ${credentials.clientId}; credentials stored in ${store.path}`,
  );
}

export function registerLogin(program: Command, ctx: Context): void {
  const command = program
    .command('login')
    .summary("store an environment's credentials after checking them")
    .description(
      "Check an environment's credentials with a real token request and store them (0600) with the token.\n" +
        'On a terminal it asks for what is missing (the secret hidden). In scripts give PAYORDER_USERNAME, ' +
        'PAYORDER_CLIENT_ID and PAYORDER_CLIENT_SECRET_ID, or the flags below: the secret never as a flag value.',
    )
    .option('--username <name>', 'account user name')
    .option('--client-id <id>', 'client id')
    .option('--client-secret-stdin', 'read the client secret id from stdin (first line)')
    .option('--client-secret-file <file>', 'read the client secret id from a file (first line)')
    .option('--auth-url <url>', 'store this auth base address for the environment and version')
    .option('--checkout-url <url>', 'store this checkout base address for the environment and version')
    .option('--json', 'print the login as JSON');
  withTarget(command);
  withConventions(command);
  withExamples(command, [
    ['log in to stage, asked for each value', 'payorder login --env stage'],
    ['the local sandbox, with its test account', 'payorder login --env sandbox'],
    [
      'in a script, secret from a password manager',
      'pass show payorder/stage | payorder login --env stage --username shop --client-id 9f2c --client-secret-stdin',
    ],
  ]);
  command.action((flags: LoginFlags) => runLogin(flags, ctx));
}
