/**
 * The spec's names: the field names of the token and order bodies (§2), the one grant type and the
 * order states (§3). Plain data that imports nothing, so masking (loaded at every start-up) and
 * migrate-check can use it without loading the schemas; token.ts and schemas.ts build on it.
 */

/** The only grant type the token service accepts (spec §2.1). */
export const GRANT_TYPE = 'client_credentials';

const SHARED_TOKEN_FIELDS = {
  clientId: 'client_id',
  clientSecretId: 'client_secret_id',
  grantType: 'grant_type',
} as const;

/** The token request's field names per version (spec §2.1): only the user field differs. */
export const TOKEN_FIELDS = {
  v1: { user: 'user_name', ...SHARED_TOKEN_FIELDS },
  v2: { user: 'username', ...SHARED_TOKEN_FIELDS },
} as const;

/** The token response's field names (spec §2.2). */
export const TOKEN_RESPONSE_FIELDS = {
  accessToken: 'access_token',
  expiresIn: 'expires_in',
  tokenType: 'token_type',
} as const;

/** The field names of the order creation body (spec §2.3) and of the order (§2.4), both versions. */
export const ORDER_FIELDS = {
  amount: 'amount',
  description: 'description',
  /** v1 creation body only: the account user. */
  userName: 'userName',
  successUrl: 'callback_success',
  failUrl: 'callback_fail',
  notificationUrl: 'notification_url',
  /** v2 only, in the creation body and in the order. */
  externalReference: 'external_reference',
  id: 'id',
  type: 'type',
  uuid: 'uuid',
  status: 'status',
  /** v1 order only, as are currency and refNumber. */
  orderNumber: 'orderNumber',
  currency: 'currency',
  refNumber: 'refNumber',
  links: 'links',
} as const;

/** The order's links object (spec §2.4): only the payment link's name differs by version. */
export const LINK_FIELDS = {
  checkout: { v1: 'checkoutLink', v2: 'checkout_link' },
  /** Where the reference's v1 client sample reads the payment link from. */
  sampleCheckout: 'checkout',
  success: 'success',
  failed: 'failed',
} as const;

/** Order states known to the spec (§3) plus the sandbox's outcome states, which the spec does not show. */
export const ORDER_STATES = {
  pending: 'PENDING',
  refunded: 'REFUNDED',
  paid: 'PAID',
  failed: 'FAILED',
} as const;
