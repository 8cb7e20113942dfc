/**
 * The sandbox's accounts: who may ask for a token. A documented test account exists when none is given.
 */
import type { Credentials } from '../contract/token.js';

/** The built-in test account, documented in the README; it is not a secret. */
export const TEST_ACCOUNT: Credentials = Object.freeze({
  username: 'sandbox-merchant',
  clientId: 'sandbox-client',
  clientSecretId: 'sandbox-secret',
});

/** Parses `USER:CLIENT_ID:SECRET`; the secret may itself contain colons. */
export function parseAccount(spec: string): Credentials {
  const [username, clientId, ...rest] = spec.split(':');
  const clientSecretId = rest.join(':');
  if (!username || !clientId || !clientSecretId) {
    throw new Error(
      `--account must be USER:CLIENT_ID:SECRET, each part non-empty (got ${rest.length + 2} parts)`,
    );
  }
  return { username, clientId, clientSecretId };
}
