/**
 * The service as the sandbox serves it, as one OpenAPI 3.1 document of both versions: the six paths
 * written out in full, the request bodies generated from the contract's zod schemas, the answers
 * written as exactly what the sandbox sends (checked against its real answers by the suite, and
 * linted there), and the error catalog (every status, code and text). Served at GET
 * /_sandbox/openapi.json and printed by `payorder sandbox --openapi`, for Postman, a client
 * generator or a contract tester.
 */
import * as z from 'zod/mini';
import { CATALOG, type CatalogEntry, type Endpoint } from '../contract/catalog.js';
import { GRANT_TYPE, ORDER_FIELDS, ORDER_STATES, TOKEN_RESPONSE_FIELDS } from '../contract/fields.js';
import { orderRequestSchema } from '../contract/schemas.js';
import { tokenRequestSchema, tokenResponseSchema } from '../contract/token.js';
import { API_VERSIONS, type ApiVersion, PATHS, V1_GONE, V1_SUNSET } from '../contract/versions.js';
import { VERSION } from '../version.js';
import { orderSchema } from './openapi-orders.js';
import {
  errorResponses,
  json,
  messageOnly,
  ref,
  rowsOf,
  SANDBOX_REFUSAL,
  type Schema,
  withSandboxAnswers,
} from './openapi-responses.js';
import { ORDER_NOT_FOUND, ORDERS_FULL } from './orders.js';

/** A contract schema as JSON Schema (2020-12, what OpenAPI 3.1 uses), without its own $schema line. */
function jsonSchema(schema: z.core.$ZodType, io: 'input' | 'output'): Schema {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { target: 'draft-2020-12', io }) as Schema;
  return withFilledRule(rest);
}

/**
 * A required text is read trimmed (token.ts `filled`), so one of spaces is refused as missing (3001,
 * 1001). zod's JSON Schema has no word for the trim and says only minLength 1, which spaces pass:
 * each such field also gets a pattern that asks for a character other than white space.
 */
function withFilledRule(schema: Schema): Schema {
  const properties = Object.fromEntries(
    Object.entries((schema.properties ?? {}) as Record<string, Schema>).map(([name, property]) => [
      name,
      property.minLength === 1
        ? { ...property, pattern: '\\S', description: 'not empty, nor only white space' }
        : property,
    ]),
  );
  return { ...schema, properties };
}

/** `schema` with some of its properties replaced. */
const withProperties = (schema: Schema, patch: Schema): Schema => ({
  ...schema,
  properties: { ...(schema.properties as Schema), ...patch },
});

/**
 * The amount rules the contract checks in code (money.ts), written as patterns: v1 a decimal in
 * major units with at most 2 decimals, v2 whole cents. Only a string is an amount (a number is 1003).
 */
const AMOUNT_IN: Record<ApiVersion, Schema> = {
  v1: { type: 'string', pattern: '^[0-9]+(\\.[0-9]{1,2})?$', examples: ['12.50'] },
  v2: { type: 'string', pattern: '^[0-9]+$', examples: ['1250'] },
};
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
      [text]: { type: 'string', enum: [...new Set(rows.map((entry: CatalogEntry) => entry.text))] },
    },
    required: [text],
    additionalProperties: false,
  };
}

const ORDERS_FULL_ANSWER: Schema = {
  description: 'The sandbox holds as many orders as it may (their text is limited) until it is reset',
  content: json(messageOnly(ORDERS_FULL.body.message)),
};

const TOKEN_ERRORS = CATALOG.filter((entry: CatalogEntry) => entry.endpoint === 'token');
/** Order creation: v2 has no userName, so the two userName rows (1004, 1002) are v1's only. */
const CHECKOUT_ERRORS: Record<ApiVersion, CatalogEntry[]> = {
  v1: CATALOG.filter((entry: CatalogEntry) => entry.endpoint === 'order'),
  v2: rowsOf(['1001', '1003', 'unauthorized', 'expired', '999']),
};
const LOOKUP_ERRORS = rowsOf(['unauthorized', 'expired', '999']);

/** "/1/order/:id" → "/1/order/{id}". */
const openApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');

const EXAMPLE_UUID = '3f1c9a2b-7d4e-4f60-8a1b-2c3d4e5f6a7b';

