/**
 * What the profile store holds, and helpers to reach into it. Plain data: no file access here, so
 * commands can use these without loading the store's dependencies.
 *
 * A profile is a named set of logins, addresses and tokens, one per environment: one person serving
 * several merchants keeps each merchant's in a profile of its own. The default profile is the
 * store's top level (`environments`), as payorder wrote it before there were profiles, so an older
 * store reads as the default profile and an older payorder still reads the default profile of a newer
 * store; the others are under `profiles.NAME.environments`.
 */

import type { EnvName } from '../contract/environments.js';
import type { ApiVersion } from '../contract/versions.js';
import type { OutputFormat } from '../formats.js';

export interface CachedToken {
  accessToken: string;
  /** ISO time the service said it expires. */
  expiresAt: string;
  /** The client the token was issued to (shown by `status`; the cache key holds it too). */
  clientId: string;
  /**
   * Issued while PAYORDER_NOW set payorder's clock (a rehearsal of another date): expiresAt is on
   * that clock, not the service's, so a run on the real clock does not use it.
   */
  rehearsal?: true;
}

export interface Addresses {
  auth?: string;
  checkout?: string;
}

/**
 * An environment's stored login. The client secret is in this file (clientSecretId) or, when
 * secretIn is 'keychain', in the OS keychain (session/secret-storage.ts names its entry).
 */
export interface StoredCredentials {
  username: string;
  clientId: string;
  clientSecretId?: string;
  secretIn?: 'keychain';
}

/** What a profile keeps for one environment. */
export interface EnvironmentData {
  credentials?: StoredCredentials;
  /** The version chosen at login; --api and PAYORDER_API override it. */
  api?: ApiVersion;
  addresses?: Partial<Record<ApiVersion, Addresses>>;
  /** Cached tokens by their cache key (session/token-cache.ts): version, auth address, user, client. */
  tokens?: Record<string, CachedToken>;
  loggedInAt?: string;
}

/** A profile: what it keeps per environment. */
export interface ProfileData {
  environments?: Partial<Record<EnvName, EnvironmentData>>;
}

export interface StoreData extends ProfileData {
  defaults?: {
    env?: EnvName;
    api?: ApiVersion;
    output?: OutputFormat;
    /** config batch-window: a duration such as "24h" (session/config-keys.ts). */
    batchWindow?: string;
    /** config default-success, default-fail, default-description: for batch lines without them. */
    success?: string;
    fail?: string;
    description?: string;
    /** config ledger: false keeps no order ledger (ledger/choice.ts). */
    ledger?: boolean;
  };
  /** The named profiles; the default profile is the top level's `environments`. */
  profiles?: Record<string, ProfileData>;
  /** `config set allow-insecure-http true`: http:// addresses for production and stage, with a warning. */
  allowInsecureHttp?: boolean;
}

/** The profile used when none is named. */
export const DEFAULT_PROFILE = 'default';

/** What a profile name may be: short, and safe in a file, a keychain entry and a shell word. */
export const PROFILE_NAME = /^[a-z0-9][a-z0-9_-]{0,31}$/;

/** PROFILE_NAME in words, for the error that refuses a name. */
export const PROFILE_NAME_RULE =
  'use 1 to 32 lowercase letters, digits, "-" or "_", starting with a letter or digit';

/** An environment of a profile: where one login, its addresses and its tokens are kept. */
export interface ProfileEnv {
  profile: string;
  env: EnvName;
}

/** "stage", or "stage (profile shop-b)": how messages name an environment of a profile. */
export function describeProfileEnv({ profile, env }: ProfileEnv): string {
  return profile === DEFAULT_PROFILE ? env : `${env} (profile ${profile})`;
}

/** The flags that select an environment of a profile, for a hint: "--env stage --profile shop-b". */
export function profileEnvFlags({ profile, env }: ProfileEnv): string {
  return profile === DEFAULT_PROFILE ? `--env ${env}` : `--env ${env} --profile ${profile}`;
}

/** A profile as it is in `data`, or undefined when it has nothing stored. */
export function profileData(data: StoreData, profile: string): ProfileData | undefined {
  return profile === DEFAULT_PROFILE ? data : data.profiles?.[profile];
}

/** Every profile of the store: the default one first, then the named ones by name. */
export function profileNames(data: StoreData): string[] {
  const named = Object.keys(data.profiles ?? {}).filter((name) => name !== DEFAULT_PROFILE);
  return [DEFAULT_PROFILE, ...named.sort()];
}

/** What a profile keeps for an environment, or undefined when it keeps nothing. */
export function storedEnvironment(
  data: StoreData,
  { profile, env }: ProfileEnv,
): EnvironmentData | undefined {
  return profileData(data, profile)?.environments?.[env];
}

/**
 * The addresses a named profile keeps for itself for `env` and `version` (the default profile's are
 * everyone's: undefined for it).
 */
export function ownAddresses(
  data: StoreData,
  { profile, env }: ProfileEnv,
  version: ApiVersion,
): Addresses | undefined {
  return profile === DEFAULT_PROFILE
    ? undefined
    : storedEnvironment(data, { profile, env })?.addresses?.[version];
}

/** What a profile keeps for an environment, created in `data` (the profile too) when there is none yet. */
export function environmentOf(data: StoreData, { profile, env }: ProfileEnv): EnvironmentData {
  let holder: ProfileData = data;
  if (profile !== DEFAULT_PROFILE) {
    data.profiles ??= {};
    holder = data.profiles[profile] ??= {};
  }
  holder.environments ??= {};
  holder.environments[env] ??= {};
  return holder.environments[env];
}

/** The addresses of an environment of a profile for a version, created when there are none yet. */
export function addressesOf(data: StoreData, at: ProfileEnv, version: ApiVersion): Addresses {
  const stored = environmentOf(data, at);
  stored.addresses ??= {};
  stored.addresses[version] ??= {};
  return stored.addresses[version];
}

/** Whether an environment's data holds a login, a token or an address (a version alone does not count). */
const holdsSomething = (stored: EnvironmentData | undefined) =>
  Boolean(
    stored?.credentials ||
      Object.keys(stored?.tokens ?? {}).length > 0 ||
      Object.values(stored?.addresses ?? {}).some((pair) => pair?.auth || pair?.checkout),
  );

/**
 * Drops what a named profile keeps for environments without a login, token or address, and the
 * profile itself when nothing is left, so that a profile logged out of everywhere is gone. The
 * default profile stays as it is.
 */
export function pruneProfile(data: StoreData, profile: string): void {
  if (profile === DEFAULT_PROFILE) return;
  const named = data.profiles?.[profile];
  if (!named) return;
  const { environments = {} } = named;
  for (const [env, stored] of Object.entries(environments))
    if (!holdsSomething(stored)) delete environments[env as EnvName];
  if (Object.keys(environments).length === 0 && data.profiles) delete data.profiles[profile];
  if (Object.keys(data.profiles ?? {}).length === 0) delete data.profiles;
}
