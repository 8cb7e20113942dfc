/**
 * `payorder login`, the work: gather the credentials (flags, PAYORDER_ variables, stdin, a file or
 * prompts), prove them with a real token request through the session, and store them with the
 * token only when that succeeds: the secret in the OS keychain when one answers, else in the file.
 */
import type { Target } from '../api/service.js';
import { readAll } from '../cli/read-all.js';
import { readSecretFile } from '../cli/secret-file.js';
import type { Context } from '../context.js';
import type { Credentials } from '../contract/token.js';
import { checkBaseUrl } from '../contract/urls.js';
import { CliError, usageError } from '../errors.js';
import { chooseFormat, render } from '../output/render.js';
import { TEST_ACCOUNT } from '../sandbox/accounts.js';
import { type SecretStorage, storeSecret } from '../session/secret-storage.js';
import { openSession } from '../session/session.js';
import { type AddressKind, resolveTarget, type TargetFlags } from '../session/target.js';
import {
  addressesOf,
  DEFAULT_PROFILE,
  describeProfileEnv,
  environmentOf,
  ownAddresses,
} from '../store/profile-data.js';
import { note } from '../terminal/messages.js';
import { PromptCancelled } from '../terminal/prompter.js';

export interface LoginFlags extends TargetFlags {
  username?: string;
  clientId?: string;
  clientSecretStdin?: boolean;
  clientSecretFile?: string;
  authUrl?: string;
  checkoutUrl?: string;
  insecureStorage?: boolean;
  json?: boolean;
}

/** What the flags (and PAYORDER_ variables) ask for, checked without the store: parseLoginFlags' result. */
export interface LoginRequest {
  targetFlags: TargetFlags;
  /** Addresses given with --auth-url / --checkout-url, stored with the login. */
  given: Partial<Record<AddressKind, string>>;
  /** Whether --api was given: then the version is stored as the environment's. */
  storeVersion: boolean;
  username?: string;
  clientId?: string;
  secret: { from: 'stdin' } | { from: 'file'; path: string } | { from: 'env' };
  /** --insecure-storage: keep the secret in the store's file, not the OS keychain. */
  insecureStorage: boolean;
  json: boolean;
}

/** The request with its target resolved against the store. */
export interface LoginOptions extends Omit<LoginRequest, 'targetFlags'> {
  target: Target;
}

export interface LoginResult {
  profile: string;
  env: string;
  api: string;
  username: string;
  client_id: string;
  token_expires_at: string;
  store: string;
  /** Where the client secret is kept: the OS keychain, or the store's file. */
  secret_storage: SecretStorage;
}

/** The flags as a request: pure, every check that needs neither the store nor the network. */
export function parseLoginFlags(flags: LoginFlags, ctx: Context): LoginRequest {
  if (flags.clientSecretStdin && flags.clientSecretFile)
    throw usageError('give the secret one way: --client-secret-stdin or --client-secret-file, not both');
  if (flags.clientSecretStdin && ctx.io.stdinIsTTY)
    throw usageError('--client-secret-stdin: pipe the secret in, e.g. pass show payorder | payorder login …');
  const given = {
    auth: flags.authUrl === undefined ? undefined : checkBaseUrl('--auth-url', flags.authUrl),
    checkout: flags.checkoutUrl === undefined ? undefined : checkBaseUrl('--checkout-url', flags.checkoutUrl),
  };
  return {
    targetFlags: flags,
    given,
    storeVersion: Boolean(flags.api),
    username: flags.username ?? (ctx.env.PAYORDER_USERNAME || undefined),
    clientId: flags.clientId ?? (ctx.env.PAYORDER_CLIENT_ID || undefined),
    secret: flags.clientSecretStdin
      ? { from: 'stdin' }
      : flags.clientSecretFile
        ? { from: 'file', path: flags.clientSecretFile }
        : { from: 'env' },
    insecureStorage: Boolean(flags.insecureStorage),
    json: Boolean(flags.json),
  };
}

