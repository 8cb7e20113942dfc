/**
 * The order bodies as zod schemas, per version (spec §2.3, §2.4), and the conversions between them
 * and payorder's own version-free shapes. With token.ts, the only place the spec's field names are spelled.
 */
// zod/mini: the same validation with a functional API that bundles only what is used, so commands
// that read an order do not pay for all of zod at start-up.
import * as z from 'zod/mini';
import { formatAmount, formatCents, parseAmount, parseCents } from './money.js';
import { filled } from './token.js';
import type { ApiVersion } from './versions.js';

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
    amount: z.unknown(),
    description: filled,
    userName: filled,
    callback_fail: filled,
    callback_success: filled,
    notification_url: z.optional(z.string()),
  }),
  v2: z.object({
    amount: z.unknown(),
    description: filled,
    callback_fail: filled,
    callback_success: filled,
    external_reference: z.optional(z.string()),
    notification_url: z.optional(z.string()),
  }),
} as const;

/** The wire body of an order creation; v1 carries the account user name, v2 never does. */
export function orderRequestBody(
  version: ApiVersion,
  draft: OrderDraft,
  userName?: string,
): Record<string, string> {
  const body: Record<string, string> = {
    amount: version === 'v1' ? formatAmount(draft.amountCents) : formatCents(draft.amountCents),
    description: draft.description,
  };
  if (version === 'v1') body.userName = userName ?? '';
  body.callback_success = draft.successUrl;
  body.callback_fail = draft.failUrl;
  if (draft.notificationUrl !== undefined) body.notification_url = draft.notificationUrl;
  if (version === 'v2' && draft.externalReference !== undefined)
    body.external_reference = draft.externalReference;
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
  if (data.amount === undefined || data.amount === null || data.amount === '') return { problem: 'missing' };
  if (typeof data.amount !== 'string') return { problem: 'amount' };
  let amountCents: bigint;
  try {
    amountCents = version === 'v1' ? parseAmount(data.amount) : parseCents(data.amount);
  } catch {
    return { problem: 'amount' };
  }
  const draft: OrderDraft = {
    amountCents,
    description: data.description,
    successUrl: data.callback_success,
    failUrl: data.callback_fail,
  };
  if (data.notification_url) draft.notificationUrl = data.notification_url;
  if ('external_reference' in data && data.external_reference !== undefined)
    draft.externalReference = data.external_reference;
  return 'userName' in data ? { draft, userName: data.userName } : { draft };
}

// ── Order (spec §2.4) ──────────────────────────────────────────────────────────────────────────

const amountOnWire = z.union([z.string(), z.number()]);

export const orderSchema = {
  v1: z.looseObject({
    id: z.string(),
    type: z.string(),
    uuid: z.string(),
    orderNumber: z.nullish(z.string()),
    currency: z.nullish(z.string()),
    amount: amountOnWire,
    status: z.string(),
    refNumber: z.nullish(z.string()),
    links: z.looseObject({
      checkoutLink: z.optional(z.string()),
      checkout: z.optional(z.string()),
      success: z.nullish(z.string()),
      failed: z.nullish(z.string()),
    }),
  }),
  v2: z.looseObject({
    id: z.string(),
    type: z.string(),
    uuid: z.string(),
    amount: amountOnWire,
    status: z.string(),
    external_reference: z.nullish(z.string()),
    links: z.looseObject({
      checkout_link: z.string(),
      success: z.nullish(z.string()),
      failed: z.nullish(z.string()),
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
  if (version === 'v1') {
    return {
      id: order.id,
      type: 'Order',
      uuid: order.uuid,
      orderNumber: order.orderNumber,
      currency: order.currency,
      amount: JSON.rawJSON(formatAmount(order.amountCents)),
      status: order.status,
      refNumber: order.refNumber,
      links: { checkoutLink: order.checkoutUrl, success: order.successUrl, failed: order.failUrl },
    };
  }
  return {
    id: order.id,
    type: 'Order',
    uuid: order.uuid,
    amount: formatCents(order.amountCents),
    status: order.status,
    external_reference: order.externalReference ?? null,
    links: { checkout_link: order.checkoutUrl, success: order.successUrl, failed: order.failUrl },
  };
}

/** Reads an order body of the given version into payorder's shape; undefined if it is not one. */
export function readOrder(version: ApiVersion, body: unknown): Order | undefined {
  const parsed = version === 'v1' ? orderSchema.v1.safeParse(body) : orderSchema.v2.safeParse(body);
  if (!parsed.success) return undefined;
  const o = parsed.data as z.output<typeof orderSchema.v1> & z.output<typeof orderSchema.v2>;
  const cents = centsOf(() => (version === 'v1' ? parseAmount : parseCents)(String(o.amount)));
  if (cents === undefined) return undefined;
  return {
    version,
    id: o.id,
    uuid: o.uuid,
    type: o.type,
    status: o.status,
    amount: formatAmount(cents),
    amount_cents: formatCents(cents),
    currency: o.currency ?? null,
    order_number: o.orderNumber ?? null,
    ref_number: o.refNumber ?? null,
    external_reference: o.external_reference ?? null,
    links: {
      // v2 calls it checkout_link, v1 checkoutLink, and the reference's v1 sample reads checkout.
      checkout: o.links.checkout_link ?? o.links.checkoutLink ?? o.links.checkout ?? null,
      success: o.links.success ?? null,
      failed: o.links.failed ?? null,
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
 * 92233720368547758.07 is read exactly rather than rounded by a double.
 */
export function parseJsonExact(text: string): unknown {
  return JSON.parse(text, function (this: unknown, key, value, context?: { source?: string }) {
    return key === 'amount' && typeof value === 'number' && context?.source ? context.source : value;
  });
}

/** Order states known to the spec (§3) plus the sandbox's outcome states, which the spec does not show. */
export const ORDER_STATES = {
  pending: 'PENDING',
  refunded: 'REFUNDED',
  paid: 'PAID',
  failed: 'FAILED',
} as const;

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
