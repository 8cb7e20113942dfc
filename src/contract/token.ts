/**
 * The token bodies (spec §2.1, §2.2) as zod schemas, per version, and the conversions to and from
 * payorder's credentials. v1 and v2 differ only in the user field: user_name vs username.
 */
import * as z from 'zod/mini';
import type { ApiVersion } from './versions.js';

/** A string that is not empty once trimmed: how the service reads required fields. */
export const filled = z.string().check(z.trim(), z.minLength(1));

export const GRANT_TYPE = 'client_credentials';

export const tokenRequestSchema = {
  v1: z.object({ user_name: filled, client_id: filled, client_secret_id: filled, grant_type: filled }),
  v2: z.object({ username: filled, client_id: filled, client_secret_id: filled, grant_type: filled }),
} as const;

/** The credentials of one environment; the same for v1 and v2 (spec §5). */
export interface Credentials {
  username: string;
  clientId: string;
  clientSecretId: string;
}

export interface TokenRequest extends Credentials {
  grantType: string;
}

export function tokenRequestBody(version: ApiVersion, credentials: Credentials): Record<string, string> {
  const user: Record<string, string> =
    version === 'v1' ? { user_name: credentials.username } : { username: credentials.username };
  return {
    ...user,
    client_id: credentials.clientId,
    client_secret_id: credentials.clientSecretId,
    grant_type: GRANT_TYPE,
  };
}

/** Reads a token request body; undefined when a required field is missing or empty (error 3001). */
export function readTokenRequest(version: ApiVersion, body: unknown): TokenRequest | undefined {
  if (version === 'v1') {
    const parsed = tokenRequestSchema.v1.safeParse(body);
    if (!parsed.success) return undefined;
    const { user_name, client_id, client_secret_id, grant_type } = parsed.data;
    return {
      username: user_name,
      clientId: client_id,
      clientSecretId: client_secret_id,
      grantType: grant_type,
    };
  }
  const parsed = tokenRequestSchema.v2.safeParse(body);
  if (!parsed.success) return undefined;
  const { username, client_id, client_secret_id, grant_type } = parsed.data;
  return { username, clientId: client_id, clientSecretId: client_secret_id, grantType: grant_type };
}

export const tokenResponseSchema = z.object({
  access_token: z.string().check(z.minLength(1)),
  expires_in: z.number().check(z.positive()),
  token_type: z.string(),
});

export interface IssuedToken {
  accessToken: string;
  expiresIn: number;
  tokenType: string;
}

export function tokenResponseBody(token: IssuedToken) {
  return { access_token: token.accessToken, expires_in: token.expiresIn, token_type: token.tokenType };
}

export function readTokenResponse(body: unknown): IssuedToken | undefined {
  const parsed = tokenResponseSchema.safeParse(body);
  if (!parsed.success) return undefined;
  return {
    accessToken: parsed.data.access_token,
    expiresIn: parsed.data.expires_in,
    tokenType: parsed.data.token_type,
  };
}
