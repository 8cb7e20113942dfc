/**
 * The token cache: which cached token belongs to a request, whether it is still usable, and the
 * one place that writes a token into the store. A token is valid only for what it was issued
 * against, so the key holds all of it: profile and environment (where it is kept: the tokens of one
 * profile are never looked up for another), API version, auth address, username and client id; and
 * the order address it goes with, so a token is only ever sent to the order service paired with the
 * token service that issued it.
 */
import type { Target } from '../api/service.js';
import { type Account, type IssuedToken, TOKEN_VALUE } from '../contract/token.js';
import { type CachedToken, environmentOf, type StoreData, storedEnvironment } from '../store/profile-data.js';

/** Renew this long before the service's expiry, so a token never dies in flight. */
export const RENEW_EARLY_MS = 60_000;

/**
 * The cache key of a token within its profile's environment (target.profile, target.env): version,
 * addresses, username and client id.
 */
export function tokenKey(target: Target, credentials: Account): string {
  return [
    target.version,
    target.authBase,
    target.checkoutBase,
    credentials.username,
    credentials.clientId,
  ].join(' ');
}

/** Whether a cached token may still be sent: it expires more than RENEW_EARLY_MS from now. */
export function isUsable(token: CachedToken | undefined, now: Date): token is CachedToken {
  return token !== undefined && usableUntil(token) > now.getTime();
}

/** Until when (ms since the epoch) a cached token may be sent. */
export const usableUntil = (token: CachedToken): number => Date.parse(token.expiresAt) - RENEW_EARLY_MS;

/**
 * Whether a stored entry is a token payorder could send. An older payorder cached whatever the
 * service answered: a token with a line break in it would break every request that carries it, so
 * such an entry counts as no token and is replaced by the next renewal.
 */
const isSendable = (token: CachedToken | undefined): token is CachedToken =>
  token !== undefined &&
  typeof token.accessToken === 'string' &&
  TOKEN_VALUE.test(token.accessToken) &&
  typeof token.expiresAt === 'string' &&
  !Number.isNaN(Date.parse(token.expiresAt));

/**
 * The cached token for this target and these credentials, usable or not. A run on the real clock
 * (`rehearsal` false) does not see a token cached during a rehearsal (PAYORDER_NOW): its expiry was
 * counted from another date, and would say it lives for weeks when the service refuses it already.
 */
export function cachedToken(
  data: StoreData,
  target: Target,
  credentials: Account,
  rehearsal = false,
): CachedToken | undefined {
  const token = storedEnvironment(data, target)?.tokens?.[tokenKey(target, credentials)];
  return isSendable(token) && (rehearsal || token.rehearsal !== true) ? token : undefined;
}

/**
 * Writes a newly issued token into `data` (inside a store update) and returns it. Tokens that have
 * expired, or that could not be sent, are dropped on the way, so the cache stays as small as the set
 * of live logins. One issued during a rehearsal (PAYORDER_NOW) is marked as such.
 */
export function rememberToken(
  data: StoreData,
  target: Target,
  credentials: Account,
  issued: IssuedToken,
  now: Date,
  rehearsal = false,
): CachedToken {
  const stored = environmentOf(data, target);
  const tokens: Record<string, CachedToken> = {};
  for (const [key, token] of Object.entries(stored.tokens ?? {}))
    if (isSendable(token) && Date.parse(token.expiresAt) > now.getTime()) tokens[key] = token;
  const token: CachedToken = {
    accessToken: issued.accessToken,
    expiresAt: new Date(now.getTime() + issued.expiresIn * 1000).toISOString(),
    clientId: credentials.clientId,
    ...(rehearsal ? { rehearsal: true as const } : {}),
  };
  tokens[tokenKey(target, credentials)] = token;
  stored.tokens = tokens;
  return token;
}
