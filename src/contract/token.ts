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
  return {
    username: data[field.user]!,
    clientId: data[field.clientId]!,
    clientSecretId: data[field.clientSecretId]!,
    grantType: data[field.grantType]!,
  };
}

const response = TOKEN_RESPONSE_FIELDS;

export const tokenResponseSchema = z.object({
  [response.accessToken]: z.string().check(z.minLength(1)),
  [response.expiresIn]: z.number().check(z.positive()),
  [response.tokenType]: z.string(),
});

export interface IssuedToken {
  accessToken: string;
  expiresIn: number;
  tokenType: string;
}

export function tokenResponseBody(token: IssuedToken) {
  return {
    [response.accessToken]: token.accessToken,
    [response.expiresIn]: token.expiresIn,
    [response.tokenType]: token.tokenType,
  };
}

export function readTokenResponse(body: unknown): IssuedToken | undefined {
  const parsed = tokenResponseSchema.safeParse(body);
  if (!parsed.success) return undefined;
  return {
    accessToken: parsed.data[response.accessToken],
    expiresIn: parsed.data[response.expiresIn],
    tokenType: parsed.data[response.tokenType],
  };
}
