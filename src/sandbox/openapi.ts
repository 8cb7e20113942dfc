/**
 * The service as the sandbox serves it, as one OpenAPI 3.1 document of both versions: the six paths
 * written out in full, the request and answer bodies generated from the contract's zod schemas, and
 * the error catalog (every status, code and text). Served at GET /_sandbox/openapi.json and printed
 * by `payorder sandbox --openapi`, for Postman or a client generator.
 */
import * as z from 'zod/mini';
import { CATALOG, type CatalogEntry, type Endpoint, errorBody } from '../contract/catalog.js';
import { LINK_FIELDS, ORDER_FIELDS, ORDER_STATES } from '../contract/fields.js';
import { orderRequestSchema, orderSchema } from '../contract/schemas.js';
import { tokenRequestSchema, tokenResponseSchema } from '../contract/token.js';
import { API_VERSIONS, type ApiVersion, PATHS, V1_SUNSET } from '../contract/versions.js';
import { VERSION } from '../version.js';
import { BODY_LIMIT } from './http-listener.js';
import { ORDER_NOT_FOUND, ORDERS_FULL } from './orders.js';

type Schema = Record<string, unknown>;

/** A contract schema as JSON Schema (2020-12, what OpenAPI 3.1 uses), without its own $schema line. */
function jsonSchema(schema: z.core.$ZodType, io: 'input' | 'output'): Schema {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { target: 'draft-2020-12', io }) as Schema;
  return rest;
}

/** `schema` with some of its properties replaced (`patch` at the top, `links` in its links object). */
function withProperties(schema: Schema, patch: Schema, links: Schema = {}): Schema {
  const properties = { ...(schema.properties as Schema), ...patch };
  const linkSchema = properties[ORDER_FIELDS.links] as Schema | undefined;
  if (linkSchema && Object.keys(links).length > 0) {
    properties[ORDER_FIELDS.links] = {
      ...linkSchema,
      properties: { ...(linkSchema.properties as Schema), ...links },
    };
  }
  return { ...schema, properties };
}

/**
 * The amount rules the contract checks in code (money.ts), written as patterns: v1 a decimal in
 * major units with at most 2 decimals, v2 whole cents.
 */
const AMOUNT_IN: Record<ApiVersion, Schema> = {
  v1: { type: 'string', pattern: '^[0-9]+(\\.[0-9]{1,2})?$', examples: ['12.50'] },
  v2: { type: 'string', pattern: '^[0-9]+$', examples: ['1250'] },
};
const AMOUNT_OUT: Record<ApiVersion, Schema> = {
  v1: { type: 'number', description: 'the amount in major units, written with 2 decimals', examples: [12.5] },
  v2: { type: 'string', pattern: '^[0-9]+$', description: 'the amount in cents', examples: ['1250'] },
};
const STATUS_OUT: Schema = {
  type: 'string',
  description: 'PENDING when created; the sandbox settles orders as PAID or FAILED, and REFUNDED (v2 only)',
  examples: Object.values(ORDER_STATES),
};

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: Schema) => ({ 'application/json': { schema } });

/** The error body of an endpoint: code (where the catalog has one) and its text field. */
function errorSchema(endpoint: Endpoint): Schema {
  const rows = CATALOG.filter((entry: CatalogEntry) => entry.endpoint === endpoint);
  const text = endpoint === 'token' ? 'description' : 'message';
  return {
    type: 'object',
    properties: {
      code: {
        type: 'string',
        enum: rows.flatMap((entry: CatalogEntry) => (entry.code ? [entry.code] : [])),
      },
      [text]: { type: 'string', examples: [...new Set(rows.map((entry: CatalogEntry) => entry.text))] },
    },
    required: [text],
  };
}

