/**
 * The shape a store must have before payorder uses it: what its code reaches into is checked here,
 * once, so a hand-edited or damaged file is an error naming the spot instead of a crash or a write
 * that drops what the file held. Keys payorder does not know are allowed (a newer payorder may have
 * written them) and kept. Values that are resolved later with an error of their own (an environment
 * or version name) are only checked to be strings here. No value is ever shown: a store holds secrets.
 */
import * as z from 'zod/mini';
import { OUTPUT_FORMATS } from '../formats.js';
import { PROFILE_NAME, PROFILE_NAME_RULE } from './profile-data.js';

const text = z.string();
const filled = z.string().check(z.minLength(1));

const addresses = z.object({ auth: z.optional(text), checkout: z.optional(text) });

const cachedToken = z.object({
  accessToken: text,
  expiresAt: text,
  clientId: text,
  rehearsal: z.optional(z.literal(true)),
});

// The secret is in the file unless the login put it in the keychain: then the file has none.
const credentials = z
  .object({
    username: filled,
    clientId: filled,
    clientSecretId: z.optional(filled),
    secretIn: z.optional(z.literal('keychain')),
  })
  .check(
    z.refine((stored) => stored.secretIn === 'keychain' || stored.clientSecretId !== undefined, {
      path: ['clientSecretId'],
    }),
  );

const environment = z.object({
  credentials: z.optional(credentials),
  api: z.optional(text),
  addresses: z.optional(z.record(z.string(), addresses)),
  tokens: z.optional(z.record(z.string(), cachedToken)),
  loggedInAt: z.optional(text),
});

const environments = z.optional(z.record(z.string(), environment));

// A named profile's name is checked too: one that --profile could never select is a damaged file.
const profileName = z.string().check(z.regex(PROFILE_NAME));

const storeSchema = z.object({
  defaults: z.optional(
    z.object({
      env: z.optional(text),
      api: z.optional(text),
      output: z.optional(z.enum(OUTPUT_FORMATS)),
      batchWindow: z.optional(text),
      success: z.optional(text),
      fail: z.optional(text),
      description: z.optional(text),
      ledger: z.optional(z.boolean()),
    }),
  ),
  environments,
  profiles: z.optional(z.record(profileName, z.object({ environments }))),
  allowInsecureHttp: z.optional(z.boolean()),
});

/** What is wrong with a parsed store, in one line ("environments.stage.credentials.clientId is missing"); undefined if nothing. */
export function shapeProblem(data: unknown): string | undefined {
  const parsed = storeSchema.safeParse(data);
  if (parsed.success) return undefined;
  const [first, ...rest] = parsed.error.issues;
  if (!first) return 'it is not a store';
  const more = rest.length === 0 ? '' : ` (and ${rest.length} more problem${rest.length === 1 ? '' : 's'})`;
  return `${describeIssue(first, data)}${more}`;
}

type Issue = z.core.$ZodIssue;

function describeIssue(issue: Issue, data: unknown): string {
  const where = pathText(issue.path);
  const value = valueAt(data, issue.path);
  if (value === undefined && issue.path.length > 0) return `${where} is missing`;
  switch (issue.code) {
    case 'invalid_type': {
      const expected =
        issue.expected === 'string'
          ? 'a string'
          : issue.expected === 'boolean'
            ? 'true or false'
            : 'an object';
      return `${where} must be ${expected}, not ${kindOf(value)}`;
    }
    case 'invalid_value':
      return `${where} must be one of ${issue.values.map(String).join(', ')}`;
    case 'too_small':
      return `${where} must not be empty`;
    // Only the profiles' names are keys with a rule.
    case 'invalid_key':
      return `${where} is not a profile name; ${PROFILE_NAME_RULE}`;
    default:
      return `${where} is not valid`;
  }
}

/** A path as a reader would write it: environments.stage.tokens["v2 https://…"].expiresAt. */
function pathText(path: PropertyKey[]): string {
  if (path.length === 0) return 'the store';
  return path
    .map((key, index) => {
      if (typeof key === 'number') return `[${key}]`;
      const name = String(key);
      if (/^[A-Za-z_$][\w$-]*$/.test(name)) return index === 0 ? name : `.${name}`;
      return `[${JSON.stringify(name)}]`;
    })
    .join('');
}

function valueAt(data: unknown, path: PropertyKey[]): unknown {
  let value = data;
  for (const key of path) {
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  const type = typeof value;
  return type === 'object' ? 'an object' : `a ${type}`;
}
