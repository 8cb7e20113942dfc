/**
 * The orders of the OpenAPI document (openapi.ts) as the sandbox sends them, field for field
 * (contract/schemas.ts orderResponseBody): every field always there, none null but v2's
 * external_reference, and no other.
 */
import { LINK_FIELDS, ORDER_FIELDS, ORDER_STATES } from '../contract/fields.js';
import { type ApiVersion, PATHS } from '../contract/versions.js';
import type { Schema } from './openapi-responses.js';
import { SANDBOX_CURRENCY } from './orders.js';
import { STATE_NAME } from './status-change.js';

const AMOUNT_OUT: Record<ApiVersion, Schema> = {
  v1: {
    type: 'number',
    minimum: 0,
    description: 'the amount in major units, written with 2 decimals',
    examples: [12.5],
  },
  v2: { type: 'string', pattern: '^[0-9]+$', description: 'the amount in cents', examples: ['1250'] },
};

/** A state: PENDING when created, then one the payment page or POST /_sandbox/orders/{uuid}/status sets. */
const STATUS_OUT: Record<ApiVersion, Schema> = {
  v1: {
    type: 'string',
    pattern: STATE_NAME.source,
    not: { const: ORDER_STATES.refunded },
    description:
      'PENDING when created; PAID or FAILED from the payment page; any upper-case state name set through the sandbox, but REFUNDED, which v1 does not have',
    examples: [ORDER_STATES.pending, ORDER_STATES.paid, ORDER_STATES.failed],
  },
  v2: {
    type: 'string',
    pattern: STATE_NAME.source,
    description:
      'PENDING when created; PAID or FAILED from the payment page, REFUNDED, or any upper-case state name set through the sandbox',
    examples: Object.values(ORDER_STATES),
  },
};

/** A text the merchant gave, sent back as it came: never empty nor only white space. */
const GIVEN_TEXT: Schema = { type: 'string', pattern: '\\S' };

/** An order as the sandbox sends it, in one version's shape (contract/schemas.ts orderResponseBody). */
export function orderSchema(version: ApiVersion): Schema {
  const field = ORDER_FIELDS;
  const checkout = LINK_FIELDS.checkout[version];
  const key = version === 'v1' ? '[0-9a-f]{16}' : '[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}';
  const links = {
    type: 'object',
    properties: {
      [checkout]: {
        type: 'string',
        format: 'uri',
        description: 'the payment link: the sandbox’s payment page',
      },
      [LINK_FIELDS.success]: GIVEN_TEXT,
      [LINK_FIELDS.failed]: GIVEN_TEXT,
    },
    required: [checkout, LINK_FIELDS.success, LINK_FIELDS.failed],
    additionalProperties: false,
  };
  const ownFields: Schema =
    version === 'v1'
      ? {
          [field.orderNumber]: { type: 'string', pattern: '^[0-9]+$' },
          [field.currency]: { type: 'string', const: SANDBOX_CURRENCY },
          [field.refNumber]: { type: 'string', pattern: '^REF[0-9]+[0-9A-F]{4}$' },
        }
      : { [field.externalReference]: { type: ['string', 'null'], description: 'null when none was given' } };
  const properties: Schema = {
    [field.id]: {
      type: 'string',
      pattern: `^${PATHS.lookup(version, '')}${key}$`,
      description: 'the lookup path of the order',
    },
    [field.type]: { type: 'string', const: 'Order' },
    [field.uuid]: { type: 'string', format: 'uuid' },
    [field.amount]: AMOUNT_OUT[version],
    [field.status]: STATUS_OUT[version],
    ...ownFields,
    [field.links]: links,
  };
  return { type: 'object', properties, required: Object.keys(properties), additionalProperties: false };
}
