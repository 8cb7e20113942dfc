/**
 * The order bodies as zod schemas, per version (spec §2.3, §2.4), and the conversions between them
 * and payorder's own version-free shapes. The spec's field names come from fields.ts.
 */
// zod/mini: the same validation with a functional API that bundles only what is used, so commands
// that read an order do not pay for all of zod at start-up.
import * as z from 'zod/mini';
import { LINK_FIELDS, ORDER_FIELDS } from './fields.js';
import { formatAmount, formatCents, parseAmount, parseCents } from './money.js';
import { filled } from './token.js';
import type { ApiVersion } from './versions.js';

const field = ORDER_FIELDS;
const link = LINK_FIELDS;

// ── Order creation (spec §2.3) ─────────────────────────────────────────────────────────────────

/** An order to create, version-free. Amounts are integer cents. */
export interface OrderDraft {
  amountCents: bigint;
  description: string;
  successUrl: string;
  failUrl: string;
  notificationUrl?: string;
  externalReference?: string;
}

export const orderRequestSchema = {
  v1: z.object({
    [field.amount]: z.unknown(),
    [field.description]: filled,
    [field.userName]: filled,
    [field.failUrl]: filled,
    [field.successUrl]: filled,
    [field.notificationUrl]: z.optional(z.string()),
  }),
  v2: z.object({
    [field.amount]: z.unknown(),
    [field.description]: filled,
    [field.failUrl]: filled,
    [field.successUrl]: filled,
    [field.externalReference]: z.optional(z.string()),
    [field.notificationUrl]: z.optional(z.string()),
  }),
} as const;

/** The wire body of an order creation; v1 carries the account user name, v2 never does. */
export function orderRequestBody(
  version: ApiVersion,
  draft: OrderDraft,
  userName?: string,
): Record<string, string> {
  const body: Record<string, string> = {
    [field.amount]: version === 'v1' ? formatAmount(draft.amountCents) : formatCents(draft.amountCents),
    [field.description]: draft.description,
  };
  if (version === 'v1') body[field.userName] = userName ?? '';
  body[field.successUrl] = draft.successUrl;
  body[field.failUrl] = draft.failUrl;
  if (draft.notificationUrl !== undefined) body[field.notificationUrl] = draft.notificationUrl;
  if (version === 'v2' && draft.externalReference !== undefined)
    body[field.externalReference] = draft.externalReference;
  return body;
}

export type OrderRequestProblem = 'missing' | 'amount';

/** Reads an order creation body as the service would: a missing field is 1001, a bad amount 1003. */
export function readOrderRequest(
  version: ApiVersion,
  body: unknown,
): { draft: OrderDraft; userName?: string } | { problem: OrderRequestProblem } {
  const parsed = orderRequestSchema[version].safeParse(body);
  if (!parsed.success) return { problem: 'missing' };
  const data = parsed.data;
  const amount = data[field.amount];
  if (amount === undefined || amount === null || amount === '') return { problem: 'missing' };
  if (typeof amount !== 'string') return { problem: 'amount' };
  let amountCents: bigint;
  try {
    amountCents = version === 'v1' ? parseAmount(amount) : parseCents(amount);
  } catch {
    return { problem: 'amount' };
  }
  const draft: OrderDraft = {
    amountCents,
    description: data[field.description],
    successUrl: data[field.successUrl],
    failUrl: data[field.failUrl],
  };
  const notificationUrl = data[field.notificationUrl];
  if (notificationUrl) draft.notificationUrl = notificationUrl;
  if (field.externalReference in data && data[field.externalReference] !== undefined)
    draft.externalReference = data[field.externalReference];
  return field.userName in data ? { draft, userName: data[field.userName] } : { draft };
}

// ── Order (spec §2.4) ──────────────────────────────────────────────────────────────────────────

const amountOnWire = z.union([z.string(), z.number()]);

export const orderSchema = {
  v1: z.looseObject({
    [field.id]: z.string(),
    [field.type]: z.string(),
    [field.uuid]: z.string(),
    [field.orderNumber]: z.nullish(z.string()),
    [field.currency]: z.nullish(z.string()),
    [field.amount]: amountOnWire,
    [field.status]: z.string(),
    [field.refNumber]: z.nullish(z.string()),
    [field.links]: z.looseObject({
      [link.checkout.v1]: z.optional(z.string()),
      [link.sampleCheckout]: z.optional(z.string()),
      [link.success]: z.nullish(z.string()),
      [link.failed]: z.nullish(z.string()),
    }),
  }),
  v2: z.looseObject({
    [field.id]: z.string(),
    [field.type]: z.string(),
    [field.uuid]: z.string(),
    [field.amount]: amountOnWire,
    [field.status]: z.string(),
    [field.externalReference]: z.nullish(z.string()),
    [field.links]: z.looseObject({
      [link.checkout.v2]: z.string(),
      [link.success]: z.nullish(z.string()),
      [link.failed]: z.nullish(z.string()),
    }),
  }),
} as const;

/**
 * payorder's one order shape, the same for both versions (documented in the README): the payment
 * link is always `links.checkout`, the amount an exact decimal string, v1-only fields null on v2.
 */