/** The error answers of an operation: one response per status, one example per catalog row. */
function errorResponses(rows: readonly CatalogEntry[], schema: string): Schema {
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

/** The body of the sandbox's own refusals (http-listener.ts), which are not the service's. */
const SANDBOX_REFUSAL: Schema = {
  type: 'object',
  description: 'An answer of the sandbox itself, not of the service',
  properties: {
    statusCode: { type: 'integer' },
    error: { type: 'string', examples: ['Forbidden', 'Payload Too Large'] },
    message: { type: 'string' },
  },
  required: ['statusCode', 'error', 'message'],
};

const REFUSED =
  'The sandbox refused the request: its Host is not a name of the sandbox, or a web page sent it (a foreign Origin, Sec-Fetch-Site cross-site)';

/**
 * `responses` with the sandbox's own refusals: 403 for every request (beside a 403 of the catalog,
 * when there is one), and 413 where a body is read.
 */
function withRefusals(responses: Schema, readsBody: boolean): Schema {
  const catalog403 = responses['403'] as { description: string; content: Record<string, Schema> } | undefined;
  const forbidden = catalog403
    ? {
        description: `${catalog403.description}. Or: ${REFUSED}`,
        content: {
          'application/json': {
            ...catalog403.content['application/json'],
            schema: { anyOf: [catalog403.content['application/json']!.schema, ref('SandboxRefusal')] },
          },
        },
      }
    : { description: REFUSED, content: json(ref('SandboxRefusal')) };
  const tooLarge = {
    description: `The body is over ${BODY_LIMIT / 1024} KiB, the sandbox's limit`,
    content: json(ref('SandboxRefusal')),
  };
  return { ...responses, 403: forbidden, ...(readsBody ? { 413: tooLarge } : {}) };
}

const ORDERS_FULL_ANSWER: Schema = {
  description: 'The sandbox holds as many orders as it may (their text is limited) until it is reset',
  content: json({
    type: 'object',
    properties: { message: { type: 'string', const: ORDERS_FULL.body.message } },
    required: ['message'],
  }),
};

const rowsOf = (ids: readonly string[]) => CATALOG.filter((entry: CatalogEntry) => ids.includes(entry.id));
const TOKEN_ERRORS = CATALOG.filter((entry: CatalogEntry) => entry.endpoint === 'token');
/** Order creation: v2 has no userName, so the two userName rows (1004, 1002) are v1's only. */
const CHECKOUT_ERRORS: Record<ApiVersion, CatalogEntry[]> = {
  v1: CATALOG.filter((entry: CatalogEntry) => entry.endpoint === 'order'),
  v2: rowsOf(['1001', '1003', 'unauthorized', 'expired', '999']),
};
const LOOKUP_ERRORS = rowsOf(['unauthorized', 'expired', '999']);

/** "/1/order/:id" → "/1/order/{id}". */
const openApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');

function operations(version: ApiVersion): Schema {
  const v = version.toUpperCase();
  const deprecated = version === 'v1' ? { deprecated: true } : {};
  const common = { tags: [version], ...deprecated };
  const lookupParam = version === 'v1' ? 'id' : 'uuid';
  return {
    [PATHS.token(version)]: {
      post: {
        ...common,
        operationId: `token${v}`,
        summary: 'Issue an access token (grant type client_credentials)',
        requestBody: { required: true, content: json(ref(`TokenRequest${v}`)) },
        responses: withRefusals(
          {
            200: { description: 'The token', content: json(ref('TokenResponse')) },
            ...errorResponses(TOKEN_ERRORS, 'TokenError'),
          },
          true,
        ),
      },
    },
    [PATHS.checkout(version)]: {
      post: {
        ...common,
        operationId: `checkout${v}`,
        summary: 'Create an order and its payment link',
        security: [{ bearer: [] }],
        requestBody: { required: true, content: json(ref(`OrderRequest${v}`)) },
        responses: withRefusals(
          {
            200: { description: 'The order, PENDING', content: json(ref(`Order${v}`)) },
            ...errorResponses(CHECKOUT_ERRORS[version], 'OrderError'),
            507: ORDERS_FULL_ANSWER,
          },
          true,
        ),
      },
    },
    [openApiPath(PATHS.lookup(version))]: {
      get: {
        ...common,
        operationId: `lookup${v}`,
        summary:
          version === 'v1'
            ? 'Look an order up by its id (its last segment) or its uuid'
            : 'Look an order up by its uuid',
        security: [{ bearer: [] }],
        parameters: [{ name: lookupParam, in: 'path', required: true, schema: { type: 'string' } }],
        responses: withRefusals(
          {
            200: { description: 'The order with its current status', content: json(ref(`Order${v}`)) },
            404: {
              description:
                'No such order, an order of another account, or one created on the other version (the sandbox’s choice)',
              content: json({
                type: 'object',
                properties: { message: { type: 'string', const: ORDER_NOT_FOUND.body.message } },
                required: ['message'],
              }),
            },
            ...errorResponses(LOOKUP_ERRORS, 'OrderError'),
          },
          false,
        ),
      },
    },
  };
}

function schemas(): Schema {
  const out: Schema = {
    TokenResponse: jsonSchema(tokenResponseSchema, 'output'),
    TokenError: errorSchema('token'),
    OrderError: errorSchema('order'),
    SandboxRefusal: SANDBOX_REFUSAL,
  };
  for (const version of API_VERSIONS) {
    const v = version.toUpperCase();
    out[`TokenRequest${v}`] = jsonSchema(tokenRequestSchema[version], 'input');
    out[`OrderRequest${v}`] = withProperties(jsonSchema(orderRequestSchema[version], 'input'), {
      [ORDER_FIELDS.amount]: AMOUNT_IN[version],
    });
    const checkout = LINK_FIELDS.checkout[version];
    out[`Order${v}`] = withProperties(
      jsonSchema(orderSchema[version], 'output'),
      { [ORDER_FIELDS.amount]: AMOUNT_OUT[version], [ORDER_FIELDS.status]: STATUS_OUT },
      { [checkout]: { type: 'string', format: 'uri', description: 'the payment link' } },
    );
  }
  return out;
}

/** The document, with `serverUrl` (the sandbox's address) as its one server. */
export function openApiDocument(serverUrl: string): Schema {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Payment Order Service (payorder sandbox)',
      version: VERSION,
      description:
        'Token issuance, order creation and order lookup, versions 1 and 2, as the payorder sandbox serves them ' +
        `on one address. v1 is deprecated and switched off after ${V1_SUNSET}. Where the specification shows ` +
        'nothing (v2 and lookup error bodies, the lookup answer, states after payment), these are the sandbox’s ' +
        'choices: v2 errors use the v1 order error shape and codes, and a lookup answers the order in its ' +
        "version's shape.",
    },
    servers: [{ url: serverUrl, description: 'payorder sandbox' }],
    tags: [
      { name: 'v1', description: `API v1 (deprecated; switched off after ${V1_SUNSET})` },
      { name: 'v2', description: 'API v2 (current)' },
    ],
    paths: Object.assign({}, ...API_VERSIONS.map(operations)),
    components: {
      schemas: schemas(),
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
    },
  };
}
