/**
 * The answers of the OpenAPI document (openapi.ts) beyond the 200s: the error catalog of each
 * operation, and what the sandbox itself answers before or instead of the service: its refusals
 * (403 for a foreign Host or Origin, 413 over the body limit, 431 over the header limit, 400 for a
 * path it cannot decode) and the faults POST /_sandbox/force makes it answer (429, 502, 503).
 */
import { CATALOG, type CatalogEntry, errorBody } from '../contract/catalog.js';
import { BODY_LIMIT } from './http-listener.js';

export type Schema = Record<string, unknown>;

export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
export const json = (schema: Schema) => ({ 'application/json': { schema } });

/** A JSON object of exactly one field, `message`, whose text is `text`. */
export const messageOnly = (text: string): Schema => ({
  type: 'object',
  properties: { message: { type: 'string', const: text } },
  required: ['message'],
  additionalProperties: false,
});

/** The error answers of an operation: one response per status, one example per catalog row. */
export function errorResponses(rows: readonly CatalogEntry[], schema: string): Schema {
  const responses: Schema = {};
  for (const status of [...new Set(rows.map((entry) => entry.status))].sort()) {
    const atStatus = rows.filter((entry) => entry.status === status);
    responses[String(status)] = {
      description: atStatus.map((entry) => entry.condition).join('; '),
      content: {
        'application/json': {
          schema: ref(schema),
          examples: Object.fromEntries(
            atStatus.map((entry) => [
              entry.code ?? entry.id,
              { summary: entry.condition, value: errorBody(entry) },
            ]),
          ),
        },
      },
    };
  }
  return responses;
}

/** The rows of the catalog with these ids. */
export const rowsOf = (ids: readonly string[]) =>
  CATALOG.filter((entry: CatalogEntry) => ids.includes(entry.id));

/** The body of the sandbox's own refusals (http-listener.ts), which are not the service's. */
export const SANDBOX_REFUSAL: Schema = {
  type: 'object',
  description: 'An answer of the sandbox itself, not of the service',
  properties: {
    statusCode: { type: 'integer' },
    error: { type: 'string', examples: ['Forbidden', 'Payload Too Large'] },
    message: { type: 'string' },
  },
  required: ['statusCode', 'error', 'message'],
  additionalProperties: false,
};

const REFUSED =
  'The sandbox refused the request: its Host is not a name of the sandbox, or a web page sent it (a foreign Origin, Sec-Fetch-Site cross-site)';

const FORCED = 'Only when POST /_sandbox/force asks for it';

const retryAfter = (required: boolean) => ({
  'Retry-After': {
    description: 'Seconds to wait before trying again (retry_after of the forced fault; 1 by default)',
    required,
    schema: { type: 'integer', minimum: 0 },
  },
});

/**
 * What every operation may answer besides the service's own: the sandbox's refusals and the faults
 * a test can force on it (service-routes.ts answers them; the suite checks each against this).
 */
const SANDBOX_ANSWERS: Schema = {
  429: {
    description: `${FORCED} (fault rate-limit): the service is rate limiting`,
    headers: retryAfter(true),
    content: json(messageOnly('Too Many Requests')),
  },
  431: {
    description:
      "The request's headers are over Node's limit (16 KiB): the sandbox answers before routing and closes the connection (an answer to HEAD has no body)",
    content: json(ref('SandboxRefusal')),
  },
  502: {
    description: `${FORCED} (fault html): an HTML error page, as a proxy in front of the service would answer`,
    content: { 'text/html': { schema: { type: 'string' } } },
  },
  503: {
    description: `${FORCED} (fault unavailable): the service is down for a while`,
    headers: retryAfter(false),
    content: json(messageOnly('Service Unavailable')),
  },
};

/**
 * `responses` with the sandbox's own answers: 403 for every request (beside a 403 of the catalog,
 * when there is one), 413 where a body is read, 400 where a path parameter is decoded.
 */
export function withSandboxAnswers(responses: Schema, reads: 'body' | 'path'): Schema {
  const catalog403 = responses['403'] as { description: string; content: Record<string, Schema> } | undefined;
  const catalogJson = catalog403?.content['application/json'];
  const forbidden =
    catalog403 && catalogJson
      ? {
          description: `${catalog403.description}. Or: ${REFUSED}`,
          content: {
            'application/json': {
              ...catalogJson,
              schema: { anyOf: [catalogJson.schema, ref('SandboxRefusal')] },
            },
          },
        }
      : { description: REFUSED, content: json(ref('SandboxRefusal')) };
  const own =
    reads === 'body'
      ? {
          413: {
            description: `The body is over ${BODY_LIMIT / 1024} KiB, the sandbox's limit`,
            content: json(ref('SandboxRefusal')),
          },
        }
      : {
          400: {
            description: 'The path parameter is not valid percent-encoding',
            content: json(ref('SandboxRefusal')),
          },
        };
  return { ...responses, 403: forbidden, ...own, ...SANDBOX_ANSWERS };
}
