/**
 * Where a stored login's client secret lives, and the one place that puts it there, reads it back and
 * removes it. `login` puts it in the OS keychain when one answers: service "payorder", account
 * "ENV:CLIENT_ID" (e.g. "stage:9f2c") for the default profile and "PROFILE/ENV:CLIENT_ID" for a named
 * one (so two profiles with one client id keep a secret each), and the store's file then holds no secret. Otherwise, or with
 * --insecure-storage, it stays in the store's 0600 file; falling back says so on stderr, in one line.
 * The keychain is opened (and its addon loaded) only here, and only when a secret is written, read
 * for a token request, or removed.
 */
import type { Context } from '../context.js';
import type { Credentials } from '../contract/token.js';
import { CliError } from '../errors.js';
import { KEYCHAIN_SERVICE, keychainProblem } from '../store/keychain.js';
import {
  DEFAULT_PROFILE,
  describeProfileEnv,
  type ProfileEnv,
  profileEnvFlags,
  type StoredCredentials,
} from '../store/profile-data.js';
import { warn } from '../terminal/messages.js';

export type SecretStorage = 'keychain' | 'file';

/**
 * The keychain account of a login: the environment and the client id, after the profile's name for a
 * named profile. Neither a profile nor an environment name holds "/" or ":", so no two logins share one.
 */
export const keychainAccount = ({ profile, env }: ProfileEnv, clientId: string) =>
  profile === DEFAULT_PROFILE ? `${env}:${clientId}` : `${profile}/${env}:${clientId}`;

const entryName = (account: string) => `service ${KEYCHAIN_SERVICE}, account ${account}`;

export interface StoreSecretOptions {
  /** --insecure-storage: the file, without trying the keychain. */
  insecure: boolean;
  /** The login this one replaces: its keychain entry is removed when it is not reused. */
  previous?: StoredCredentials;
  /** The store's file, named by the fallback warning. */
  file: string;
}

/**
 * Puts a login's secret where it belongs and returns the credentials to store in the profile, with
 * the secret only when it goes to the file. Called once the credentials have been proved.
 */
export async function storeSecret(
  ctx: Context,
  at: ProfileEnv,
  credentials: Credentials,
  { insecure, previous, file }: StoreSecretOptions,
): Promise<{ stored: StoredCredentials; storage: SecretStorage }> {
  const { username, clientId, clientSecretId } = credentials;
  const account = keychainAccount(at, clientId);
  let storage: SecretStorage = 'file';
  if (!insecure) {
    const access = await ctx.keychain();
    let problem: string | undefined;
    if ('keychain' in access) {
      try {
        await access.keychain.write(account, clientSecretId);
        storage = 'keychain';
      } catch (error) {
        problem = keychainProblem(error);
      }
    } else problem = access.unreachable;
    if (problem)
      warn(
        ctx,
        `the OS keychain cannot be used (${problem}); the client secret is stored in the 0600 file ${file} (--insecure-storage chooses the file without this warning)`,
      );
  }
  // The entry of the login this one replaces, unless it was just overwritten: a secret is kept in one place.
  if (previous?.secretIn === 'keychain') {
    const old = keychainAccount(at, previous.clientId);
    if (storage === 'file' || old !== account) await removeEntry(ctx, old);
  }
  return storage === 'keychain'
    ? { stored: { username, clientId, secretIn: 'keychain' }, storage }
    : { stored: { username, clientId, clientSecretId }, storage };
}

/** The secret of a stored login, for a token request: from the file, or read from the keychain now. */
export async function storedSecret(
  ctx: Context,
  at: ProfileEnv,
  credentials: { clientId: string; clientSecretId?: string },
): Promise<string> {
  if (credentials.clientSecretId !== undefined) return credentials.clientSecretId;
  const account = keychainAccount(at, credentials.clientId);
  const env = describeProfileEnv(at);
  const again = `log in again: payorder login ${profileEnvFlags(at)}`;
  const access = await ctx.keychain();
  let secret: string | undefined;
  try {
    if (!('keychain' in access)) throw new Error(access.unreachable);
    secret = await access.keychain.read(account);
  } catch (error) {
    throw new CliError(
      'auth',
      `the client secret of ${env} is in the OS keychain, which cannot be read: ${keychainProblem(error)}`,
      {
        hint: `unlock the keychain and run the command again, or ${again} (--insecure-storage keeps the secret in the store's file)`,
      },
    );
  }
  if (secret === undefined || secret === '')
    throw new CliError(
      'auth',
      `the client secret of ${env} is missing from the OS keychain (${entryName(account)})`,
      {
        hint: again,
      },
    );
  return secret;
}

/**
 * Logout: removes the keychain entry of a stored login. A secret the profile puts in the keychain and
 * that cannot be removed is named in a warning, so the user can remove it by hand; for a login kept
 * in the file, a leftover entry is removed when the keychain answers, and nothing is said otherwise.
 */
export async function forgetSecret(ctx: Context, at: ProfileEnv, stored: StoredCredentials): Promise<void> {
  const account = keychainAccount(at, stored.clientId);
  const problem = await removeEntry(ctx, account);
  if (problem && stored.secretIn === 'keychain')
    warn(
      ctx,
      `the client secret of ${describeProfileEnv(at)} stays in the OS keychain (${entryName(account)}), which cannot be changed: ${problem}; remove it there`,
    );
}

/** Removes an entry; what went wrong, or undefined when it is gone (or never was). */
async function removeEntry(ctx: Context, account: string): Promise<string | undefined> {
  const access = await ctx.keychain();
  if (!('keychain' in access)) return access.unreachable;
  try {
    await access.keychain.remove(account);
    return undefined;
  } catch (error) {
    return keychainProblem(error);
  }
}
