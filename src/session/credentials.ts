/**
 * Which credentials a command uses: the three PAYORDER_ variables when all are set (how CI jobs run,
 * no stored login needed), else, when none is set, the environment's stored login. Some but not all
 * of them set is an error.
 */

import type { Context } from '../context.js';
import type { EnvName } from '../contract/environments.js';
import type { Credentials } from '../contract/token.js';
import { CliError, usageError } from '../errors.js';
import type { StoreData } from '../store/profile-data.js';

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
  return {
    username: PAYORDER_USERNAME!,
    clientId: PAYORDER_CLIENT_ID!,
    clientSecretId: PAYORDER_CLIENT_SECRET_ID!,
  };
}

export function findCredentials(
  ctx: Context,
  data: StoreData,
  env: EnvName,
): { credentials: Credentials; source: CredentialSource } | undefined {
  const fromEnv = credentialsFromEnv(ctx);
  if (fromEnv) return { credentials: fromEnv, source: 'environment variables' };
  const stored = data.environments?.[env]?.credentials;
  return stored ? { credentials: stored, source: 'store' } : undefined;
}

export function requireCredentials(ctx: Context, data: StoreData, env: EnvName) {
  const found = findCredentials(ctx, data, env);
  if (found) return found;
  throw new CliError('auth', `not logged in to ${env}`, {
    hint: `run payorder login --env ${env}, or set ${CREDENTIAL_VARIABLES.join(', ')}`,
  });
}
