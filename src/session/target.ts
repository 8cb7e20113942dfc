/**
 * Which profile, environment, version and addresses a command talks to. Precedence, highest first:
 * flag → PAYORDER_ variable → what the profile stores for the environment → the stored default →
 * built-in default (profile default, stage, v2). A named profile without addresses of its own for an
 * environment uses the default profile's: addresses belong to the service, logins to the merchant.
 * v1 warns with the days left until its sunset and is refused after it, by the context's clock.
 */
import type { Target } from '../api/service.js';
import type { Context } from '../context.js';
import {
  DEFAULT_ENV,
  ENV_CHOICES,
  ENVIRONMENTS,
  type EnvName,
  normalizeEnv,
  SANDBOX_DEFAULT_URL,
} from '../contract/environments.js';
import { checkBaseUrl } from '../contract/urls.js';
import { API_VERSIONS, type ApiVersion, daysUntilSunset, V1_SUNSET } from '../contract/versions.js';
import { CliError, usageError } from '../errors.js';
import {
  DEFAULT_PROFILE,
  ownAddresses,
  PROFILE_NAME,
  PROFILE_NAME_RULE,
  type ProfileEnv,
  type StoreData,
  storedEnvironment,
} from '../store/profile-data.js';
import { warn } from '../terminal/messages.js';
import { checkCleartext, insecureHttpOf } from './cleartext.js';

export interface TargetFlags {
  env?: string;
  api?: string;
  profile?: string;
}

/** The profile: --profile, else PAYORDER_PROFILE, else the default; a name against the rule is refused. */
export function resolveProfile(ctx: Context, flags: TargetFlags): string {
  const [given, from] =
    flags.profile !== undefined
      ? [flags.profile, '--profile']
      : ctx.env.PAYORDER_PROFILE
        ? [ctx.env.PAYORDER_PROFILE, 'PAYORDER_PROFILE']
        : [DEFAULT_PROFILE, 'the default profile'];
  if (!PROFILE_NAME.test(given))
    throw usageError(`${from}: "${given}" is not a profile name; ${PROFILE_NAME_RULE}`, { field: from });
  return given;
}

export function resolveEnv(ctx: Context, flags: TargetFlags, data: StoreData): EnvName {
  const [given, from] = flags.env
    ? [flags.env, '--env']
    : ctx.env.PAYORDER_ENV
      ? [ctx.env.PAYORDER_ENV, 'PAYORDER_ENV']
      : [data.defaults?.env ?? DEFAULT_ENV, 'the default environment'];
  const env = normalizeEnv(given);
  if (!env)
    throw usageError(`${from}: unknown environment "${given}"; choose one of ${ENV_CHOICES.join(', ')}`, {
      field: from,
    });
  return env;
}

/** The version: --api, PAYORDER_API, the one the profile's login chose, the stored default, else v2. */
export function resolveVersion(ctx: Context, flags: TargetFlags, data: StoreData, env: EnvName): ApiVersion {
  const profile = resolveProfile(ctx, flags);
  const [given, from] = flags.api
    ? [flags.api, '--api']
    : ctx.env.PAYORDER_API
      ? [ctx.env.PAYORDER_API, 'PAYORDER_API']
      : [storedEnvironment(data, { profile, env })?.api ?? data.defaults?.api ?? 'v2', 'the stored version'];
  const version = given.toLowerCase();
  if (!(API_VERSIONS as readonly string[]).includes(version)) {
    throw usageError(`${from}: unknown API version "${given}"; choose v1 or v2`, { field: from });
  }
  return version as ApiVersion;
}

const warned = new WeakSet<Context>();

/** Warns about v1 on stderr (once per run), or refuses it once it is switched off. */
export function checkSunset(ctx: Context, version: ApiVersion): void {
  if (version !== 'v1') return;
  const days = daysUntilSunset(ctx.clock());
  if (days < 0) {
    throw usageError(`API v1 was switched off on ${V1_SUNSET}; use --api v2`, {
      hint: 'payorder migrate-check shows what an integration must change for v2',
    });
  }
  if (warned.has(ctx)) return;
  warned.add(ctx);
  const left = days === 0 ? 'today is its last day' : `${days} day${days === 1 ? '' : 's'} left`;
  warn(
    ctx,
    `API v1 is deprecated and is switched off on ${V1_SUNSET} (${left}); move to --api v2 (see payorder migrate-check)`,
  );
}

export type AddressKind = 'auth' | 'checkout';

/** An address and where it comes from: the name of the flag, variable or config key. */
export interface ResolvedAddress {
  url: string;
  from: string;
  /** What the user would run or set to give `url` instead, where the address came from. */
  fix: (url: string) => string;
}

/**
 * Where an address comes from, for `status` and for the error that names a missing one: the
 * variable, the profile's own address, the default profile's, or the sandbox's default.
 */
