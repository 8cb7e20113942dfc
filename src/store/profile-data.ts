/**
 * What the profile store holds, and helpers to reach into it. Plain data: no file access here, so
 * commands can use these without loading the store's dependencies.
 */

import type { EnvName } from '../contract/environments.js';
import type { Credentials } from '../contract/token.js';
import type { ApiVersion } from '../contract/versions.js';
import type { OutputFormat } from '../output/formats.js';

export interface CachedToken {
  accessToken: string;
  /** ISO time the service said it expires. */
  expiresAt: string;
  /** The client the token was issued to (shown by `status`; the cache key holds it too). */
  clientId: string;
}

export interface Addresses {
  auth?: string;
  checkout?: string;
}

export interface EnvProfile {
  credentials?: Credentials;
  /** The version chosen at login; --api and PAYORDER_API override it. */
  api?: ApiVersion;
  addresses?: Partial<Record<ApiVersion, Addresses>>;
  /** Cached tokens by their cache key (session/token-cache.ts): version, auth address, user, client. */
  tokens?: Record<string, CachedToken>;
  loggedInAt?: string;
}

export interface StoreData {
  defaults?: { env?: EnvName; api?: ApiVersion; output?: OutputFormat };
  environments?: Partial<Record<EnvName, EnvProfile>>;
}

/** The profile of an environment, created in `data` when it has none yet. */
export function profileOf(data: StoreData, env: EnvName): EnvProfile {
  data.environments ??= {};
  data.environments[env] ??= {};
  return data.environments[env];
}

/** The addresses of an environment and version, created when there are none yet. */
export function addressesOf(data: StoreData, env: EnvName, version: ApiVersion): Addresses {
  const profile = profileOf(data, env);
  profile.addresses ??= {};
  profile.addresses[version] ??= {};
  return profile.addresses[version];
}
