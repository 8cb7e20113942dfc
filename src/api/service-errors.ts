/**
 * What each row of the spec's error catalog (§7) means to a person: a typed error with one line
 * and a hint. Two tables, one per endpoint, typed over the catalog's ids, so a row without an
 * entry here is a compile error rather than a silent "rejected".
 */
import type { CatalogEntry, CatalogIdOf } from '../contract/catalog.js';
import type { EnvName } from '../contract/environments.js';
import type { Credentials } from '../contract/token.js';
import type { ApiVersion } from '../contract/versions.js';
import { CliError, type ErrorKind } from '../errors.js';

interface Situation {
  env: EnvName;
  version: ApiVersion;
  /** Whether the failed call was an order creation (its messages say nothing was created). */
  creating: boolean;
  credentials?: Credentials;
  /** The command that logs in again where the refusal happened (`payorder login --env …`). */
  relogin: string;
}

type Describe = (s: Situation, code: string, entry: CatalogEntry) => [ErrorKind, string, string];

const TOKEN_ERRORS: Record<CatalogIdOf<'token'>, Describe> = {
  '3001': ({ env, relogin }, code) => [
    'auth',
    `the token service on ${env} says a required field is empty${code}`,
    `log in again with username, client id and secret: ${relogin}`,
  ],
  '3002': ({ env }, code) => [
    'auth',
    `the token service on ${env} does not support the client_credentials grant${code}`,
    'check that the auth address points at the Payment Order Service (payorder config list)',
  ],
  '3003': ({ env, relogin, credentials }, code) => [
    'auth',
    `no user account "${credentials?.username}" on ${env}${code}`,
    `check the username in your welcome message, then ${relogin}`,
  ],
  '3005': ({ env, relogin, credentials }, code) => [
    'auth',
    `no active client with client id "${credentials?.clientId}" on ${env}${code}`,
    `credentials are issued per environment; use the ${env} ones: ${relogin}`,
  ],
  '3006': ({ env, relogin, credentials }, code) => [
    'auth',
    `the secret does not match client id "${credentials?.clientId}" on ${env}${code}`,
    `enter the client secret id again: ${relogin}`,
  ],
  'token-500': ({ env }, _, entry) => [
    'rejected',
    `the token service on ${env} failed (${entry.status}: ${entry.text}); nothing was stored`,
    'try again in a moment',
  ],
};

const ORDER_ERRORS: Record<CatalogIdOf<'order'>, Describe> = {
  '1001': (_, code) => [
    'rejected',
    `the service says a mandatory field is missing${code}: amount, description, success and fail are required`,
    'check the order fields; nothing was created',
  ],
  '1003': ({ version }, code) => [
    'rejected',
    `the service refused the amount format${code}: amount must have only digits and a single point`,
    version === 'v1'
      ? 'give --amount like 12.50'
      : 'v2 wants whole cents; payorder converts --amount for you',
  ],
  '1004': ({ env, relogin }, code) => [
    'rejected',
    `the service knows no user with the stored username on ${env}${code}`,
    `v1 sends the login's username as userName: log in again with the right username (${relogin} --api v1)`,
  ],
  '1002': ({ env, relogin }, code) => [
    'auth',
    `the stored username does not match the credentials of the token on ${env}${code}`,
    `username and client id belong to different accounts: ${relogin}`,
  ],
  unauthorized: ({ env, relogin }) => [
    'auth',
    `the service did not accept the access token on ${env} (401 Unauthorized)`,
    `log in again: ${relogin}`,
  ],
  expired: ({ env, relogin }) => [
    'auth',
    `the service refused the access token as expired on ${env} (403)`,
    `log in again: ${relogin}`,
  ],
  // "Please try again" does not say the order was not made: a failure after the order was stored
  // answers the same. Sending it again could create it twice.
  '999': ({ creating }, code) =>
    creating
      ? [
          'outcome_unknown',
          `outcome unknown: the service failed${code} while creating the order; it may or may not exist`,
          'look it up (payorder order get) or check the merchant panel before creating it again',
        ]
      : ['rejected', `the service failed${code}`, 'try again in a moment'],
};

/** The typed error for a catalog row the service answered with. */
export function catalogError(entry: CatalogEntry, situation: Situation): CliError {
  const table: Partial<Record<string, Describe>> = entry.endpoint === 'token' ? TOKEN_ERRORS : ORDER_ERRORS;
  const describe = table[entry.id];
  // Both tables are complete over the catalog (a missing row is a compile error): this is an entry made up.
  if (!describe) throw new Error(`no catalog row ${entry.id} for the ${entry.endpoint} endpoint`);
  const code =
    entry.endpoint === 'token' ? (entry.code ? ` (${entry.code})` : '') : ` (${entry.code ?? entry.status})`;
  const [kind, message, hint] = describe(situation, code, entry);
  return new CliError(kind, message, { code: entry.code ?? entry.id, status: entry.status, hint });
}