export function findAddress(
  ctx: Context,
  data: StoreData,
  env: EnvName,
  version: ApiVersion,
  kind: AddressKind,
  profile: string,
): ResolvedAddress | undefined {
  const variable = kind === 'auth' ? 'PAYORDER_AUTH_URL' : 'PAYORDER_CHECKOUT_URL';
  const override = ctx.env[variable];
  if (override) return { url: override, from: variable, fix: (url) => `${variable}=${url}` };
  // A profile's own addresses are a pair: a token goes only where its own auth address belongs, so
  // a profile with an address of its own never borrows the other one from the default profile.
  const ownPair = ownAddresses(data, { profile, env }, version);
  if (ownPair?.auth || ownPair?.checkout) {
    const own = ownPair[kind];
    return own
      ? {
          url: own,
          from: `the ${kind} address of profile ${profile}`,
          fix: (url) => `payorder login --env ${env} --profile ${profile} --${kind}-url ${url}`,
        }
      : undefined;
  }
  const shared = storedEnvironment(data, { profile: DEFAULT_PROFILE, env })?.addresses?.[version]?.[kind];
  const key = configKey(env, version, kind);
  if (shared) return { url: shared, from: key, fix: (url) => `payorder config set ${key} ${url}` };
  return env === 'sandbox'
    ? {
        url: SANDBOX_DEFAULT_URL,
        from: 'the sandbox default',
        fix: (url) => `payorder config set ${key} ${url}`,
      }
    : undefined;
}

/** The address alone (status shows it as it is configured). */
export function resolveAddress(
  ctx: Context,
  data: StoreData,
  at: ProfileEnv,
  version: ApiVersion,
  kind: AddressKind,
): string | undefined {
  return findAddress(ctx, data, at.env, version, kind, at.profile)?.url;
}

export function configKey(env: EnvName, version: ApiVersion, kind: AddressKind): string {
  return `${env}.${version}.${kind}-url`;
}

/**
 * The environment, version and addresses a command talks to. `given` are addresses the command
 * itself was handed (login's --auth-url / --checkout-url); they win over everything else.
 */
/**
 * When a command went to the default environment and this profile is logged in only elsewhere (a
 * `login --env sandbox` followed by a command without --env): how to go there, or make it the default.
 */
export function loggedInElsewhere(
  data: StoreData,
  at: ProfileEnv,
  envByDefault: boolean | undefined,
): string | undefined {
  if (!envByDefault) return undefined;
  const others = ENVIRONMENTS.filter(
    (env) => env !== at.env && storedEnvironment(data, { profile: at.profile, env })?.credentials,
  );
  const other = others.find((env) => env !== 'production') ?? others[0];
  if (!other) return undefined;
  // Production is never a default: it is named each time.
  return other === 'production'
    ? `you are logged in to production: name it with --env production`
    : `you are logged in to ${other}: add --env ${other}, or make it the default: payorder config set default-env ${other}`;
}

export function resolveTarget(
  ctx: Context,
  flags: TargetFlags,
  data: StoreData,
  given: Partial<Record<AddressKind, string>> = {},
): Target {
  const profile = resolveProfile(ctx, flags);
  const env = resolveEnv(ctx, flags, data);
  const version = resolveVersion(ctx, flags, data, env);
  checkSunset(ctx, version);
  const insecureHttp = insecureHttpOf(ctx, data);
  const address = (kind: AddressKind) => {
    const fromCommand = given[kind];
    const found: ResolvedAddress | undefined = fromCommand
      ? { url: fromCommand, from: `--${kind}-url`, fix: (url) => `--${kind}-url ${url}` }
      : findAddress(ctx, data, env, version, kind, profile);
    if (found) {
      // Every address is checked where it is used, naming where it came from: a stored one may
      // have been written by hand or by an older payorder.
      const url = fromCommand ?? checkBaseUrl(found.from, found.url);
      checkCleartext(ctx, { env, field: found.from, url, fix: found.fix }, insecureHttp);
      return url;
    }
    const variable = kind === 'auth' ? 'PAYORDER_AUTH_URL' : 'PAYORDER_CHECKOUT_URL';
    if (ownAddresses(data, { profile, env }, version))
      throw new CliError(
        'config',
        `profile ${profile} has its own addresses for ${env} ${version} but no ${kind} address`,
        {
          field: variable,
          hint: `log in again with --profile ${profile} --auth-url … --checkout-url … (the two go together)`,
        },
      );
    const elsewhere = loggedInElsewhere(data, { profile, env }, !flags.env && !ctx.env.PAYORDER_ENV);
    const setIt = `set it with: payorder config set ${configKey(env, version, kind)} https://… (or ${variable} for one run)`;
    throw new CliError('config', `no ${kind} address is configured for ${env} ${version}`, {
      field: configKey(env, version, kind),
      hint: elsewhere ? `${elsewhere}; or ${setIt}` : setIt,
    });
  };
  return {
    profile,
    env,
    version,
    authBase: address('auth'),
    checkoutBase: address('checkout'),
    impliedVersion: resolveVersion(ctx, { profile }, data, env),
    envByDefault: !flags.env && !ctx.env.PAYORDER_ENV,
  };
}