/** The lookup's path parameter: v1 takes the id's last segment or the uuid, v2 the uuid. */
function lookupParameter(version: ApiVersion): Schema {
  const uuid = { summary: 'the uuid of the order', value: EXAMPLE_UUID };
  return version === 'v1'
    ? {
        name: 'id',
        in: 'path',
        required: true,
        description: 'the last segment of the order’s id, or its uuid',
        schema: { type: 'string' },
        examples: { id: { summary: 'the last segment of the order’s id', value: '3f1c9a2b7d4e4f60' }, uuid },
      }
    : {
        name: 'uuid',
        in: 'path',
        required: true,
        description: 'the uuid of the order',
        schema: { type: 'string' },
        example: EXAMPLE_UUID,
      };
}

/** An answer of one order: the order schema of `version`, held to `status` when given. */
function orderAnswer(description: string, version: ApiVersion, status?: string): Schema {
  const order = ref(`Order${version.toUpperCase()}`);
  return {
    description,
    content: json(
      status ? { allOf: [order, { properties: { [ORDER_FIELDS.status]: { const: status } } }] } : order,
    ),
  };
}

/** What every v1 operation answers once v1 is switched off (V1_GONE), in its endpoint's error field. */
const switchedOff = (field: 'description' | 'message'): Schema => ({
  [V1_GONE.status]: {
    description: `From the day after ${V1_SUNSET} on the sandbox's clock: v1 is switched off (the spec shows no status; this is the sandbox's)`,
    content: json({
      type: 'object',
      properties: { [field]: { type: 'string', const: V1_GONE.text } },
      required: [field],
      additionalProperties: false,
    }),
  },
});

function operations(version: ApiVersion): Schema {
  const v = version.toUpperCase();
  const deprecated = version === 'v1' ? { deprecated: true } : {};
  const gone = (field: 'description' | 'message') => (version === 'v1' ? switchedOff(field) : {});
  const common = { tags: [version], ...deprecated };
  return {
    [PATHS.token(version)]: {
      post: {
        ...common,
        operationId: `token${v}`,
        summary: `Issue an access token (grant type ${GRANT_TYPE})`,
        // The token operation is how a client gets its bearer token: it takes none.
        security: [],
        requestBody: { required: true, content: json(ref(`TokenRequest${v}`)) },
        responses: withSandboxAnswers(
          {
            200: { description: 'The token', content: json(ref('TokenResponse')) },
            ...errorResponses(TOKEN_ERRORS, 'TokenError'),
            ...gone('description'),
          },
          'body',
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
        responses: withSandboxAnswers(
          {
            200: orderAnswer('The order, PENDING', version, ORDER_STATES.pending),
            ...errorResponses(CHECKOUT_ERRORS[version], 'OrderError'),
            507: ORDERS_FULL_ANSWER,
            ...gone('message'),
          },
          'body',
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
        parameters: [lookupParameter(version)],
        responses: withSandboxAnswers(
          {
            200: orderAnswer('The order with its current status', version),
            404: {
              description:
                'No such order, an order of another account, or one created on the other version (the sandbox’s choice)',
              content: json(messageOnly(ORDER_NOT_FOUND.body.message)),
            },
            ...errorResponses(LOOKUP_ERRORS, 'OrderError'),
            ...gone('message'),
          },
          'path',
        ),
      },
    },
  };
}

function schemas(): Schema {
  const out: Schema = {
    TokenResponse: withProperties(jsonSchema(tokenResponseSchema, 'output'), {
      [TOKEN_RESPONSE_FIELDS.tokenType]: { type: 'string', const: 'Bearer' },
    }),
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
    out[`Order${v}`] = orderSchema(version);
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
      license: { name: 'MIT', identifier: 'MIT' },
      description:
        'Token issuance, order creation and order lookup, versions 1 and 2, as the payorder sandbox serves them ' +
        `on one address. v1 is deprecated and switched off after ${V1_SUNSET}. Where the specification shows ` +
        'nothing (v2 and lookup error bodies, the lookup answer, states after payment), these are the sandbox’s ' +
        "choices: v2 errors use the v1 order error shape and codes, and a lookup answers the order in its version's " +
        'shape. POST /_sandbox/force can make any operation answer any row of the error catalog, or a fault ' +
        '(429, 502, 503, a delay, no answer, a cut connection, a truncated body); each operation lists its own rows ' +
        'and the faults that have an answer.',
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
