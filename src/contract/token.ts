/**
 * The token bodies (spec §2.1, §2.2) as zod schemas, per version, and the conversions to and from
 * payorder's credentials. v1 and v2 differ only in the user field (TOKEN_FIELDS in fields.ts).
 */
import * as z from 'zod/mini';
import { GRANT_TYPE, TOKEN_FIELDS, TOKEN_RESPONSE_FIELDS } from './fields.js';
import type { ApiVersion } from './versions.js';

/** A string that is not empty once trimmed: how the service reads required fields. */
export const filled = z.string().check(z.trim(), z.minLength(1));

const { v1, v2 } = TOKEN_FIELDS;

export const tokenRequestSchema = {
  v1: z.object({
    [v1.user]: filled,
    [v1.clientId]: filled,
    [v1.clientSecretId]: filled,
    [v1.grantType]: filled,
  }),
  v2: z.object({
    [v2.user]: filled,
    [v2.clientId]: filled,
    [v2.clientSecretId]: filled,
    [v2.grantType]: filled,
  }),
} as const;

/** The credentials of one environment; the same for v1 and v2 (spec §5). */
export interface Credentials {
  username: string;
  clientId: string;
  clientSecretId: string;
}

/** Who a token is issued to: the credentials without the secret (what a token is cached under). */
export type Account = Pick<Credentials, 'username' | 'clientId'>;

export interface TokenRequest extends Credentials {
  grantType: string;
}

export function tokenRequestBody(version: ApiVersion, credentials: Credentials): Record<string, string> {
  const field = TOKEN_FIELDS[version];
  return {
    [field.user]: credentials.username,
    [field.clientId]: credentials.clientId,
    [field.clientSecretId]: credentials.clientSecretId,
    [field.grantType]: GRANT_TYPE,
  };
}

/** Reads a token request body; undefined when a required field is missing or empty (error 3001). */
export function readTokenRequest(version: ApiVersion, body: unknown): TokenRequest | undefined {
  const parsed = tokenRequestSchema[version].safeParse(body);
  if (!parsed.success) return undefined;
  const data: Record<string, string> = parsed.data;
  const field = TOKEN_FIELDS[version];
  const [username, clientId, clientSecretId, grantType] = [
    field.user,
    field.clientId,
    field.clientSecretId,
    field.grantType,
  ].map((name) => data[name]);
  // The schema requires all four: a missing one is refused above.
  if (
    username === undefined ||
    clientId === undefined ||
    clientSecretId === undefined ||
    grantType === undefined
  )
    return undefined;
  return { username, clientId, clientSecretId, grantType };
}

const response = TOKEN_RESPONSE_FIELDS;

/**
 * What payorder accepts as a token: visible ASCII without spaces, as a JWT is. A token goes into an
 * Authorization header on every request, so one with a line break or a control character would be
 * cached and then break every command (or carry a second header).
 */
export const TOKEN_VALUE = /^[\x21-\x7e]+$/;

/**
 * The longest lifetime payorder accepts for a token, in seconds: one year (the reference answer
 * shows one day, and the sandbox's --token-ttl goes up to a year). No service means a longer one,
 * and one far longer would put the expiry past the last date JavaScript can represent.
 */
export const MAX_EXPIRES_IN = 31_536_000;

/** Each field's rule, as a refusal states it: never with the value, which may be the token itself. */
export const TOKEN_RESPONSE_RULES = {
  [response.accessToken]: 'must be a non-empty string of visible ASCII characters without spaces',
  [response.expiresIn]: `must be a whole number of seconds from 1 to ${MAX_EXPIRES_IN} (one year)`,
  [response.tokenType]: 'must be a string',
} as const;

export const tokenResponseSchema = z.object({
  [response.accessToken]: z.string().check(z.regex(TOKEN_VALUE)),
  [response.expiresIn]: z.int().check(z.positive(), z.lte(MAX_EXPIRES_IN)),
  [response.tokenType]: z.string(),
});

export interface IssuedToken {
  accessToken: string;
  expiresIn: number;
  tokenType: string;
}

/** A token answer read: the token, or the first field that breaks its rule. */
export type TokenReading =
  | { ok: true; token: IssuedToken }
  | { ok: false; field: keyof typeof TOKEN_RESPONSE_RULES | 'body'; rule: string };

export function tokenResponseBody(token: IssuedToken) {
  return {
    [response.accessToken]: token.accessToken,
    [response.expiresIn]: token.expiresIn,
    [response.tokenType]: token.tokenType,
  };
}

export function readTokenResponse(body: unknown): TokenReading {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return { ok: false, field: 'body', rule: 'must be a JSON object' };
  const parsed = tokenResponseSchema.safeParse(body);
  if (!parsed.success) {
    // The first field in the order the rules list them, whatever order zod found them in.
    const broken = new Set(parsed.error.issues.map((issue) => issue.path[0]));
    const fields = Object.keys(TOKEN_RESPONSE_RULES) as Array<keyof typeof TOKEN_RESPONSE_RULES>;
    const field = fields.find((name) => broken.has(name)) ?? response.accessToken;
    return { ok: false, field, rule: TOKEN_RESPONSE_RULES[field] };
  }
  return {
    ok: true,
    token: {
      accessToken: parsed.data[response.accessToken],
      expiresIn: parsed.data[response.expiresIn],
      tokenType: parsed.data[response.tokenType],
    },
  };
}