/** The request's target, resolved with the store; addresses given for a named profile checked as a pair. */
export async function resolveLogin(request: LoginRequest, ctx: Context): Promise<LoginOptions> {
  const { targetFlags, ...options } = request;
  const { given } = request;
  const data = (await ctx.store()).read();
  const target = resolveTarget(ctx, targetFlags, data, given);
  // A named profile's own addresses are a pair (a token goes only where its auth address belongs):
  // one given alone must complete a pair the profile already has.
  const missing =
    given.auth && !given.checkout ? 'checkout' : given.checkout && !given.auth ? 'auth' : undefined;
  if (
    missing &&
    target.profile !== DEFAULT_PROFILE &&
    !ownAddresses(data, { profile: target.profile, env: target.env }, target.version)?.[missing]
  )
    throw usageError(
      `--auth-url and --checkout-url go together for profile ${target.profile}: give --${missing}-url too`,
      { field: `--${missing}-url` },
    );
  return { ...options, target };
}

const firstLine = (text: string) => text.replace(/\r?\n[\s\S]*$/, '');

async function readSecret(options: LoginOptions, ctx: Context): Promise<string | undefined> {
  const { secret } = options;
  if (secret.from === 'stdin') {
    const value = firstLine(await readAll(ctx.io.stdin));
    if (value.trim() === '')
      throw usageError('--client-secret-stdin: stdin was empty; pipe the secret in', {
        field: '--client-secret-stdin',
      });
    return value;
  }
  if (secret.from === 'file') return firstLine(await readSecretFile(ctx, secret.path)) || undefined;
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
      { field: missing[0] },
    );
  }
  const { prompter } = ctx;
  const required = (value: string) => value.trim() !== '' || 'required';
  try {
    const username =
      partial.username ??
      (await prompter.input({ message: `Username for ${env}:`, validate: required })).trim();
    const clientId =
      partial.clientId ?? (await prompter.input({ message: 'Client id:', validate: required })).trim();
    const clientSecretId =
      partial.clientSecretId ??
      (await prompter.password({ message: 'Client secret id:', validate: required }));
    return { username, clientId, clientSecretId };
  } catch (error) {
    if (error instanceof PromptCancelled)
      throw new CliError('interrupted', 'login cancelled; nothing was stored');
    throw error;
  }
}

export async function runLogin(options: LoginOptions, ctx: Context): Promise<LoginResult> {
  const { target, given } = options;
  const { profile, env, version } = target;
  let partial: Partial<Credentials> = {
    username: options.username,
    clientId: options.clientId,
    clientSecretId: await readSecret(options, ctx),
  };
  if (env === 'sandbox' && !partial.username && !partial.clientId && !partial.clientSecretId) {
    partial = { ...TEST_ACCOUNT };
    note(ctx, `using the sandbox test account ${TEST_ACCOUNT.username}`);
  }
  const credentials = await askMissing(partial, ctx, describeProfileEnv(target));
  const session = await openSession(ctx, target, { credentials });
  const now = ctx.clock();
  const store = await ctx.store();
  let storage: SecretStorage = 'file';
  const token = await session.renew(async (data) => {
    const stored = environmentOf(data, target);
    const kept = await storeSecret(ctx, target, credentials, {
      insecure: options.insecureStorage,
      previous: stored.credentials,
      file: store.path,
    });
    storage = kept.storage;
    // A secret the file held before goes away with the credentials it belonged to.
    stored.credentials = kept.stored;
    // Tokens of the credentials this login replaces are dropped.
    delete stored.tokens;
    if (options.storeVersion) stored.api = version;
    stored.loggedInAt = now.toISOString();
    if (given.auth || given.checkout) {
      const pair = addressesOf(data, target, version);
      if (given.auth) pair.auth = given.auth;
      if (given.checkout) pair.checkout = given.checkout;
    }
  });
  return {
    profile,
    env,
    api: version,
    username: credentials.username,
    client_id: credentials.clientId,
    token_expires_at: token.expiresAt,
    store: store.path,
    secret_storage: storage,
  };
}

export function renderLogin(result: LoginResult, options: LoginOptions, ctx: Context): void {
  // The login's data is for scripts that ask for it; a person gets the note below.
  if (options.json) render(ctx, chooseFormat(ctx, { asked: 'ndjson' }), { json: result, human: () => '' });
  note(
    ctx,
    `Logged in to ${result.env}${result.profile === DEFAULT_PROFILE ? '' : ` with profile ${result.profile}`} (${result.api}) as ${result.username}, client id ${result.client_id}; credentials stored in ${result.store}` +
      (result.secret_storage === 'keychain' ? ', the client secret in the OS keychain' : ''),
  );
}
