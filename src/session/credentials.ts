/**
 * Which credentials a command uses: the three PAYORDER_ variables when all are set (how CI jobs run,
 * no stored login needed), else the environment's stored login.
 */

import type { Context } from '../context.js';
import type { Credentials } from '../contract/token.js';
import { CliError } from '../errors.js';
import type { StoreData } from '../store/profile-data.js';
import type { EnvName } from './environments.js';

export const CREDENTIAL_VARIABLES = [
  'PAYORDER_USERNAME',
  'PAYORDER_CLIENT_ID',
  'PAYORDER_CLIENT_SECRET_ID',
] as const;

export type CredentialSource = 'environment variables' | 'store';

export function credentialsFromEnv(ctx: Context): Credentials | undefined {
  const {
    PAYORDER_USERNAME: username,
    PAYORDER_CLIENT_ID: clientId,
    PAYORDER_CLIENT_SECRET_ID: clientSecretId,
  } = ctx.env;
  return username && clientId && clientSecretId ? { username, clientId, clientSecretId } : undefined;
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
