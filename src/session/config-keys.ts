/**
 * The keys `payorder config` reads and writes, each with its rule and its place in the store.
 */

import { ENV_CHOICES, ENVIRONMENTS, type EnvName, normalizeEnv } from '../contract/environments.js';
import { checkBaseUrl, checkHttpUrl } from '../contract/urls.js';
import { API_VERSIONS, type ApiVersion } from '../contract/versions.js';
import { invalidField } from '../errors.js';
import { OUTPUT_FORMATS, type OutputFormat } from '../formats.js';
import { addressesOf, DEFAULT_PROFILE, type StoreData } from '../store/profile-data.js';
import { duration } from '../values.js';
import { ALLOW_INSECURE_HTTP } from './cleartext.js';

interface KeyRule {
  key: string;
  description: string;
  get(data: StoreData): string | undefined;
  set(data: StoreData, value: string | undefined): void;
  /** Checks and normalizes a value; throws a usage error naming the key and the rule. */
  check(value: string): string;
}

/**
 * A config key: a setting, or a service address of an environment (whose value `config set` also
 * holds to the cleartext rule of that environment, session/cleartext.ts).
 */
export type ConfigKey = (KeyRule & { kind: 'setting' }) | (KeyRule & { kind: 'address'; env: EnvName });

function oneOf<T extends string>(key: string, choices: readonly T[], value: string): T {
  const lower = value.toLowerCase();
  if (!(choices as readonly string[]).includes(lower))
    throw invalidField(key, `must be one of ${choices.join(', ')}, got "${value}"`);
  return lower as T;
}

const defaults = (data: StoreData) => (data.defaults ??= {});

const DEFAULT_KEYS: ConfigKey[] = [
  {
    kind: 'setting',
    key: 'default-env',
    description: 'environment used when neither --env nor PAYORDER_ENV is given (never production)',
    get: (data) => data.defaults?.env,
    set: (data, value) => {
      defaults(data).env = value as EnvName | undefined;
    },
    check: (value) => {
      const env = normalizeEnv(oneOf('default-env', ENV_CHOICES, value));
      if (env === 'production')
        throw invalidField(
          'default-env',
          'production is never a default; name it with --env production each time',
        );
      return env;
    },
  },
  {
    kind: 'setting',
    key: 'default-api',
    description: 'API version used when neither --api, PAYORDER_API nor the login chose one',
    get: (data) => data.defaults?.api,
    set: (data, value) => {
      defaults(data).api = value as ApiVersion | undefined;
    },
    check: (value) => oneOf('default-api', API_VERSIONS, value),
  },
  {
    kind: 'setting',
    key: 'default-output',
    description: 'output format when neither --json nor -o is given',
    get: (data) => data.defaults?.output,
    set: (data, value) => {
      defaults(data).output = value as OutputFormat | undefined;
    },
    check: (value) => oneOf('default-output', OUTPUT_FORMATS, value),
  },
];

/**
 * How long the lines of a batch run without --journal count as created, as an idempotency key does
 * (Stripe keeps its keys 24 hours): a rerun inside it skips them, past it the same file is a new batch.
 */
export const DEFAULT_BATCH_WINDOW = '24h';

const batchWindowMs = duration('batch-window', 60, 30 * 24 * 3600);

/** The window of a batch's automatic journal: the stored batch-window, else DEFAULT_BATCH_WINDOW. */
export function batchWindow(data: StoreData): { window: string; windowMs: number } {
  const window = data.defaults?.batchWindow ?? DEFAULT_BATCH_WINDOW;
  return { window, windowMs: batchWindowMs(window) };
}

const BATCH_KEYS: ConfigKey[] = [
  {
    kind: 'setting',
    key: 'batch-window',
    description: `how long a batch run without --journal skips lines an earlier run created (default ${DEFAULT_BATCH_WINDOW}; e.g. 1h, 90m)`,
    get: (data) => data.defaults?.batchWindow,
    set: (data, value) => {
      defaults(data).batchWindow = value;
    },
    check: (value) => {
      const text = value.trim().toLowerCase();
      batchWindowMs(text);
      return text;
    },
  },
];

/** A batch line's field that config (or the flag) gives when the file has no such column. */
const lineDefault = (key: string, field: 'success' | 'fail' | 'description', what: string): ConfigKey => ({
  kind: 'setting',
  key,
  description: `${what} of a batch line whose file has no ${field} column (--${field} wins)`,
  get: (data) => data.defaults?.[field],
  set: (data, value) => {
    defaults(data)[field] = value;
  },
  check: (value) => {
    if (field !== 'description') return checkHttpUrl(key, value);
    if (value.trim() === '') throw invalidField(key, 'must not be blank');
    return value;
  },
});

BATCH_KEYS.push(
  lineDefault('default-success', 'success', 'the success link'),
  lineDefault('default-fail', 'fail', 'the fail link'),
  lineDefault('default-description', 'description', 'the description'),
);

const LEDGER_KEY: ConfigKey = {
  kind: 'setting',
  key: 'ledger',
  description:
    'false: keep no order ledger (what order create sent and got, which order find searches); default true',
  get: (data) => (data.defaults?.ledger === undefined ? undefined : String(data.defaults.ledger)),
  set: (data, value) => {
    if (value === undefined) delete defaults(data).ledger;
    else defaults(data).ledger = value === 'true';
  },
  check: (value) => oneOf('ledger', ['true', 'false'], value),
};

const ADDRESS_KEYS: ConfigKey[] = ENVIRONMENTS.flatMap((env) =>
  API_VERSIONS.flatMap((version) =>
    (['auth', 'checkout'] as const).map((kind) => {
      const key = `${env}.${version}.${kind}-url`;
      return {
        kind: 'address' as const,
        env,
        key,
        description: `base address of the ${kind === 'auth' ? 'token' : 'order'} service for ${env} ${version} (payorder appends ${version === 'v1' ? '/1' : '/v2/api'})`,
        get: (data: StoreData) => data.environments?.[env]?.addresses?.[version]?.[kind],
        set: (data: StoreData, value: string | undefined) => {
          const pair = addressesOf(data, { profile: DEFAULT_PROFILE, env }, version);
          if (value === undefined) delete pair[kind];
          else pair[kind] = value;
        },
        check: (value: string) => checkBaseUrl(key, value),
      };
    }),
  ),
);

const INSECURE_HTTP_KEY: ConfigKey = {
  kind: 'setting',
  key: ALLOW_INSECURE_HTTP,
  description:
    'true: production and stage may use http:// addresses (the secret and tokens unencrypted, warned each time)',
  get: (data) => (data.allowInsecureHttp === undefined ? undefined : String(data.allowInsecureHttp)),
  set: (data, value) => {
    if (value === undefined) delete data.allowInsecureHttp;
    else data.allowInsecureHttp = value === 'true';
  },
  check: (value) => oneOf(ALLOW_INSECURE_HTTP, ['true', 'false'], value),
};

export const CONFIG_KEYS: readonly ConfigKey[] = [
  ...DEFAULT_KEYS,
  ...BATCH_KEYS,
  LEDGER_KEY,
  ...ADDRESS_KEYS,
  INSECURE_HTTP_KEY,
];

export function findConfigKey(key: string): ConfigKey | undefined {
  const [env, ...rest] = key.split('.');
  const normalized = rest.length > 0 && env ? [normalizeEnv(env) ?? env, ...rest].join('.') : key;
  return CONFIG_KEYS.find((k) => k.key === normalized);
}
