/**
 * Which parts of the service's traffic are secret, and how they are masked wherever traffic is
 * shown: the sandbox journal, --debug traces, --dry-run. A masked value is always "***".
 */
import { TOKEN_FIELDS, TOKEN_RESPONSE_FIELDS } from './fields.js';

export const MASK = '***';

const SECRET_FIELDS = new Set<string>([TOKEN_FIELDS.v2.clientSecretId, TOKEN_RESPONSE_FIELDS.accessToken]);
const JWT = /eyJ[\w-]+\.[\w-]+\.[\w-]+/g;

/** A copy of a body with secret fields masked at any depth. */
export function maskBody(body: unknown): unknown {
  if (Array.isArray(body)) return body.map(maskBody);
  if (typeof body !== 'object' || body === null) return body;
  const masked: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body))
    masked[key] = SECRET_FIELDS.has(key) ? MASK : maskBody(value);
  return masked;
}

/** The fields of the token service's error bodies (spec §7.1): all that a token answer may show. */
const TOKEN_ERROR_FIELDS = new Set(['code', 'description']);

/**
 * A copy of a token service's answer with every value masked at any depth but its error fields: the
 * token may stand under any name (a service that answers `{"token": …}`), and only the error fields
 * say anything a person needs.
 */
export function maskTokenAnswer(body: unknown): unknown {
  if (Array.isArray(body)) return body.map(maskTokenAnswer);
  if (typeof body !== 'object' || body === null) return MASK;
  const masked: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body))
    masked[key] = TOKEN_ERROR_FIELDS.has(key) && typeof value !== 'object' ? value : maskTokenAnswer(value);
  return masked;
}

/** "Bearer eyJ…" → "Bearer ***": the scheme stays visible, the credential never does. */
export function maskAuthorization(value: string): string;
export function maskAuthorization(value: string | undefined): string | undefined;
export function maskAuthorization(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const space = value.indexOf(' ');
  return space > 0 ? `${value.slice(0, space)} ${MASK}` : MASK;
}

/** Masks JWTs and the given secret values wherever they stand in free text. */
export function maskText(text: string, secrets: readonly string[] = []): string {
  let masked = text.replace(JWT, MASK);
  for (const secret of secrets) if (secret.length >= 4) masked = masked.split(secret).join(MASK);
  return masked;
}