export interface Order {
  version: ApiVersion;
  id: string;
  uuid: string;
  type: string;
  status: string;
  amount: string;
  amount_cents: string;
  currency: string | null;
  order_number: string | null;
  ref_number: string | null;
  external_reference: string | null;
  links: { checkout: string | null; success: string | null; failed: string | null };
}

/** What the service knows of an order, as the sandbox keeps it. */
export interface StoredOrder {
  readonly version: ApiVersion;
  readonly id: string;
  readonly uuid: string;
  readonly status: string;
  readonly amountCents: bigint;
  readonly currency?: string;
  readonly orderNumber?: string;
  readonly refNumber?: string;
  readonly externalReference?: string;
  readonly checkoutUrl: string;
  readonly successUrl: string;
  readonly failUrl: string;
}

/**
 * The service's body for an order, in the given version's shape (default: the version it was created
 * on); v1's amount is a JSON number, written exactly.
 */
export function orderResponseBody(
  order: StoredOrder,
  version: ApiVersion = order.version,
): Record<string, unknown> {
  const links = (checkout: string) => ({
    [checkout]: order.checkoutUrl,
    [link.success]: order.successUrl,
    [link.failed]: order.failUrl,
  });
  if (version === 'v1') {
    return {
      [field.id]: order.id,
      [field.type]: 'Order',
      [field.uuid]: order.uuid,
      [field.orderNumber]: order.orderNumber,
      [field.currency]: order.currency,
      [field.amount]: JSON.rawJSON(formatAmount(order.amountCents)),
      [field.status]: order.status,
      [field.refNumber]: order.refNumber,
      [field.links]: links(link.checkout.v1),
    };
  }
  return {
    [field.id]: order.id,
    [field.type]: 'Order',
    [field.uuid]: order.uuid,
    [field.amount]: formatCents(order.amountCents),
    [field.status]: order.status,
    [field.externalReference]: order.externalReference ?? null,
    [field.links]: links(link.checkout.v2),
  };
}

/** Reads an order body of the given version into payorder's shape; undefined if it is not one. */
export function readOrder(version: ApiVersion, body: unknown): Order | undefined {
  const parsed = version === 'v1' ? orderSchema.v1.safeParse(body) : orderSchema.v2.safeParse(body);
  if (!parsed.success) return undefined;
  const o = parsed.data as z.output<typeof orderSchema.v1> & z.output<typeof orderSchema.v2>;
  const cents = centsOf(() => (version === 'v1' ? parseAmount : parseCents)(String(o[field.amount])));
  if (cents === undefined) return undefined;
  const links = o[field.links];
  return {
    version,
    id: o[field.id],
    uuid: o[field.uuid],
    type: o[field.type],
    status: o[field.status],
    amount: formatAmount(cents),
    amount_cents: formatCents(cents),
    currency: o[field.currency] ?? null,
    order_number: o[field.orderNumber] ?? null,
    ref_number: o[field.refNumber] ?? null,
    external_reference: o[field.externalReference] ?? null,
    links: {
      // The payment link's name differs by version, and the reference's v1 sample reads yet another.
      checkout: links[link.checkout.v2] ?? links[link.checkout.v1] ?? links[link.sampleCheckout] ?? null,
      success: links[link.success] ?? null,
      failed: links[link.failed] ?? null,
    },
  };
}

function centsOf(parse: () => bigint): bigint | undefined {
  try {
    return parse();
  } catch {
    return undefined;
  }
}

/**
 * Parses a JSON body keeping every `amount` number as its source text, so a v1 amount such as
 * 92233720368547758.07 is read exactly rather than rounded by a double. A reviver triples the time
 * of a parse: the body is parsed again with one only when an amount in it is a number.
 */
export function parseJsonExact(text: string): unknown {
  const plain: unknown = JSON.parse(text);
  if (!hasNumericAmount(plain)) return plain;
  return JSON.parse(text, function (this: unknown, key, value, context?: { source?: string }) {
    return key === field.amount && typeof value === 'number' && context?.source ? context.source : value;
  });
}

/** Whether `value` holds, at any depth, an `amount` that JSON.parse made a number. */
function hasNumericAmount(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) return value.some(hasNumericAmount);
  for (const [key, inner] of Object.entries(value)) {
    if (key === field.amount ? typeof inner === 'number' : hasNumericAmount(inner)) return true;
  }
  return false;
}

/** payorder's documented JSON shape of an order (README "JSON output"), for tests and for users' tooling. */
export const orderOutputSchema = z.strictObject({
  version: z.enum(['v1', 'v2']),
  id: z.string(),
  uuid: z.string(),
  type: z.string(),
  status: z.string(),
  amount: z.string().check(z.regex(/^\d+\.\d{2}$/)),
  amount_cents: z.string().check(z.regex(/^\d+$/)),
  currency: z.nullable(z.string()),
  order_number: z.nullable(z.string()),
  ref_number: z.nullable(z.string()),
  external_reference: z.nullable(z.string()),
  links: z.strictObject({
    checkout: z.nullable(z.string()),
    success: z.nullable(z.string()),
    failed: z.nullable(z.string()),
  }),
});
