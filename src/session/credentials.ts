/**
 * Which credentials a command uses: the three PAYORDER_ variables when all are set (how CI jobs run,
 * no stored login needed), else, when none is set, the login the profile stores for the environment.
 * Some but not all of them set is an error. A stored login's secret is in the store's file or in the
 * OS keychain.
 */

import type { Target } from '../api/service.js';
import { commandLine } from '../command-line.js';
import type { Context } from '../context.js';
import type { Account, Credentials } from '../contract/token.js';
import { CliError, usageError } from '../errors.js';
import {
  describeProfileEnv,
  type ProfileEnv,
  type StoreData,
  storedEnvironment,
} from '../store/profile-data.js';
import { loggedInElsewhere } from './target.js';

export const CREDENTIAL_VARIABLES = [
  'PAYORDER_USERNAME',
  'PAYORDER_CLIENT_ID',
  'PAYORDER_CLIENT_SECRET_ID',
] as const;

export type CredentialSource = 'environment variables' | 'store';

/**
 * The credentials the three variables give; undefined when none is set. One or two of them set
 * without the rest is an error naming the missing ones, never a silent fall back to the stored
 * login (perhaps another account's).
 */
export function credentialsFromEnv(ctx: Context): Credentials | undefined {
  const set = CREDENTIAL_VARIABLES.filter((name) => ctx.env[name]);
  if (set.length === 0) return undefined;
  if (set.length < CREDENTIAL_VARIABLES.length) {
    const missing = CREDENTIAL_VARIABLES.filter((name) => !ctx.env[name]);
    throw usageError(
      `${set.join(' and ')} ${set.length === 1 ? 'is' : 'are'} set but ${missing.join(' and ')} ${missing.length === 1 ? 'is' : 'are'} not`,
      {
        field: missing[0],
        hint: 'set all three credential variables, or none to use the stored login',
      },
    );
  }
  const { PAYORDER_USERNAME, PAYORDER_CLIENT_ID, PAYORDER_CLIENT_SECRET_ID } = ctx.env;
  // All three are set: a missing one is refused above.
  if (!PAYORDER_USERNAME || !PAYORDER_CLIENT_ID || !PAYORDER_CLIENT_SECRET_ID) return undefined;
  return {
    username: PAYORDER_USERNAME,
    clientId: PAYORDER_CLIENT_ID,
    clientSecretId: PAYORDER_CLIENT_SECRET_ID,
  };
}

/** Where a login's client secret is: a variable, the store's file, or the OS keychain. */
export type SecretPlace = 'environment variables' | 'file' | 'keychain';

export interface FoundCredentials {
  /**
   * The credentials; the secret only when it is at hand (a variable, the file). A secret in the
   * keychain is read when a token is requested (session/secret-storage.ts), not before.
   */
  credentials: Account & { clientSecretId?: string };
  source: CredentialSource;
  secretIn: SecretPlace;
}

export function findCredentials(ctx: Context, data: StoreData, at: ProfileEnv): FoundCredentials | undefined {
  const fromEnv = credentialsFromEnv(ctx);
  if (fromEnv)
    return { credentials: fromEnv, source: 'environment variables', secretIn: 'environment variables' };
  const stored = storedEnvironment(data, at)?.credentials;
  if (!stored) return undefined;
  const { username, clientId, clientSecretId } = stored;
  return stored.secretIn === 'keychain'
    ? { credentials: { username, clientId }, source: 'store', secretIn: 'keychain' }
    : { credentials: { username, clientId, clientSecretId }, source: 'store', secretIn: 'file' };
}

/**
 * The credentials for an environment of a profile (a Target is one); an auth error when there are
 * none, which says so when the profile is logged in to another environment than the default one.
 */
export function requireCredentials(
  ctx: Context,
  data: StoreData,
  at: ProfileEnv & Pick<Target, 'envByDefault'>,
): FoundCredentials {
  const found = findCredentials(ctx, data, at);
  if (found) return found;
  const login = `run ${commandLine(['login'], { ...at, version: 'v2' }, { api: false })}, or set ${CREDENTIAL_VARIABLES.join(', ')}`;
  const elsewhere = loggedInElsewhere(data, at, at.envByDefault);
  throw new CliError('auth', `not logged in to ${describeProfileEnv(at)}`, {
    hint: elsewhere ? `${elsewhere}; or ${login}` : login,
  });
}
